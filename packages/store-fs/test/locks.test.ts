import { createHash } from "node:crypto";
import { spawn } from "node:child_process";
import { readdir, readFile, stat, utimes, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { StoreError } from "@zarrkit/registry";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { FileSystemStore } from "../src/index.js";
import { thisProcess } from "../src/process-identity.js";
import { tempDir } from "./temp-dir.js";

const me = thisProcess();
const text = (s: string) => new TextEncoder().encode(s);
const decode = (b: Uint8Array | undefined) => (b === undefined ? undefined : new TextDecoder().decode(b));

let dir: Awaited<ReturnType<typeof tempDir>>;
let root: string;
beforeEach(async () => {
  dir = await tempDir();
  root = join(dir.path, "store.zarr");
});
afterEach(() => dir.remove());

/** The pid of a process that has exited. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ["-e", ""], { stdio: "ignore" });
  await new Promise((resolve) => child.on("close", resolve));
  return child.pid!;
}

interface OwnerFields {
  pid: number;
  host?: string;
  machine?: string;
  start?: string;
}

/** A lock file as a holder would have left it: owner line, optional journal line and old bytes. */
async function plantLock(
  path: string,
  owner: OwnerFields,
  journal?: object,
  old: Uint8Array = new Uint8Array(0),
): Promise<string> {
  const line = JSON.stringify({
    host: me.host,
    machine: me.machine,
    start: "",
    nonce: "planted",
    time: Date.now(),
    op: "test",
    ...owner,
  });
  const lockPath = join(path, "..", `.zarrkit-lock.${path.split("/").pop()}`);
  const parts = [Buffer.from(`${line}\n`)];
  if (journal) parts.push(Buffer.from(`${JSON.stringify(journal)}\n`), Buffer.from(old));
  await writeFile(lockPath, Buffer.concat(parts));
  return lockPath;
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

const inode = async (path: string) => (await stat(path, { bigint: true })).ino.toString();

async function storeFiles(path: string): Promise<string[]> {
  const entries = await readdir(path, { recursive: true });
  return entries.filter((name) => name.split("/").some((segment) => segment.startsWith(".zarrkit-")));
}

describe("the lock file", () => {
  it("is never left behind by successful operations, nor listed", async () => {
    const store = new FileSystemStore(root);
    await Promise.all([
      store.set("a/k", text("0123456789")),
      store.append("a/log", text("x")),
      store.set("a/b/c", text("y"), { ifNoneMatch: "*" }),
    ]);
    const { version } = (await store.getVersioned("a/k"))!;
    await store.setRange("a/k", 2, text("ab"), { ifMatch: version });
    await store.truncate("a/k", 8);
    await store.append("a/log", text("yz"), { ifMatch: (await store.getVersioned("a/log"))!.version });
    await store.delete("a/b/c");
    expect(await store.recover("a/k")).toBe(false);
    expect(await storeFiles(root)).toEqual([]);
    await plantLock(join(root, "a", "k"), { pid: process.pid });
    await writeFile(join(root, "a", ".zarrkit-break.k"), "");
    const keys: string[] = [];
    for await (const key of store.list("")) keys.push(key);
    expect(keys.sort()).toEqual(["a/k", "a/log"]);
    expect((await store.listDir("a/")).keys.sort()).toEqual(["a/k", "a/log"]);
  });

  it("names are reserved: keys using them are refused", async () => {
    const store = new FileSystemStore(root);
    for (const key of ["a/.zarrkit-lock.k", ".zarrkit-break.k", "b/.zarrkit-tmp.0"]) {
      await expect(store.set(key, text("x"))).rejects.toMatchObject({ code: "STORE_ERROR", key });
      await expect(store.get(key)).rejects.toBeInstanceOf(StoreError);
    }
  });

  it("is broken at once when its holder on this machine is dead, and its torn append is cut off first", async () => {
    const store = new FileSystemStore(root, { staleLockMs: 60_000 });
    await store.set("k", text("committed"));
    const path = join(root, "k");
    await writeFile(path, "committed+torn appe"); // what the dead writer managed
    const lockPath = await plantLock(
      path,
      { pid: await deadPid() },
      { op: "append", ino: await inode(path), size: 9, created: false },
    );
    const began = performance.now();
    expect(await store.append("k", text("!"))).toBe(9);
    expect(performance.now() - began).toBeLessThan(5000); // not the 60 s age rule
    expect(decode(await store.get("k"))).toBe("committed!");
    expect(await exists(lockPath)).toBe(false);
  });

  it("recover() puts back the bytes a dead holder's setRange was overwriting, and reports it", async () => {
    const store = new FileSystemStore(root);
    await store.set("k", text("0123456789"));
    const path = join(root, "k");
    await writeFile(path, "01XXX56789");
    await plantLock(
      path,
      { pid: await deadPid() },
      { op: "setRange", ino: await inode(path), offset: 2, length: 3 },
      text("234"),
    );
    const version = (await store.getRangeWithSize("k", { suffixLength: 0 }))!.version!;
    expect(await store.recover("k")).toBe(true);
    expect(decode(await store.get("k"))).toBe("0123456789");
    expect(
      (await store.getRangeWithSize("k", { suffixLength: 0 }))!.version,
      "the undone value has a new version",
    ).not.toBe(version);
    expect(await store.recover("k")).toBe(false);
    expect(await storeFiles(root)).toEqual([]);
  });

  it("recover() keeps a write its dead holder completed (a reader may have seen it), undoes one it tore", async () => {
    const sha = (bytes: string) => createHash("sha256").update(bytes).digest("hex");
    const store = new FileSystemStore(root);
    const path = join(root, "k");
    await store.set("k", text("0123456789"));
    await writeFile(path, "01ABC56789"); // the whole new range landed, then the writer died before dropping its lock
    await plantLock(
      path,
      { pid: await deadPid() },
      { op: "setRange", ino: await inode(path), offset: 2, length: 3, written: sha("ABC") },
      text("234"),
    );
    expect(await store.recover("k")).toBe(true);
    expect(decode(await store.get("k"))).toBe("01ABC56789");
    await writeFile(path, "01ABC56789+tail"); // an append of "+tail" landed whole
    await plantLock(
      path,
      { pid: await deadPid() },
      { op: "append", ino: await inode(path), size: 10, created: false, added: 5, written: sha("+tail") },
    );
    await store.recover("k");
    expect(decode(await store.get("k"))).toBe("01ABC56789+tail");
    await writeFile(path, "01ABC56789+tail+mo"); // an append of "+more" torn after three bytes
    await plantLock(
      path,
      { pid: await deadPid() },
      { op: "append", ino: await inode(path), size: 15, created: false, added: 5, written: sha("+more") },
    );
    await store.recover("k");
    expect(decode(await store.get("k"))).toBe("01ABC56789+tail");
    expect(await storeFiles(root)).toEqual([]);
  });

  it("recover() removes a value whose creating append was torn", async () => {
    const store = new FileSystemStore(root);
    await store.set("other", text("x"));
    const path = join(root, "k");
    await writeFile(path, "half");
    await plantLock(path, { pid: await deadPid() }, { op: "append", size: 0, created: true });
    expect(await store.recover("k")).toBe(true);
    expect(await store.get("k")).toBe(undefined);
  });

  it("ignores a journal written in part (the value was untouched) and one for a value replaced since", async () => {
    const store = new FileSystemStore(root);
    await store.set("k", text("0123456789"));
    const path = join(root, "k");
    const lockPath = await plantLock(
      path,
      { pid: await deadPid() },
      { op: "setRange", ino: await inode(path), offset: 2, length: 3 },
      text("ab"),
    );
    expect(await store.recover("k")).toBe(true); // it broke the lock
    expect(decode(await store.get("k"))).toBe("0123456789");
    await plantLock(
      path,
      { pid: await deadPid() },
      { op: "setRange", ino: "12345", offset: 2, length: 3 },
      text("abc"),
    );
    expect(await store.recover("k")).toBe(true);
    expect(decode(await store.get("k"))).toBe("0123456789");
    expect(await exists(lockPath)).toBe(false);
  });

  it("is not broken while its holder on this machine lives, however old; waiting honours the AbortSignal", async () => {
    const store = new FileSystemStore(root, { staleLockMs: 50 });
    await store.set("k", text("v1"));
    const lockPath = await plantLock(join(root, "k"), { pid: process.pid, start: me.start });
    const old = new Date(Date.now() - 3_600_000);
    await utimes(lockPath, old, old);
    const signal = AbortSignal.timeout(600);
    await expect(store.set("k", text("v2"), { signal })).rejects.toMatchObject({ name: "TimeoutError" });
    await expect(store.append("k", text("x"), { signal: AbortSignal.timeout(100) })).rejects.toMatchObject({
      name: "TimeoutError",
    });
    expect(decode(await store.get("k"))).toBe("v1");
    expect(await exists(lockPath)).toBe(true);
  });

  it.skipIf(me.start === "")("is broken when its pid now belongs to a later process", async () => {
    const store = new FileSystemStore(root, { staleLockMs: 60_000 });
    await store.set("k", text("v1"));
    await plantLock(join(root, "k"), { pid: process.pid, start: "1" });
    await store.set("k", text("v2"));
    expect(decode(await store.get("k"))).toBe("v2");
  });

  it("of another machine is broken once unchanged for staleLockMs, not while its holder refreshes it", async () => {
    const store = new FileSystemStore(root, { staleLockMs: 400 });
    await store.set("k", text("v1"));
    const lockPath = await plantLock(join(root, "k"), { pid: 1, host: "elsewhere.example", machine: "other" });
    const heartbeat = setInterval(() => {
      const now = new Date();
      utimes(lockPath, now, now).catch(() => {});
    }, 50);
    try {
      await expect(store.set("k", text("v2"), { signal: AbortSignal.timeout(1500) })).rejects.toMatchObject({
        name: "TimeoutError",
      });
    } finally {
      clearInterval(heartbeat);
    }
    expect(decode(await store.get("k"))).toBe("v1");
    const began = performance.now();
    await store.set("k", text("v3"));
    expect(performance.now() - began).toBeGreaterThanOrEqual(350);
    expect(decode(await store.get("k"))).toBe("v3");
    expect(await exists(lockPath)).toBe(false);
  });

  it("that cannot be read (empty: its holder died creating it) is broken by the age rule", async () => {
    const store = new FileSystemStore(root, { staleLockMs: 200 });
    await store.set("k", text("v1"));
    await writeFile(join(root, ".zarrkit-lock.k"), "");
    await store.set("k", text("v2"));
    expect(decode(await store.get("k"))).toBe("v2");
  });

  it("a break lock of a dead breaker is removed, then the stale lock broken", async () => {
    const store = new FileSystemStore(root, { staleLockMs: 60_000 });
    await store.set("k", text("v1"));
    await plantLock(join(root, "k"), { pid: await deadPid() });
    const breaker = JSON.stringify({
      pid: await deadPid(),
      host: me.host,
      machine: me.machine,
      start: "",
      nonce: "b",
      time: 0,
      op: "break",
    });
    await writeFile(join(root, ".zarrkit-break.k"), `${breaker}\n`);
    await store.set("k", text("v2"));
    expect(decode(await store.get("k"))).toBe("v2");
    expect(await storeFiles(root)).toEqual([]);
  });

  it("recover() reports waiting for a write in progress in this process", async () => {
    const store = new FileSystemStore(root);
    await store.set("k", text("v1"));
    const writing = store.append("k", new Uint8Array(1 << 20));
    expect(await store.recover("k")).toBe(true);
    await writing;
    expect(await store.recover("k")).toBe(false);
    expect(await store.recover("missing/key")).toBe(false);
  });

  it("a failed in-place write is undone by the writer itself", async () => {
    const store = new FileSystemStore(root);
    await store.set("k", text("0123456789"));
    await expect(store.setRange("k", 8, text("abc"))).rejects.toThrow(/past the end/);
    expect(decode(await readFile(join(root, "k")).then((b) => new Uint8Array(b)))).toBe("0123456789");
    expect(await storeFiles(root)).toEqual([]);
  });
});
