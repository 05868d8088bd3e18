import { open, truncate, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { StoreError } from "@zarrkit/registry";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { FileSystemStore } from "../src/index.js";
import { tempDir } from "./temp-dir.js";

const text = (s: string) => new TextEncoder().encode(s);
const decode = (b: Uint8Array | undefined) => (b === undefined ? undefined : new TextDecoder().decode(b));
const GiB = 2 ** 30;

let dir: Awaited<ReturnType<typeof tempDir>>;
let root: string;
let store: FileSystemStore;
beforeEach(async () => {
  dir = await tempDir();
  root = join(dir.path, "store.zarr");
  store = new FileSystemStore(root);
});
afterEach(() => dir.remove());

describe("versions on ranged reads", () => {
  it("getRangeWithSize reports the version getVersioned reports, and it follows every write", async () => {
    await store.set("k", text("0123456789"));
    const sized = (await store.getRangeWithSize("k", { offset: 2, length: 3 }))!;
    expect(sized).toMatchObject({ size: 10, version: (await store.getVersioned("k"))!.version });
    const versions = new Set([sized.version]);
    const after = async () => versions.add((await store.getRangeWithSize("k", { suffixLength: 1 }))!.version!);
    await store.append("k", text("a"));
    await after();
    const returned = await store.setRange("k", 0, text("b"));
    await after();
    expect(versions.has(returned)).toBe(true);
    await store.truncate("k", 5);
    await after();
    await store.set("k", text("01234"));
    await after();
    expect(versions.size).toBe(5);
  });

  it("ifMatch: the current version reads, a replaced value is a PreconditionFailedError naming the key", async () => {
    await store.set("k", text("0123456789"));
    const { version } = (await store.getRangeWithSize("k", { suffixLength: 0 }))!;
    expect(decode(await store.getRange("k", { offset: 2, length: 3 }, { ifMatch: version }))).toBe("234");
    expect(decode(await store.getRange("k", { suffixLength: 2 }, { ifMatch: version }))).toBe("89");
    expect(decode((await store.getRangeWithSize("k", { offset: 0, length: 1 }, { ifMatch: version }))!.value)).toBe(
      "0",
    );
    await store.set("k", text("9876543210")); // same size
    for (const read of [
      () => store.getRange("k", { offset: 2, length: 3 }, { ifMatch: version }),
      () => store.getRange("k", { suffixLength: 2 }, { ifMatch: version }),
      () => store.getRangeWithSize("k", { offset: 0, length: 1 }, { ifMatch: version }),
    ]) {
      await expect(read()).rejects.toMatchObject({
        code: "PRECONDITION_FAILED",
        key: "k",
        message: expect.stringContaining('"k"'),
      });
    }
    await store.delete("k");
    await expect(store.getRange("k", { offset: 0, length: 1 }, { ifMatch: version })).rejects.toMatchObject({
      code: "PRECONDITION_FAILED",
      key: "k",
    });
  });

  it("the version and the bytes come from the same open file, even when the value is replaced in between", async () => {
    // A value replaced by rename while a reader holds the old file: the bytes and the version are both the old one's.
    await store.set("k", text("old value"));
    const old = (await store.getRangeWithSize("k", { suffixLength: 0 }))!.version;
    const reads = Array.from({ length: 40 }, () => store.getRangeWithSize("k", { offset: 0, length: 9 }));
    const writes = Array.from({ length: 10 }, (_, i) => store.set("k", text(`new val ${i}`)));
    await Promise.all(writes);
    const seen = await Promise.all(reads);
    const byVersion = new Map<string, string>();
    for (const sized of seen) {
      const bytes = decode(sized!.value)!;
      expect(byVersion.get(sized!.version!) ?? bytes, "one version, one content").toBe(bytes);
      byVersion.set(sized!.version!, bytes);
    }
    expect(byVersion.get(old!) ?? "old value").toBe("old value");
  });

  it(
    "ranged reads, with ifMatch or not, take no stat trip to Node's I/O threads (the stat of an open file is " +
      "synchronous)",
    async () => {
      await store.set("k", text("0123456789"));
      const probe = await open(join(root, "k"), "r");
      const proto = Object.getPrototypeOf(probe) as { stat: (...args: unknown[]) => Promise<unknown> };
      await probe.close();
      const stat = proto.stat;
      let stats = 0;
      proto.stat = function (this: unknown, ...args: unknown[]) {
        stats++;
        return stat.apply(this, args);
      };
      try {
        expect(decode(await store.getRange("k", { offset: 1, length: 2 }))).toBe("12");
        expect(stats).toBe(0);
        const { version } = (await store.getRangeWithSize("k", { suffixLength: 0 }))!;
        stats = 0;
        expect(decode(await store.getRange("k", { offset: 1, length: 2 }, { ifMatch: version }))).toBe("12");
        expect(stats).toBe(0);
      } finally {
        proto.stat = stat;
      }
    },
  );
});

describe("bounded reads: values of 2 GiB and more (sparse files)", () => {
  let path: string;
  const size = 3 * GiB;
  beforeEach(async () => {
    await store.set("big", text("head"));
    path = join(root, "big");
    await truncate(path, size);
    const file = await open(path, "r+");
    await file.write(text("edge"), 0, 4, 2 * GiB - 2); // across the 2 GiB boundary
    await file.write(text("tail"), 0, 4, size - 4);
    await file.close();
  });

  it("get of a 3 GiB value is a StoreError naming the key and the size, not a process abort", async () => {
    for (const read of [
      () => store.get("big"),
      () => store.getVersioned("big"),
      () => store.getRange("big", { offset: 0, length: size }),
      () => store.getRange("big", { suffixLength: 2 * GiB }),
      () => store.getRangeWithSize("big", { offset: GiB, length: 2 * GiB }),
    ]) {
      const error = await read().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(StoreError);
      expect(error).toMatchObject({ key: "big", message: expect.stringMatching(/maxReadBytes/) });
    }
    expect((await store.get("big").catch((e: Error) => e)) as Error).toMatchObject({
      message: expect.stringContaining(String(size)),
    });
    // Ranges within the cap still read, including a huge length clipped to the end of the value.
    expect(decode(await store.getRange("big", { offset: 2 * GiB - 2, length: 4 }))).toBe("edge");
    expect(decode(await store.getRange("big", { offset: size - 4, length: 2 ** 40 }))).toBe("tail");
  });

  it("the cap can be lowered", async () => {
    const capped = new FileSystemStore(root, { maxReadBytes: 1024 });
    await expect(capped.getRange("big", { offset: 0, length: 1025 })).rejects.toThrow(
      /Reading 1025 bytes of "big" exceeds maxReadBytes \(1024\)/,
    );
    expect(decode(await capped.getRange("big", { offset: 0, length: 1024 }))?.slice(0, 4)).toBe("head");
    await store.set("small", new Uint8Array(1025));
    await expect(capped.get("small")).rejects.toBeInstanceOf(StoreError);
  });

  it("with the cap raised, a read of more than 2 GiB across the 2 GiB boundary is done in pieces", {
    timeout: 60_000,
  }, async () => {
    const raised = new FileSystemStore(root, { maxReadBytes: size });
    const start = GiB - 8; // to the last byte: 2 GiB + 8 bytes
    const value = (await raised.getRange("big", { offset: start, length: 2 * GiB + 8 }))!;
    expect(value.length).toBe(2 * GiB + 8);
    const at = (offset: number, n: number) => decode(value.subarray(offset - start, offset - start + n));
    expect(at(2 * GiB - 2, 4)).toBe("edge");
    expect(value[0]).toBe(0);
    expect(at(size - 4, 4)).toBe("tail");
  });

  it.each([-1, 1.5, Number.NaN])("rejects maxReadBytes %d, with an InvalidOptionError naming it", (n) => {
    expect(() => new FileSystemStore(root, { maxReadBytes: n })).toThrow(
      expect.objectContaining({ name: "InvalidOptionError", field: "maxReadBytes" }),
    );
    expect(() => new FileSystemStore(root, { staleLockMs: n })).toThrow(
      expect.objectContaining({ name: "InvalidOptionError", field: "staleLockMs" }),
    );
  });
});

it("a file written by another tool is read the same way", async () => {
  await writeFile(join(dir.path, "x"), "y");
  expect(decode(await new FileSystemStore(dir.path).get("x"))).toBe("y");
});

describe("whole values", () => {
  it("are whole or a StoreError: a file truncated between its stat and its read is not returned short", async () => {
    await store.set("k", text("0123456789"));
    // The FileHandle class is not exported: reach its prototype through a handle, and truncate the file before the
    // store's first read.
    const probe = await open(join(root, "k"));
    const prototype = Object.getPrototypeOf(probe) as { read: (...args: unknown[]) => Promise<unknown> };
    await probe.close();
    const read = prototype.read;
    let cut = false;
    prototype.read = async function (this: unknown, ...args: unknown[]) {
      if (!cut) {
        cut = true;
        await truncate(join(root, "k"), 4);
      }
      return read.apply(this, args);
    };
    try {
      await expect(store.get("k")).rejects.toThrow(/"k" was 10 bytes when opened but ended after 4 while it was read/);
      await expect(store.get("k")).resolves.toEqual(text("0123"));
    } finally {
      prototype.read = read;
    }
  });
});
