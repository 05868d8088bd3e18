// Archives that must be refused, each made by a real writer (Python's
// zipfile, Info-ZIP's zip) and, for the lies, patched the way a broken or
// hostile writer would leave them: typed errors naming the archive and entry.
import { execFileSync } from "node:child_process";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { ChecksumError, CorruptDataError, MemoryStore, StoreError, UnsupportedError } from "@zarrkit/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ZipStore } from "../src/index.js";
import { python, tempDir } from "./helpers.js";

const WRITE = `
import sys, zipfile
out = sys.argv[1]
def archive(name, entries, compression=zipfile.ZIP_STORED):
    with zipfile.ZipFile(f"{out}/{name}", "w", compression=compression) as z:
        for entry, data in entries:
            info = zipfile.ZipInfo(entry)
            info.compress_type = compression
            z.writestr(info, data)
plain = [("zarr.json", b'{"zarr_format":3,"node_type":"group"}'), ("a/c/0", bytes(range(200)))]
archive("plain.zip", plain)
archive("dotdot.zip", plain + [("a/../../evil", b"x")])
archive("absolute.zip", plain + [("/etc/evil", b"x")])
archive("deflated.zip", [("big", bytes(100000))], zipfile.ZIP_DEFLATED)
import warnings
warnings.simplefilter("ignore")
archive("duplicate.zip", plain + [("a/c/0", b"again")])
`;

