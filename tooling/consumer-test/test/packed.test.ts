// A third party's view: the packed tarballs, installed by npm into a folder
// outside the workspace, then the example plugin codec decoding on a codec
// worker, the example store passing the conformance suite, require() from
// CommonJS and the types under "bundler" and "nodenext" resolution.
import { execFile } from "node:child_process";
import { cp, mkdir, mkdtemp, readdir, readFile, realpath, rm, symlink, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const CONSUMER = fileURLToPath(new URL("../consumer/", import.meta.url));
/** The packages a consumer installs: every published one and the two examples. */
const PACKED = ["./packages/*", "./tooling/test-utils", "./tooling/examples/*"];

/** The environment without what pnpm or turbo set for their own child processes (npm would take it as its config). */
function cleanEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_|^PNPM_|^TURBO_/i.test(name)));
}

let app: string;
let work: string;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), "zarrkit-consumer-"));
  const tarballs = join(work, "tarballs");
  app = join(work, "app");
  await run("pnpm", ["-r", ...PACKED.flatMap((f) => ["--filter", f]), "pack", "--pack-destination", tarballs], {
    cwd: ROOT,
  });
  const dependencies: Record<string, string> = {};
  for (const file of await readdir(tarballs)) {
    const { stdout } = await run("tar", ["-xzOf", join(tarballs, file), "package/package.json"]);
    dependencies[JSON.parse(stdout).name] = `file:../tarballs/${file}`;
  }
  await mkdir(app);
  await cp(CONSUMER, app, { recursive: true });
  await writeFile(
    join(app, "package.json"),
    JSON.stringify({ name: "consumer", private: true, type: "module", dependencies }, null, 2),
  );
  // Third-party dependencies come from npm's cache when it has them, else from the registry.
  await run("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund", "--legacy-peer-deps"], {
    cwd: app,
    env: cleanEnv(),
  });
  // vitest is the consumer's own test runner: this checkout's copy, rather than another download.
  const vitest = await realpath(dirname(createRequire(join(ROOT, "package.json")).resolve("vitest/package.json")));
  await symlink(vitest, join(app, "node_modules", "vitest"), "dir");
});

afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

describe("the packed packages, installed by npm outside the workspace", () => {
  it("ship their LICENSE and no workspace: ranges", async () => {
    for (const name of ["zarrkit", "@zarrkit/core", "@zarrkit/registry", "@zarrkit/test-utils", "@zarrkit/cli"]) {
      const dir = join(app, "node_modules", name);
      expect(await readFile(join(dir, "LICENSE"), "utf8")).toMatch(/^MIT License/);
      expect(await readFile(join(dir, "package.json"), "utf8")).not.toContain("workspace:");
    }
  });

  it("run the plugin codec on a codec worker and open the plugin store by URL", async () => {
    const { stdout } = await run(process.execPath, ["main.mjs"], { cwd: app, env: cleanEnv() });
    const result = JSON.parse(stdout.trim().split("\n").pop()!);
    expect(result).toMatchObject({ same: true, mapStore: true, fileSystemStore: "function" });
    expect(result.dispatched).toBeGreaterThan(0);
    expect(result.refused).toBeUndefined();
    expect(result.failure).toBeUndefined();
  });

  it("load with require() from CommonJS", async () => {
    const { stdout } = await run(process.execPath, ["require.cjs"], { cwd: app, env: cleanEnv() });
    expect(JSON.parse(stdout)).toEqual({ openStore: "function", FileSystemStore: "function" });
  });

  it("pass the store conformance suite for the example store", async () => {
    const vitest = join(app, "node_modules", "vitest", "vitest.mjs");
    const { stdout } = await run(process.execPath, [vitest, "run", "--root", app, "conformance.test.js"], {
      cwd: app,
      env: cleanEnv(),
    });
    expect(stdout).toMatch(/Tests\s+.*\d+ passed/);
    expect(stdout).not.toMatch(/failed/);
  });

  it.each(["bundler", "nodenext"])("type-check under moduleResolution %s", async (resolution) => {
    const compilerOptions = {
      target: "ES2022",
      lib: ["ES2023", "DOM"],
      strict: true,
      noEmit: true,
      skipLibCheck: true,
      types: [],
      module: resolution === "bundler" ? "ESNext" : "NodeNext",
      moduleResolution: resolution,
    };
    await writeFile(join(app, `tsconfig.${resolution}.json`), JSON.stringify({ compilerOptions, files: ["types.ts"] }));
    const tsc = createRequire(join(ROOT, "package.json")).resolve("typescript/bin/tsc");
    await run(process.execPath, [tsc, "-p", `tsconfig.${resolution}.json`], { cwd: app });
  });
});
