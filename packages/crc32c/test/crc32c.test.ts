import fc from "fast-check";
import { describe, expect, test, vi } from "vitest";
import { crc32c, crc32cAsync, initCrc32c } from "../src/crc32c.js";
import { referenceCrc32c } from "./helpers.js";

const ascii = (s: string) => new TextEncoder().encode(s);

describe("crc32c()", () => {
  test("throws a ZarrkitError before initCrc32c(), works after", async () => {
    vi.resetModules();
    const fresh = await import("../src/crc32c.js");
    const registry = await import("@zarrkit/registry");
    expect(() => fresh.crc32c(ascii("123456789"))).toThrow(registry.ZarrkitError);
    expect(() => fresh.crc32c(ascii("123456789"))).toThrow(/initCrc32c/);
    await Promise.all([fresh.initCrc32c(), fresh.initCrc32c()]);
    expect(fresh.crc32c(ascii("123456789"))).toBe(0xe3069283);
  });

  test("known vectors (RFC 3720 B.4 and the check value)", async () => {
    await initCrc32c();
    expect(crc32c(ascii("123456789"))).toBe(0xe3069283);
    expect(crc32c(new Uint8Array(0))).toBe(0);
    expect(crc32c(new Uint8Array(32))).toBe(0x8a9136aa);
    expect(crc32c(new Uint8Array(32).fill(0xff))).toBe(0x62a8ab43);
    expect(crc32c(Uint8Array.from({ length: 32 }, (_, i) => i))).toBe(0x46dd794e);
    expect(crc32c(Uint8Array.from({ length: 32 }, (_, i) => 31 - i))).toBe(0x113fdb5c);
  });

  test("hashes views by their own bytes, not their whole buffer", async () => {
    await initCrc32c();
    const buffer = ascii("xx123456789yy");
    expect(crc32c(buffer.subarray(2, 11))).toBe(0xe3069283);
  });

  test("matches the bit-at-a-time definition, sync and async", async () => {
    await initCrc32c();
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 5000 }), async (bytes) => {
        const expected = referenceCrc32c(bytes);
        expect(crc32c(bytes)).toBe(expected);
        expect(await crc32cAsync(bytes)).toBe(expected);
      }),
    );
  });

  test("large inputs (beyond hash-wasm's internal buffer)", async () => {
    const bytes = Uint8Array.from({ length: 3 * 1024 * 1024 + 7 }, (_, i) => (i * 2654435761) >>> 24);
    expect(await crc32cAsync(bytes)).toBe(referenceCrc32c(bytes));
  });
});