describe("refused archives", () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  const outer = new MemoryStore();
  const load = async (name: string, patch?: (bytes: Uint8Array) => void) => {
    const bytes = new Uint8Array(await readFile(join(dir.path, name)));
    patch?.(bytes);
    await outer.set(name, bytes);
  };
  const open = (name: string, options = {}) => ZipStore.open(outer, name, options);

  beforeAll(async () => {
    dir = await tempDir();
    python(WRITE, [dir.path]);
    await writeFile(join(dir.path, "secret.txt"), "secret");
    execFileSync("zip", ["-q", "-j", "-P", "password", join(dir.path, "encrypted.zip"), join(dir.path, "secret.txt")]);
  });
  afterAll(() => dir?.remove());

  it("refuses encrypted archives with an UnsupportedError naming the entry", async () => {
    await load("encrypted.zip");
    await expect(open("encrypted.zip")).rejects.toThrow(UnsupportedError);
    await expect(open("encrypted.zip")).rejects.toThrow(
      /"encrypted\.zip", entry "secret\.txt": encrypted entries are not supported/,
    );
  });

  it("refuses names that escape the root: '..' segments and absolute paths", async () => {
    await load("dotdot.zip");
    await load("absolute.zip");
    await expect(open("dotdot.zip")).rejects.toThrow(StoreError);
    await expect(open("dotdot.zip")).rejects.toThrow(/entry "a\/\.\.\/\.\.\/evil": .*".." segment/);
    await expect(open("absolute.zip")).rejects.toThrow(/entry "\/etc\/evil": .*absolute/);
  });

  it("refuses duplicate names", async () => {
    await load("duplicate.zip");
    await expect(open("duplicate.zip")).rejects.toThrow(
      /"duplicate\.zip", entry "a\/c\/0": the archive holds two entries of this name/,
    );
  });

  it("refuses an entry whose local header disagrees with the central directory", async () => {
    // The CRC-32 of the second entry's local header (field at offset 14 of the header), changed.
    await load("plain.zip", (bytes) => {
      const header = findSignature(bytes, [0x50, 0x4b, 0x03, 0x04], 1);
      bytes[header + 14]! ^= 0xff;
    });
    const store = await open("plain.zip");
    expect(await store.get("zarr.json")).toBeDefined();
    const read = store.getRange("a/c/0", { offset: 0, length: 4 });
    await expect(read).rejects.toThrow(CorruptDataError);
    await expect(store.get("a/c/0")).rejects.toThrow(
      /entry "a\/c\/0": the local header disagrees with the central directory about the entry's CRC-32/,
    );
  });

  it("refuses lying sizes: data past the central directory, a STORED entry whose sizes differ", async () => {
    await load("plain.zip", (bytes) => {
      const record = findSignature(bytes, [0x50, 0x4b, 0x01, 0x02], 1);
      new DataView(bytes.buffer).setUint32(record + 20, 150, true);
    });
    await expect(open("plain.zip")).rejects.toThrow(CorruptDataError);
    await expect(open("plain.zip")).rejects.toThrow(
      /entry "a\/c\/0": a STORED entry of 150 stored bytes cannot hold 200 bytes/,
    );
    await load("plain.zip", (bytes) => {
      const record = findSignature(bytes, [0x50, 0x4b, 0x01, 0x02], 1);
      new DataView(bytes.buffer).setUint32(record + 20, 10_000_000, true);
      new DataView(bytes.buffer).setUint32(record + 24, 10_000_000, true);
    });
    await expect(open("plain.zip")).rejects.toThrow(
      /entry "a\/c\/0": its 10000000 bytes at offset \d+ run past the central directory/,
    );
  });

  it("checks the CRC-32 of whole entries", async () => {
    await load("plain.zip", (bytes) => {
      const header = findSignature(bytes, [0x50, 0x4b, 0x03, 0x04], 1);
      bytes[header + 30 + "a/c/0".length + 7]! ^= 0xff;
    });
    const store = await open("plain.zip");
    await expect(store.get("a/c/0")).rejects.toThrow(ChecksumError);
  });

  it("inflates DEFLATE entries only within maxInflatedBytes, and refuses a size deflate cannot reach", async () => {
    await load("deflated.zip");
    expect((await (await open("deflated.zip")).get("big"))?.length).toBe(100_000);
    const capped = await open("deflated.zip", { maxInflatedBytes: 50_000 });
    await expect(capped.get("big")).rejects.toThrow(
      /entry "big": the entry inflates to 100000 bytes, more than maxInflatedBytes \(50000\)/,
    );
    await load("deflated.zip", (bytes) => {
      const record = findSignature(bytes, [0x50, 0x4b, 0x01, 0x02], 0);
      new DataView(bytes.buffer).setUint32(record + 24, 0xfffffffe, true);
    });
    await expect(open("deflated.zip")).rejects.toThrow(
      /entry "big": \d+ bytes of deflate data cannot inflate to the declared 4294967294 bytes/,
    );
  });

  it("bounds the central directory it reads", async () => {
    await load("plain.zip");
    await expect(open("plain.zip", { maxEntries: 1 })).rejects.toThrow(/it has 2 entries, more than maxEntries \(1\)/);
    await expect(open("plain.zip", { maxDirectoryBytes: 40 })).rejects.toThrow(/more than maxDirectoryBytes \(40\)/);
  });

  it("refuses a limit that is not a positive integer with an InvalidOptionError naming it", async () => {
    await load("plain.zip");
    for (const bad of [0, -1, 1.5, Number.NaN]) {
      await expect(open("plain.zip", { maxEntries: bad })).rejects.toMatchObject({
        name: "InvalidOptionError",
        field: "maxEntries",
      });
    }
  });

  it("refuses what is no zip archive, naming it", async () => {
    await outer.set("not.zip", new TextEncoder().encode("just some text, no end record"));
    await expect(open("not.zip")).rejects.toThrow(/"not\.zip": no end of central directory record/);
    await expect(open("missing.zip")).rejects.toThrow(/"missing\.zip": the archive does not exist/);
  });
});

/** Offset of the `nth` (from 0) occurrence of a record signature. */
function findSignature(bytes: Uint8Array, signature: number[], nth: number): number {
  let seen = 0;
  for (let at = 0; at + 4 <= bytes.length; at++) {
    if (signature.every((byte, i) => bytes[at + i] === byte) && seen++ === nth) return at;
  }
  throw new Error("signature not found");
}
