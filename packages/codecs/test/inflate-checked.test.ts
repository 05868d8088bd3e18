// inflateChecked, the synchronous checked inflater the fflate path and
// @zarrkit/neuroglancer share: node:zlib's gzip and zlib output inflates,
// told apart by the header; trailer mismatches are ChecksumErrors, other
// damage and the cap CorruptDataErrors.
import { deflateSync, gzipSync } from "node:zlib";
import { ChecksumError, CorruptDataError } from "@zarrkit/registry";
import { describe, expect, test } from "vitest";
import { inflateChecked } from "../src/inflate-checked.js";
import { sampleBytes } from "./helpers.js";

const data = sampleBytes(50_000);
const gz = new Uint8Array(gzipSync(data));
const z = new Uint8Array(deflateSync(data));

describe("inflateChecked", () => {
  test("inflates gzip and zlib, told apart by the header, or only the format asked for", () => {
    expect(inflateChecked(gz)).toEqual(data);
    expect(inflateChecked(z, { maxBytes: 50_000 })).toEqual(data);
    expect(inflateChecked(gz, { format: "gzip" })).toEqual(data);
    expect(() => inflateChecked(z, { format: "gzip" })).toThrow(/not gzip data/);
    expect(() => inflateChecked(gz, { format: "zlib" })).toThrow(/not zlib data/);
    expect(() => inflateChecked(new Uint8Array(20))).toThrow(/neither gzip nor zlib/);
  });

  test("trailer mismatches are ChecksumErrors", () => {
    const badCrc = gz.slice();
    badCrc[gz.length - 5]! ^= 1;
    expect(() => inflateChecked(badCrc)).toThrow(ChecksumError);
    const badAdler = z.slice();
    badAdler[z.length - 1]! ^= 1;
    expect(() => inflateChecked(badAdler)).toThrow(/zlib Adler-32 mismatch: stored 0x[0-9a-f]{8}, computed/);
    expect(() => inflateChecked(badAdler)).toThrow(ChecksumError);
  });

  test("the cap is exact and a CorruptDataError", () => {
    expect(() => inflateChecked(gz, { maxBytes: 49_999 })).toThrow(CorruptDataError);
    expect(() => inflateChecked(gz, { maxBytes: 49_999 })).toThrow(
      /declares 50000 bytes, more than 49999 bytes, the limit/,
    );
    expect(() => inflateChecked(z, { maxBytes: 49_999 })).toThrow(/inflates to more than 49999 bytes, the limit/);
    const zeros = new Uint8Array(deflateSync(new Uint8Array(8 * 2 ** 20)));
    expect(() => inflateChecked(zeros, { maxBytes: 2 ** 20 })).toThrow(/inflates to more than 1048576 bytes/);
  });
});
