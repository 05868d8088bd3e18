import { mkdir, readdir, readFile, stat, symlink, truncate, writeFile } from "node:fs/promises";
import { join, relative } from "node:path";
import { pathToFileURL } from "node:url";
import { openStore, StoreError } from "@zarrkit/registry";
import { unsafeKeys } from "@zarrkit/test-utils";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { FileSystemStore } from "../src/index.js";
import { tempDir } from "./temp-dir.js";

const text = (s: string) => new TextEncoder().encode(s);
const decode = (b: Uint8Array | undefined) => (b === undefined ? undefined : new TextDecoder().decode(b));

/** Every path under `dir`, relative, directories ending in "/". */
async function tree(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.map((e) => join(e.parentPath, e.name).slice(dir.length + 1) + (e.isDirectory() ? "/" : "")).sort();
}

let dir: Awaited<ReturnType<typeof tempDir>>;
let root: string;
let store: FileSystemStore;

beforeEach(async () => {
  dir = await tempDir();
  root = join(dir.path, "store.zarr");
  store = new FileSystemStore(root);
});
afterEach(() => dir.remove());

describe("layout", () => {
  it("stores key a/b/c as the file <root>/a/b/c, creating the root and parents", async () => {
    await store.set("a/b/c", text("hello"));
    expect(await readFile(join(root, "a", "b", "c"), "utf8")).toBe("hello");
  });

  it("reads and lists files written by other tools", async () => {
    await mkdir(join(root, "c", "0"), { recursive: true });
    await writeFile(join(root, "zarr.json"), "{}");
    await writeFile(join(root, "c", "0", "1"), "chunk");
    expect(decode(await store.get("c/0/1"))).toBe("chunk");
    const keys: string[] = [];
    for await (const key of store.list("")) keys.push(key);
    expect(keys.sort()).toEqual(["c/0/1", "zarr.json"]);
  });

  it("resolves a relative root against the working directory", () => {
    expect(new FileSystemStore("data/a.zarr").root).toBe(join(process.cwd(), "data", "a.zarr"));
  });

  it("does not list or follow symbolic links when listing", async () => {
    await store.set("real", text("x"));
    await symlink(join(root, "real"), join(root, "link"));
    await symlink(dir.path, join(root, "dir-link"));
    const keys: string[] = [];
    for await (const key of store.list("")) keys.push(key);
    expect(keys).toEqual(["real"]);
  });
});

describe("keys cannot reach outside the root", () => {
  const windowsOnly = process.platform === "win32" ? ["C:outside", "a/b:stream"] : [];

  it.each([...unsafeKeys, ...windowsOnly, "a/.zarrkit-tmp.0123"].map((k) => [JSON.stringify(k), k]))(
    "rejects %s on every method",
    async (_, key) => {
      const attempts = [
        store.get(key),
        store.getRange(key, { suffixLength: 1 }),
        store.getVersioned(key),
        store.size(key),
        store.set(key, text("x")),
        store.delete(key),
        store.append(key, text("x")),
        store.setRange(key, 0, text("x")),
        store.truncate(key, 0),
      ];
      for (const attempt of attempts) {
        const error = await attempt.then(
          () => undefined,
          (e: unknown) => e,
        );
        expect(error).toBeInstanceOf(StoreError);
        expect((error as StoreError).key).toBe(key);
      }
      expect(await tree(dir.path)).toEqual([]); // nothing written anywhere, not even the root
    },
  );

  it.each(["../", "../../etc/", "a/../../", "/etc/", "a//", "a\0b", "a\\b"])(
    "rejects the list and listDir prefix %j",
    async (prefix) => {
      await expect(store.listDir(prefix)).rejects.toBeInstanceOf(StoreError);
      const listing = (async () => {
        for await (const key of store.list(prefix)) void key;
      })();
      await expect(listing).rejects.toBeInstanceOf(StoreError);
    },
  );

  it("lists prefixes ending in dots without leaving the root", async () => {
    await store.set("..a", text("x"));
    await store.set("b/..c", text("y"));
    const keys: string[] = [];
    for await (const key of store.list("..")) keys.push(key);
    expect(keys).toEqual(["..a"]);
    expect((await store.listDir("b")).keys).toEqual(["b/..c"]);
  });
});

