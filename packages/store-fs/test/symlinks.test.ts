import { mkdir, readdir, readFile, readlink, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { StoreError } from "@zarrkit/registry";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { FileSystemStore } from "../src/index.js";
import { tempDir } from "./temp-dir.js";

const text = (s: string) => new TextEncoder().encode(s);
const decode = (b: Uint8Array | undefined) => (b === undefined ? undefined : new TextDecoder().decode(b));

let dir: Awaited<ReturnType<typeof tempDir>>;
let root: string;
let outside: string;
beforeEach(async () => {
  dir = await tempDir();
  root = join(dir.path, "store.zarr");
  outside = join(dir.path, "outside");
  await mkdir(join(root, "a"), { recursive: true });
  await mkdir(join(outside, "sub"), { recursive: true });
  await writeFile(join(outside, "secret"), "outside secret");
  await writeFile(join(outside, "sub", "x"), "outside x");
  await symlink(outside, join(root, "dir-link")); // a directory link leading out
  await symlink(join(outside, "secret"), join(root, "a", "file-link")); // a file link leading out
});
afterEach(() => dir.remove());

/** Every file under `path` with its content, links as "-> target". */
async function snapshot(path: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const entry of await readdir(path, { recursive: true, withFileTypes: true })) {
    const full = join(entry.parentPath, entry.name);
    if (entry.isFile()) out[full] = await readFile(full, "utf8");
    else if (entry.isSymbolicLink()) out[full] = `-> ${await readlink(full)}`;
    else out[full] = "dir";
  }
  return out;
}

/** Every operation of the store on `key`, each of which must be refused. */
function everyOperation(store: FileSystemStore, key: string): [string, () => Promise<unknown>][] {
  const prefix = `${key}/`;
  return [
    ["get", () => store.get(key)],
    ["getRange", () => store.getRange(key, { offset: 0, length: 4 })],
    ["getRange suffix", () => store.getRange(key, { suffixLength: 4 })],
    ["getRangeWithSize", () => store.getRangeWithSize(key, { offset: 0, length: 4 })],
    ["getRangeInto", () => store.getRangeInto(key, { offset: 0, length: 4 }, new Uint8Array(4))],
    ["lendRange", () => store.lendRange(key, { offset: 0, length: 4 }, undefined, async () => {})],
    ["getVersioned", () => store.getVersioned(key)],
    ["size", () => store.size(key)],
    ["set", () => store.set(key, text("pwned"))],
    ["set ifNoneMatch", () => store.set(key, text("pwned"), { ifNoneMatch: "*" })],
    ["delete", () => store.delete(key)],
    ["append", () => store.append(key, text("pwned"))],
    ["setRange", () => store.setRange(key, 0, text("pwned"))],
    ["truncate", () => store.truncate(key, 0)],
    ["recover", () => store.recover(key)],
    [
      "list",
      async () => {
        for await (const k of store.list(prefix)) void k;
      },
    ],
    ["listDir", () => store.listDir(prefix)],
  ];
}

async function expectRefused(store: FileSystemStore, key: string): Promise<void> {
  for (const [name, operation] of everyOperation(store, key)) {
    const error = await operation().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error, `${name} ${key}`).toBeInstanceOf(StoreError);
    expect((error as StoreError).key, `${name} ${key}`).toBe(name.startsWith("list") ? `${key}/` : key);
    expect((error as StoreError).message, `${name} ${key}`).toMatch(/symbolic link/);
  }
}

describe("symbolic links leading outside the root", () => {
  for (const follow of [false, true]) {
    describe(follow ? "with followSymlinks" : "by default", () => {
      it(
        "are refused by every operation, through a directory link or a file link, and nothing " + "outside changes",
        async () => {
          const store = new FileSystemStore(root, { followSymlinks: follow });
          const before = await snapshot(dir.path);
          for (const key of [
            "dir-link/secret",
            "dir-link/new",
            "dir-link/sub/x",
            "dir-link/sub/new/deeper",
            "a/file-link",
          ])
            await expectRefused(store, key);
          expect(await snapshot(dir.path)).toEqual(before);
        },
      );
    });
  }

  it("a dangling link is refused too, and set does not create its target", async () => {
    await symlink(join(outside, "not-yet"), join(root, "a", "dangling"));
    const store = new FileSystemStore(root, { followSymlinks: true });
    await expect(store.set("a/dangling", text("x"))).rejects.toThrow(/symbolic link/);
    await expect(store.append("a/dangling", text("x"))).rejects.toThrow(/symbolic link/);
    expect((await readdir(outside)).sort()).toEqual(["secret", "sub"]);
  });
});

describe("symbolic links inside the root", () => {
  beforeEach(async () => {
    await mkdir(join(root, "real"), { recursive: true });
    await writeFile(join(root, "real", "v"), "inside");
    await symlink(join(root, "real"), join(root, "alias")); // directory link, stays inside
    await symlink(join(root, "real", "v"), join(root, "a", "v-link")); // file link, stays inside
  });

  it("are refused by default", async () => {
    const store = new FileSystemStore(root);
    await expectRefused(store, "alias/v");
    await expectRefused(store, "a/v-link");
    expect(decode(await store.get("real/v"))).toBe("inside");
  });

  it("are followed with followSymlinks", async () => {
    const store = new FileSystemStore(root, { followSymlinks: true });
    expect(decode(await store.get("alias/v"))).toBe("inside");
    expect(decode(await store.get("a/v-link"))).toBe("inside");
    expect(await store.append("a/v-link", text("!"))).toBe(6);
    await store.setRange("alias/v", 0, text("I"));
    expect(decode(await store.get("real/v"))).toBe("Inside!");
    await store.set("alias/w", text("new"));
    expect(await readFile(join(root, "real", "w"), "utf8")).toBe("new");
    expect((await store.listDir("alias/")).keys.sort()).toEqual(["alias/v", "alias/w"]);
  });

  it("the root itself may be a link", async () => {
    const linkedRoot = join(dir.path, "root-link");
    await symlink(root, linkedRoot);
    const store = new FileSystemStore(linkedRoot);
    expect(decode(await store.get("real/v"))).toBe("inside");
    await store.set("b/c", text("via the linked root"));
    expect(await readFile(join(root, "b", "c"), "utf8")).toBe("via the linked root");
    await expect(store.get("alias/v")).rejects.toThrow(/symbolic link/);
  });
});
