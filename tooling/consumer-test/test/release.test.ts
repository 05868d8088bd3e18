// The release flow on a throwaway copy of the checkout (the checkout is left
// alone): `changeset version` applies the pending changesets, then
// `pnpm -r publish --dry-run` packs and would publish every public package.
import { execFile } from "node:child_process";
import { cp, mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, expect, it } from "vitest";

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const PUBLIC = [
  "packages/cli",
  "packages/codecs",
  "packages/core",
  "packages/crc32c",
  "packages/http",
  "packages/neuroglancer",
  "packages/registry",
  "packages/sharding",
  "packages/store-fetch",
  "packages/store-fs",
  "packages/store-idb",
  "packages/store-reference",
  "packages/store-s3",
  "packages/store-zip",
  "packages/util",
  "packages/zarrkit",
  "tooling/test-utils",
];

let copy: string | undefined;
afterAll(async () => {
  if (copy) await rm(copy, { recursive: true, force: true });
});

/** The environment without what pnpm or turbo set for their own child processes. */
function cleanEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_|^PNPM_|^TURBO_/i.test(name)));
}

async function version(dir: string, base: string): Promise<string> {
  return JSON.parse(await readFile(join(base, dir, "package.json"), "utf8")).version;
}

it("versions the pending changesets and dry-runs the publish of every public package", async () => {
  copy = await mkdtemp(join(tmpdir(), "zarrkit-release-"));
  // The files of a clean clone (tracked, and new ones not ignored), plus the packages' builds.
  const { stdout } = await run("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], {
    cwd: ROOT,
    maxBuffer: 64 * 2 ** 20,
  });
  const files = stdout.split("\0").filter(Boolean);
  for (const file of files)
    await cp(join(ROOT, file), join(copy, file)).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== "ENOENT") throw error; // deleted but not yet committed
    });
  for (const dir of PUBLIC) await cp(join(ROOT, dir, "dist"), join(copy, dir, "dist"), { recursive: true });
  const pending = (await readdir(join(ROOT, ".changeset"))).filter(
    (name) => name.endsWith(".md") && name !== "README.md",
  );
  const before = await Promise.all(PUBLIC.map((dir) => version(dir, ROOT)));

  const env = cleanEnv();
  await run(join(ROOT, "node_modules", ".bin", "changeset"), ["version"], { cwd: copy, env });
  const after = await Promise.all(PUBLIC.map((dir) => version(dir, copy!)));
  if (pending.length > 0) {
    expect(after).not.toEqual(before);
    expect(
      (await readdir(join(copy, ".changeset"))).filter((name) => name.endsWith(".md") && name !== "README.md"),
    ).toEqual([]);
  }
  // The checkout itself is untouched.
  expect(await Promise.all(PUBLIC.map((dir) => version(dir, ROOT)))).toEqual(before);

  await run("pnpm", ["install", "--offline", "--ignore-scripts"], { cwd: copy, env });
  const published = await run("pnpm", ["-r", "publish", "--dry-run", "--no-git-checks"], {
    cwd: copy,
    env,
    maxBuffer: 64 * 2 ** 20,
  });
  const names = [...published.stdout.matchAll(/^\+ (\S+)@(\S+)$/gm)].map((m) => `${m[1]}@${m[2]}`).sort();
  const expected = await Promise.all(
    PUBLIC.map(
      async (dir) =>
        `${JSON.parse(await readFile(join(copy!, dir, "package.json"), "utf8")).name}@${await version(dir, copy!)}`,
    ),
  );
  expect(names).toEqual(expected.sort());
});