describe("atomic writes", () => {
  it("never leaves temporary files behind, even under concurrent writes", async () => {
    const writes = Array.from({ length: 40 }, (_, i) => store.set(`k/${i % 5}`, text(`value ${i}`)));
    await Promise.all(writes);
    expect((await tree(root)).filter((p) => p.includes(".zarrkit-tmp."))).toEqual([]);
  });

  it("does not list a temporary file left by a crash", async () => {
    await store.set("a/zarr.json", text("{}"));
    await writeFile(join(root, "a", ".zarrkit-tmp.deadbeef"), "torn");
    const keys: string[] = [];
    for await (const key of store.list("")) keys.push(key);
    expect(keys).toEqual(["a/zarr.json"]);
    expect(await store.listDir("a/")).toEqual({ keys: ["a/zarr.json"], prefixes: [] });
  });

  it("readers racing an overwrite see the old or the new value, never a mix", async () => {
    const a = new Uint8Array(100_000).fill(1);
    const b = new Uint8Array(300_000).fill(2);
    await store.set("k", a);
    const seen = new Set<string>();
    const writer = (async () => {
      for (let i = 0; i < 30; i++) await store.set("k", i % 2 ? a : b);
    })();
    const reader = (async () => {
      for (let i = 0; i < 200; i++) {
        const value = (await store.get("k"))!;
        const whole =
          (value.length === a.length && value.every((x) => x === 1)) ||
          (value.length === b.length && value.every((x) => x === 2));
        seen.add(whole ? "whole" : `torn at read ${i}`);
      }
    })();
    await Promise.all([writer, reader]);
    expect([...seen]).toEqual(["whole"]);
  });
});

describe("delete", () => {
  it("removes directories left empty, up to but not including the root", async () => {
    await store.set("a/b/c/d", text("x"));
    await store.set("a/keep", text("y"));
    await store.delete("a/b/c/d");
    expect(await tree(root)).toEqual(["a/", "a/keep"]);
    await store.delete("a/keep");
    expect(await tree(root)).toEqual([]);
    expect((await stat(root)).isDirectory()).toBe(true);
  });

  it("keeps empty directories when removeEmptyDirectories is false", async () => {
    const keeping = new FileSystemStore(root, { removeEmptyDirectories: false });
    await keeping.set("a/b/c", text("x"));
    await keeping.delete("a/b/c");
    expect(await tree(root)).toEqual(["a/", "a/b/"]);
  });

  it("treats a directory as a missing key", async () => {
    await store.set("a/b", text("x"));
    await store.delete("a");
    expect(decode(await store.get("a/b"))).toBe("x");
  });
});

describe("keys and directories", () => {
  it("cannot store a key below a value, naming the key", async () => {
    await store.set("a", text("value"));
    const error = await store.set("a/b", text("x")).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StoreError);
    expect((error as StoreError).key).toBe("a/b");
    expect((error as StoreError).message).toMatch(/parent of the key is a value/);
    await expect(store.append("a/b", text("x"))).rejects.toBeInstanceOf(StoreError);
  });

  it("cannot store a value where a directory of keys is", async () => {
    await store.set("a/b", text("x"));
    const error = await store.set("a", text("value")).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StoreError);
    expect((error as StoreError).key).toBe("a");
    await expect(store.append("a", text("x"))).rejects.toBeInstanceOf(StoreError);
    await expect(store.setRange("a", 0, text("x"))).rejects.toThrow(/No value at "a"/);
    expect(await store.size("a")).toBe(undefined);
    expect(await tree(root)).toEqual(["a/", "a/b"]);
  });
});

