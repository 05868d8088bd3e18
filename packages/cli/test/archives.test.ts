// zip and .ozx archives on the command line: converting from an archive
// (written by Python's zipfile) through a URL pipeline, converting into an
// .ozx (read by Python's zipfile and back by zarrkit), a killed conversion
// into an archive (no partial archive; a rerun resumes), info/tree/verify.
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createArray, FileSystemStore, openArray, openStore } from "zarrkit";
import { killAfter, run } from "./helpers.js";

const ZIP = `
import sys, zipfile
from pathlib import Path
root, out = Path(sys.argv[1]), sys.argv[2]
files = sorted((p for p in root.rglob("*") if p.is_file()), key=lambda p: (p.name != "zarr.json", len(p.parts), str(p)))
with zipfile.ZipFile(out, "x") as z:
    for f in files:
        with z.open(f.relative_to(root).as_posix(), "w", force_zip64=True) as dest:
            dest.write(f.read_bytes())
`;

const INSPECT = `
import json, sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as z:
    infos = z.infolist()
    print(json.dumps({"names": [i.filename for i in infos], "methods": sorted({i.compress_type for i in infos}),
                      "comment": z.comment.decode(), "badCrc": z.testzip()}))
`;

const python = (script: string, args: string[]) =>
  execFileSync("/usr/bin/python3", ["-c", script, ...args], { encoding: "utf8" });
const value = (i: number, j: number) => (i * 7 + j * 3) % 1000;

let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "zarrkit-archives-"));
  const source = new FileSystemStore(join(root, "src.zarr"));
  const array = await createArray(source, "", { shape: [120, 90], dataType: "int32", chunkShape: [10, 10] });
  const data = new Int32Array(120 * 90);
  for (let i = 0; i < 120; i++) for (let j = 0; j < 90; j++) data[i * 90 + j] = value(i, j);
  await array.set([null, null], { data, shape: [120, 90] });
  python(ZIP, [join(root, "src.zarr"), join(root, "src.zip")]);
});
afterAll(() => rm(root, { recursive: true, force: true }));

async function expectValues(store: Awaited<ReturnType<typeof openStore>>, path: string): Promise<void> {
  const { data, shape } = await (await openArray(store, path)).get();
  expect(shape).toEqual([120, 90]);
  for (const [i, j] of [
    [0, 0],
    [57, 33],
    [119, 89],
  ] as const)
    expect(data[i * 90 + j], `${i},${j}`).toBe(value(i, j));
}

describe("archives on the command line", () => {
  it("converts from an archive written by Python's zipfile, through a URL pipeline and a plain .zip path", async () => {
    for (const src of [`${join(root, "src.zip")}|zip:`, join(root, "src.zip")]) {
      const dst = join(root, `from-zip-${src.endsWith("|zip:") ? "pipeline" : "plain"}.zarr`);
      const r = await run(["convert", src, dst, "--shard-shape", "40,30", "--progress", "none"]);
      expect(r.code, r.stderr).toBe(0);
      await expectValues(await openStore(pathToFileURL(dst).href), "");
    }
  });

  it("converts into an .ozx that Python's zipfile reads the RFC-9 way, and zarrkit reads back", async () => {
    const dst = join(root, "image.ozx");
    const r = await run(["convert", join(root, "src.zarr"), dst, "--multiscale", "2", "--progress", "none"]);
    expect(r.code, r.stderr).toBe(0);
    expect(existsSync(`${dst}.zarrkit-partial`), "the staging folder is gone").toBe(false);
    const seen = JSON.parse(python(INSPECT, [dst]));
    expect(seen.methods).toEqual([0]);
    expect(seen.badCrc).toBe(null);
    expect(seen.names[0]).toBe("zarr.json");
    const metadata = (seen.names as string[]).filter((n) => n.endsWith("zarr.json"));
    expect(seen.names.slice(0, metadata.length)).toEqual(metadata);
    expect(JSON.parse(seen.comment).ome.version).toMatch(/^0\.\d+$/);
    await expectValues(await openStore(pathToFileURL(dst).href), "0");
    const again = await run(["convert", join(root, "src.zarr"), dst, "--multiscale", "2", "--progress", "none"]);
    expect(again.code).not.toBe(0);
    expect(again.stderr).toMatch(/already exists; pass --overwrite/);
  });

  it("a killed conversion into an archive leaves no archive; the rerun resumes and writes it", async () => {
    const dst = join(root, "killed.zip");
    const args = ["convert", join(root, "src.zarr"), dst, "--shard-shape", "10,10", "--jobs", "1"];
    args.push("--progress", "none");
    const stored = await killAfter(args, `${dst}.zarrkit-partial`, 5);
    expect(stored, "the convert ended before it could be killed").toBeLessThan(Number.POSITIVE_INFINITY);
    expect(existsSync(dst), "no partial archive").toBe(false);
    const r = await run(args);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/already present/);
    expect(existsSync(`${dst}.zarrkit-partial`)).toBe(false);
    await expectValues(await openStore(pathToFileURL(dst).href), "");
  });

  it("info, tree and verify read archives", async () => {
    const ozx = join(root, "image.ozx");
    const info = await run(["info", `${ozx}|zip:0`]);
    expect(info.code, info.stderr).toBe(0);
    expect(info.stdout).toMatch(/120.*90/);
    const tree = await run(["tree", ozx]);
    expect(tree.code, tree.stderr).toBe(0);
    expect(tree.stdout).toMatch(/\b0\b/);
    expect(tree.stdout).toMatch(/\b2\b/);
    const verify = await run(["verify", ozx, "--deep"]);
    expect(verify.code, verify.stderr + verify.stdout).toBe(0);
  });
});
