import { readdirSync, readlinkSync } from "node:fs";
import { mkdir, rename, symlink, unlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { StoreError } from "@zarrkit/registry";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { FileSystemStore } from "../src/index.js";
import { PathGuard } from "../src/paths.js";
import { ReadHandles } from "../src/read-handles.js";
import { tempDir } from "./temp-dir.js";

const linux = process.platform === "linux";
const decode = (b: Uint8Array | undefined) => (b === undefined ? undefined : new TextDecoder().decode(b));

/** Descriptors this process holds open on files under `dir`. */
function openUnder(dir: string): number {
  let n = 0;
  for (const fd of readdirSync("/proc/self/fd")) {
    try {
      if (readlinkSync(`/proc/self/fd/${fd}`).startsWith(dir)) n++;
    } catch {
      // closed between the listing and the readlink
    }
  }
  return n;
}

/** Wait (bounded) until `check` holds: closes of files are not waited for. */
async function eventually(check: () => boolean): Promise<boolean> {
  for (let waited = 0; !check() && waited < 5000; waited += 10) await new Promise((r) => setTimeout(r, 10));
  return check();
}

let dir: Awaited<ReturnType<typeof tempDir>>;
let root: string;
beforeEach(async () => {
  dir = await tempDir();
  root = join(dir.path, "store");
  await mkdir(join(root, "d"), { recursive: true });
  await writeFile(join(root, "d", "k"), "first");
});
afterEach(() => dir.remove());

describe.runIf(linux)("files kept open between reads", () => {
  it("reuses the open file for the next read of the same key", async () => {
    const store = new FileSystemStore(root);
    expect(decode(await store.getRange("d/k", { offset: 1, length: 3 }))).toBe("irs");
    expect(openUnder(root)).toBe(1);
    expect(decode(await store.getRange("d/k", { offset: 0, length: 2 }))).toBe("fi");
    expect(openUnder(root)).toBe(1);
  });

  it("reads a value replaced behind its back (rename over it) afresh", async () => {
    const store = new FileSystemStore(root);
    expect(decode(await store.get("d/k"))).toBe("first");
    await writeFile(join(root, "d", "k.tmp"), "second");
    await rename(join(root, "d", "k.tmp"), join(root, "d", "k"));
    expect(decode(await store.get("d/k"))).toBe("second");
    expect(await eventually(() => openUnder(root) === 1)).toBe(true); // the replaced file was closed
  });

  it("reads a value deleted behind its back as missing", async () => {
    const store = new FileSystemStore(root);
    expect(decode(await store.getRange("d/k", { offset: 0, length: 5 }))).toBe("first");
    await unlink(join(root, "d", "k"));
    expect(await store.getRange("d/k", { offset: 0, length: 5 })).toBeUndefined();
    expect(await store.get("d/k")).toBeUndefined();
  });

  it("sees in-place writes and reports their version", async () => {
    const store = new FileSystemStore(root);
    const before = await store.getRangeWithSize("d/k", { offset: 0, length: 5 });
    const version = await store.setRange("d/k", 0, new TextEncoder().encode("F"));
    const after = await store.getRangeWithSize("d/k", { offset: 0, length: 5 });
    expect(decode(after?.value)).toBe("First");
    expect(after?.version).toBe(version);
    expect(after?.version).not.toBe(before?.version);
  });

  it("refuses a kept file once its directory is swapped for a symbolic link", async () => {
    const store = new FileSystemStore(root);
    expect(decode(await store.get("d/k"))).toBe("first");
    // The same file, now reached through a link: the path still names its inode, but a fresh open would refuse it.
    await rename(join(root, "d"), join(root, "moved"));
    await symlink(join(root, "moved"), join(root, "d"));
    await expect(store.get("d/k")).rejects.toThrow(StoreError);
    await expect(store.get("d/k")).rejects.toThrow(/symbolic link/);
  });

  it("where links are followed, reads a relinked key's new target", async () => {
    const store = new FileSystemStore(root, { followSymlinks: true });
    await writeFile(join(root, "d", "other"), "other");
    await symlink("k", join(root, "d", "link"));
    expect(decode(await store.get("d/link"))).toBe("first");
    expect(decode(await store.get("d/link"))).toBe("first");
    await unlink(join(root, "d", "link"));
    await symlink("other", join(root, "d", "link"));
    expect(decode(await store.get("d/link"))).toBe("other");
  });

  it("frees a value's file when the store deletes or replaces it", async () => {
    const store = new FileSystemStore(root);
    await store.get("d/k");
    await store.set("d/k", new TextEncoder().encode("again"));
    expect(await eventually(() => openUnder(root) === 0)).toBe(true);
    await store.get("d/k");
    await store.delete("d/k");
    expect(await eventually(() => openUnder(root) === 0)).toBe(true);
  });
});

describe.runIf(linux)("ReadHandles", () => {
  async function files(n: number): Promise<string[]> {
    const paths = Array.from({ length: n }, (_, i) => join(root, `f${i}`));
    await Promise.all(paths.map((p, i) => writeFile(p, `value ${i}`)));
    return paths;
  }

  async function readWith(handles: ReadHandles, guard: PathGuard, path: string): Promise<string> {
    const lease = await handles.open(path, path, guard);
    try {
      const out = new Uint8Array(32);
      const { bytesRead } = await lease.file.read(out, 0, 32, 0);
      return decode(out.subarray(0, bytesRead))!;
    } finally {
      lease.release();
    }
  }

  it("keeps at most its capacity open, closing the least recently used", async () => {
    const guard = new PathGuard(root, false);
    const handles = new ReadHandles(3, 60_000);
    const paths = await files(10);
    for (const [i, path] of paths.entries()) expect(await readWith(handles, guard, path)).toBe(`value ${i}`);
    expect(handles.size).toBe(3);
    expect(await eventually(() => openUnder(root) === 3)).toBe(true);
  });

  it("closes a file dropped while in use only when its last reader is done", async () => {
    const guard = new PathGuard(root, false);
    const handles = new ReadHandles(1, 60_000);
    const [first, second] = await files(2);
    const held = await handles.open(first!, "f0", guard);
    expect(await readWith(handles, guard, second!)).toBe("value 1"); // over capacity: the held file leaves the cache
    const out = new Uint8Array(7);
    await held.file.read(out, 0, 7, 0); // still open for its reader
    expect(decode(out)).toBe("value 0");
    expect(openUnder(root)).toBe(2);
    held.release();
    expect(await eventually(() => openUnder(root) === 1)).toBe(true);
  });

  it("serves many reads of a few files at once, right, whatever it drops meanwhile", async () => {
    const guard = new PathGuard(root, false);
    const handles = new ReadHandles(1, 60_000);
    const paths = await files(3);
    const results = await Promise.all(Array.from({ length: 300 }, (_, i) => readWith(handles, guard, paths[i % 3]!)));
    expect(results).toEqual(Array.from({ length: 300 }, (_, i) => `value ${i % 3}`));
    expect(await eventually(() => openUnder(root) === 1)).toBe(true);
  });

  it("closes files left unused for idleMs", async () => {
    const guard = new PathGuard(root, false);
    const handles = new ReadHandles(8, 20);
    for (const path of await files(4)) await readWith(handles, guard, path);
    expect(handles.size).toBe(4);
    expect(await eventually(() => handles.size === 0)).toBe(true);
    expect(await eventually(() => openUnder(root) === 0)).toBe(true);
  });
});