describe("in-place writes", () => {
  it("setRange rejects writes past the end, naming the key", async () => {
    await store.set("k", text("0123456789"));
    await expect(store.setRange("k", 8, text("abc"))).rejects.toThrow(/would run past the end of "k" \(10 bytes\)/);
    await expect(store.setRange("k", 11, new Uint8Array(0))).rejects.toBeInstanceOf(StoreError);
    await store.setRange("k", 10, new Uint8Array(0)); // an empty write at the end stays within the value
    expect(decode(await store.get("k"))).toBe("0123456789");
  });

  it("truncate rejects growing a value", async () => {
    await store.set("k", text("0123456789"));
    await expect(store.truncate("k", 11)).rejects.toThrow(/larger length 11/);
    expect(await store.size("k")).toBe(10);
  });

  it.each([-1, 1.5, Number.NaN, 2 ** 53])("rejects the offset or length %d", async (n) => {
    await store.set("k", text("0123456789"));
    await expect(store.setRange("k", n, text("x"))).rejects.toBeInstanceOf(StoreError);
    await expect(store.truncate("k", n)).rejects.toBeInstanceOf(StoreError);
    await expect(store.getRange("k", { offset: n, length: 1 })).rejects.toBeInstanceOf(StoreError);
    await expect(store.getRange("k", { offset: 0, length: n })).rejects.toBeInstanceOf(StoreError);
    await expect(store.getRange("k", { suffixLength: n })).rejects.toBeInstanceOf(StoreError);
  });
});

describe("ranged reads", () => {
  it("read only the requested bytes: a 3 GiB sparse file (too large to read whole)", async () => {
    await store.set("big", text("head"));
    const size = 3 * 2 ** 30;
    await truncate(join(root, "big"), size);
    await store.setRange("big", size - 4, text("tail"));
    expect(await store.size("big")).toBe(size);
    expect(decode(await store.getRange("big", { suffixLength: 4 }))).toBe("tail");
    expect(decode(await store.getRange("big", { offset: 0, length: 4 }))).toBe("head");
    expect(await store.getRange("big", { offset: 2 ** 31, length: 3 })).toEqual(new Uint8Array(3));
    expect(await store.append("big", text("!"))).toBe(size);
  });
});

describe("versions and locks", () => {
  it("conditional writes through two stores on one root share the per-key lock", async () => {
    const other = new FileSystemStore(root);
    const results = await Promise.allSettled(
      Array.from({ length: 8 }, (_, i) => (i % 2 ? store : other).set("k", text(`writer ${i}`), { ifNoneMatch: "*" })),
    );
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
  });

  it("sees a value replaced by another process as a new version", async () => {
    await store.set("k", text("v1"));
    const { version } = (await store.getVersioned("k"))!;
    await writeFile(join(root, "k.new"), "v2");
    await import("node:fs/promises").then((fs) => fs.rename(join(root, "k.new"), join(root, "k")));
    await expect(store.set("k", text("v3"), { ifMatch: version })).rejects.toMatchObject({
      code: "PRECONDITION_FAILED",
      key: "k",
    });
  });
});

describe("abort and registration", () => {
  it("rejects with the abort reason when the signal is already aborted", async () => {
    await store.set("k", text("x"));
    const signal = AbortSignal.abort();
    await expect(store.get("k", { signal })).rejects.toMatchObject({ name: "AbortError" });
    await expect(store.set("k", text("y"), { signal })).rejects.toMatchObject({ name: "AbortError" });
    expect(decode(await store.get("k"))).toBe("x");
  });

  it("opens file:// URLs", async () => {
    const opened = await openStore(pathToFileURL(root));
    expect(opened).toBeInstanceOf(FileSystemStore);
    expect((opened as FileSystemStore).root).toBe(root);
  });

  it("rejects file URLs naming a host, saying which URL or path was meant", async () => {
    await expect(openStore("file://fileserver/share/a.zarr")).rejects.toThrow(StoreError);
    await expect(openStore("file://data/x")).rejects.toThrow(
      'file://data/x names the host "data": local files have none. Write file:///data/x for the absolute path ' +
        "/data/x, or the path itself (data/x) for a relative one.",
    );
    await expect(openStore("file:data/x")).rejects.toThrow(
      /not a file URL: write file:\/\/\/data\/x for an absolute path, or the path itself \(data\/x\)/,
    );
    expect(await openStore("file://localhost" + pathToFileURL(root).pathname)).toBeInstanceOf(FileSystemStore);
  });

  it("opens plain paths, absolute and relative to the working directory", async () => {
    const absolute = await openStore(root);
    expect((absolute as FileSystemStore).root).toBe(root);
    const relative = await openStore(`./${fromCwd(root)}`);
    expect((relative as FileSystemStore).root).toBe(root);
    const bare = await openStore(fromCwd(root));
    expect((bare as FileSystemStore).root).toBe(root);
  });
});

/** `path` relative to the working directory. */
function fromCwd(path: string): string {
  return relative(process.cwd(), path);
}
