import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { entryPoints, runPackage } from "../src/api-report.js";
import { run } from "../src/main.js";

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

/** A built package `@example/widgets` with a main entry point and an `./extra` subpath, as declarations only. */
function fixturePackage(main: string): string {
  const root = mkdtempSync(join(tmpdir(), "api-report-test-"));
  roots.push(root);
  mkdirSync(join(root, "dist"));
  const entry = (name: string) => ({ types: `./dist/${name}.d.ts`, default: `./dist/${name}.js` });
  const exports = { ".": entry("index"), "./extra": entry("extra") };
  writeFileSync(join(root, "package.json"), JSON.stringify({ name: "@example/widgets", version: "1.0.0", exports }));
  writeFileSync(join(root, "dist/index.d.ts"), main);
  writeFileSync(join(root, "dist/extra.d.ts"), "/** Doubles. */\nexport declare function twice(n: number): number;\n");
  return root;
}

const MAIN = "/** A widget. */\nexport interface Widget {\n  /** Its size. */\n  size: number;\n}\n";

/** Runs the command line; returns its exit code and what it wrote. */
function runCommand(args: string[]): { code: number; out: string; err: string } {
  const out: string[] = [];
  const err: string[] = [];
  const code = run(
    args,
    (text) => out.push(text),
    (text) => err.push(text),
  );
  return { code, out: out.join("\n"), err: err.join("\n") };
}

describe("API reports", () => {
  it("writes one report per entry point, then passes a check of the same exports", () => {
    const root = fixturePackage(MAIN);
    const written = runPackage(root, { update: true });
    expect(written.errors).toEqual([]);
    expect(written.changed).toEqual(["api/widgets.api.md", "api/widgets-extra.api.md"]);
    expect(readFileSync(join(root, "api/widgets.api.md"), "utf8")).toContain(
      "export interface Widget {\n    size: number;\n}",
    );
    expect(readFileSync(join(root, "api/widgets-extra.api.md"), "utf8")).toContain(
      "export function twice(n: number): number;",
    );
    const checked = runCommand([root]);
    expect(checked).toMatchObject({ code: 0, out: "@example/widgets: API reports up to date", err: "" });
  });

  it("fails a check when an export differs from its report, naming the package, the report and the fix", () => {
    const root = fixturePackage(MAIN);
    runPackage(root, { update: true });
    const before = readFileSync(join(root, "api/widgets.api.md"), "utf8");
    writeFileSync(
      join(root, "dist/index.d.ts"),
      `${MAIN}/** Makes one. */\nexport declare function widget(): Widget;\n`,
    );
    const checked = runCommand([root]);
    expect(checked.code).toBe(1);
    expect(checked.err).toContain("@example/widgets: the exports differ from the committed API report");
    expect(checked.err).toContain("api/widgets.api.md");
    expect(checked.err).toContain("+export function widget(): Widget;");
    expect(checked.err).toContain("pnpm api:update");
    // A check leaves the committed report alone.
    expect(readFileSync(join(root, "api/widgets.api.md"), "utf8")).toBe(before);
    expect(runCommand(["--update", root]).code).toBe(0);
    expect(runCommand([root]).code).toBe(0);
  });

  it("fails a check when a changed signature keeps the export's name", () => {
    const root = fixturePackage(MAIN);
    runPackage(root, { update: true });
    writeFileSync(join(root, "dist/index.d.ts"), MAIN.replace("size: number", "size: bigint"));
    const checked = runCommand([root]);
    expect(checked.code).toBe(1);
    expect(checked.err).toContain("+    size: bigint;");
  });

  it("fails a check when a package has no committed report", () => {
    const root = fixturePackage(MAIN);
    const checked = runCommand([root]);
    expect(checked.code).toBe(1);
    expect(checked.err).toContain("api/widgets.api.md, api/widgets-extra.api.md");
  });

  it("fails when the declarations are missing (the package is not built)", () => {
    const root = fixturePackage(MAIN);
    runPackage(root, { update: true });
    rmSync(join(root, "dist"), { recursive: true });
    const checked = runCommand([root]);
    expect(checked.code).toBe(1);
    expect(checked.err).toContain("@example/widgets: widgets: dist/index.d.ts is missing: build the package first");
  });

  it("refuses an unknown option, naming it", () => {
    expect(runCommand(["--fix"])).toMatchObject({ code: 2, err: expect.stringContaining("--fix") });
  });

  it("reads the entry points of each export condition (zarrkit's node and default declarations)", () => {
    const zarrkit = join(import.meta.dirname, "../../../packages/zarrkit");
    expect(entryPoints(zarrkit).map((entry) => [entry.subpath, entry.condition, entry.reportName])).toEqual([
      [".", "node", "zarrkit-node"],
      [".", "", "zarrkit"],
      ["./codec-worker", "", "zarrkit-codec-worker"],
    ]);
  });
});
