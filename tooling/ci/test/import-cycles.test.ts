import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { describeCycle, findImportCycles, type ImportCycle, workspacePackages } from "../src/import-cycles.js";

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), "../../..");

describe("the workspace", () => {
  it("has no import cycle (type-only included) among the src files of any package", () => {
    const packages = workspacePackages(repoRoot);
    expect(packages.map((dir) => relative(repoRoot, dir))).toContain("packages/core");
    const cycles = findImportCycles(packages);
    expect(cycles.map((cycle) => describeCycle(cycle, repoRoot))).toEqual([]);
  }, 120_000);
});

describe("findImportCycles on made-up packages", () => {
  const root = mkdtempSync(join(tmpdir(), "zarrkit-import-cycles-"));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  const tsconfig = {
    compilerOptions: {
      module: "NodeNext",
      moduleResolution: "NodeNext",
      customConditions: ["@zarrkit/source"],
      strict: true,
    },
  };

  /** A package `name` in `root/dir` with `files` below its src; `manifest` is merged into its package.json. */
  function writePackage(dir: string, name: string, files: Record<string, string>, manifest: object = {}): string {
    const packageDir = join(root, dir);
    mkdirSync(join(packageDir, "src"), { recursive: true });
    const exports = { ".": { "@zarrkit/source": "./src/index.ts", default: "./dist/index.js" } };
    writeFileSync(join(packageDir, "package.json"), JSON.stringify({ name, type: "module", exports, ...manifest }));
    writeFileSync(join(packageDir, "tsconfig.json"), JSON.stringify(tsconfig));
    for (const [file, text] of Object.entries(files)) {
      mkdirSync(dirname(join(packageDir, "src", file)), { recursive: true });
      writeFileSync(join(packageDir, "src", file), text);
    }
    return packageDir;
  }

  /** Each cycle as its files relative to `root`, in import order. */
  const files = (cycles: ImportCycle[]) => cycles.map((c) => c.edges.map((edge) => relative(root, edge.from)));

  it("finds a cycle of `export *` re-exports", () => {
    const dir = writePackage("star", "@fake/star", {
      "index.ts": 'export * from "./a.js";\n',
      "a.ts": 'export * from "./b.js";\nexport const a = 1;\n',
      "b.ts": 'export * from "./a.js";\nexport const b = 2;\n',
    });
    const cycles = findImportCycles([dir]);
    expect(files(cycles)).toEqual([["star/src/a.ts", "star/src/b.ts"]]);
    expect(describeCycle(cycles[0]!, root)).toBe(
      'star/src/a.ts:1 imports "./b.js" -> star/src/b.ts:1 imports "./a.js" -> back to star/src/a.ts',
    );
  });

  it("finds a cycle of type-only imports and import() types", () => {
    const dir = writePackage("types", "@fake/types", {
      "index.ts": 'export type { A } from "./a.js";\n',
      "a.ts": 'import type { B } from "./b.js";\nexport interface A { b?: B }\n',
      "b.ts": 'export interface B { a?: import("./a.js").A }\n',
    });
    expect(files(findImportCycles([dir]))).toEqual([["types/src/a.ts", "types/src/b.ts"]]);
  });

  it("finds a cycle through a barrel: a module importing its own package's index", () => {
    const dir = writePackage("barrel", "@fake/barrel", {
      "index.ts": 'export { helper } from "./helper.js";\nexport { user } from "./user.js";\n',
      "helper.ts": "export const helper = 1;\n",
      "user.ts": 'import { helper } from "./index.js";\nexport const user = () => helper;\n',
    });
    expect(files(findImportCycles([dir]))).toEqual([["barrel/src/index.ts", "barrel/src/user.ts"]]);
  });

  it("finds a cycle through the package's own name (the @zarrkit/source export condition)", () => {
    const dir = writePackage("self", "@fake/self", {
      "index.ts": 'export { user } from "./user.js";\n',
      "user.ts": 'import type { user as again } from "@fake/self";\nexport const user = (u?: typeof again) => u;\n',
    });
    expect(files(findImportCycles([dir]))).toEqual([["self/src/index.ts", "self/src/user.ts"]]);
  });

  it("finds a cycle through a # subpath import's browser variant, which Node resolution never picks", () => {
    const platform = {
      "@zarrkit/source": { node: "./src/platform-node.ts", default: "./src/platform-browser.ts" },
      default: "./dist/platform-browser.js",
    };
    const dir = writePackage(
      "subpath",
      "@fake/subpath",
      {
        "index.ts": 'export { settings } from "./settings.js";\n',
        "settings.ts":
          'import { spawn } from "#platform";\nexport interface Settings { n: number }\n' +
          "export const settings = spawn;\n",
        "platform-node.ts": "export const spawn = () => 1;\n",
        "platform-browser.ts":
          'import type { Settings } from "./settings.js";\n' + "export const spawn = (s?: Settings) => s;\n",
      },
      { imports: { "#platform": platform } },
    );
    expect(files(findImportCycles([dir]))).toEqual([["subpath/src/platform-browser.ts", "subpath/src/settings.ts"]]);
  });

  it("finds a cycle between two packages and names a tangle's other files", () => {
    const one = writePackage("one", "@fake/one", {
      "index.ts": 'export { one } from "./one.js";\n',
      "one.ts": 'import { two } from "@fake/two";\nexport const one = () => two;\n',
    });
    const two = writePackage("two", "@fake/two", {
      "index.ts":
        'import { one } from "@fake/one";\nexport const two = () => one;\nexport { three } from "./three.js";\n',
      "three.ts": 'import { two } from "./index.js";\nexport const three = () => two;\n',
    });
    mkdirSync(join(root, "node_modules/@fake"), { recursive: true });
    symlinkSync(one, join(root, "node_modules/@fake/one"), "dir");
    symlinkSync(two, join(root, "node_modules/@fake/two"), "dir");
    const cycles = findImportCycles([one, two]);
    expect(files(cycles)).toEqual([["one/src/index.ts", "one/src/one.ts", "two/src/index.ts"]]);
    expect(cycles[0]!.tangle.map((file) => relative(root, file))).toEqual([
      "one/src/index.ts",
      "one/src/one.ts",
      "two/src/index.ts",
      "two/src/three.ts",
    ]);
    expect(describeCycle(cycles[0]!, root)).toMatch(
      /two\/src\/index\.ts:1 imports "@fake\/one" -> back to one\/src\/index\.ts \(1 more file in the same tangle\)$/,
    );
  });

  it("finds nothing where imports go one way, and ignores imports outside the packages given", () => {
    const dir = writePackage("acyclic", "@fake/acyclic", {
      "index.ts": 'export * from "./a.js";\nexport type { B } from "./b.js";\n',
      "a.ts":
        'import type { B } from "./b.js";\nimport { join } from "node:path";\nexport const a = (b: B) => join(b.n);\n',
      "b.ts": "export interface B { n: string }\n",
    });
    expect(findImportCycles([dir])).toEqual([]);
  });
});
