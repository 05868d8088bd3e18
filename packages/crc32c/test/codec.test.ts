import { readdirSync, readFileSync } from "node:fs";
import {
  type BytesToBytesCodec,
  ChecksumError,
  CorruptDataError,
  InvalidMetadataError,
  isCodecRegistered,
  resolveCodec,
} from "@zarrkit/registry";
import { fixturePath } from "@zarrkit/test-utils/fixtures";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { crc32cCodecFactory } from "../src/index.js";
import { createCtx, ctx, FIELD, referenceCrc32c } from "./helpers.js";

const codec = async () => (await crc32cCodecFactory({}, createCtx)) as BytesToBytesCodec;

describe("crc32c codec", () => {
  test("registers itself on import", async () => {
    expect(isCodecRegistered("crc32c")).toBe(true);
    expect(await resolveCodec("crc32c")).toBe(crc32cCodecFactory);
  });

  test("appends the checksum as 4 little-endian bytes", async () => {
    const encoded = await (await codec()).encode(new TextEncoder().encode("123456789"), ctx);
    expect(Array.from(encoded.subarray(9))).toEqual([0x83, 0x92, 0x06, 0xe3]);
  });

  test("round trips, including empty data, with a fixed encoded size", async () => {
    const c = await codec();
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 2000 }), async (data) => {
        const encoded = await c.encode(data, ctx);
        expect(encoded.length).toBe(c.encodedSize!(data.length));
        expect(await c.decode(encoded, ctx)).toEqual(data);
      }),
    );
    expect(c.encodedSize!(0)).toBe(4);
    expect(c.encodedSize!(1000)).toBe(1004);
  });

  test("a changed byte is a ChecksumError naming the key and both checksums", async () => {
    const c = await codec();
    const encoded = await c.encode(new TextEncoder().encode("123456789"), ctx);
    for (let at = 0; at < encoded.length; at++) {
      const damaged = encoded.slice();
      damaged[at]! ^= 0x10;
      const error = await Promise.resolve()
        .then(() => c.decode(damaged, ctx))
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ChecksumError);
      expect((error as ChecksumError).key).toBe(ctx.key);
      expect((error as Error).message).toMatch(
        /crc32c checksum mismatch in arr\/c\/0\/1: stored 0x[0-9a-f]{8}, computed 0x[0-9a-f]{8}/,
      );
    }
    const message = await Promise.resolve()
      .then(() =>
        c.decode(
          encoded.map((b, i) => (i === 0 ? b ^ 1 : b)),
          ctx,
        ),
      )
      .catch((e: Error) => e.message);
    expect(message).toContain("stored 0xe3069283");
  });

  test("fewer than 4 bytes is CorruptDataError naming the key", async () => {
    const c = await codec();
    for (const length of [0, 1, 3]) {
      expect(() => c.decode(new Uint8Array(length), ctx)).toThrow(CorruptDataError);
      expect(() => c.decode(new Uint8Array(length), ctx)).toThrow(/arr\/c\/0\/1 has \d bytes/);
    }
  });

  test("takes no configuration; toJSON is zarr-python's form", async () => {
    expect((await codec()).toJSON()).toEqual({ name: "crc32c" });
    const error = await Promise.resolve(crc32cCodecFactory({ seed: 1 }, createCtx)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidMetadataError);
    expect((error as InvalidMetadataError).field).toBe(`${FIELD}.configuration.seed`);
  });
});

describe("fixtures: the crc32c-protected shard indexes zarr-python wrote", () => {
  const root = fixturePath("zarr-python-v3.zarr");
  const sharded = root
    ? readdirSync(root).filter((name) => {
        try {
          return readFileSync(`${root}/${name}/zarr.json`, "utf8").includes('"sharding_indexed"');
        } catch {
          return false;
        }
      })
    : [];

  test.for(sharded.length ? sharded : ["(fixtures absent)"])(
    "%s: every shard's index verifies and points inside the shard",
    async (array, { skip }) => {
      if (!root) return skip("fixtures absent");
      expect(sharded.length).toBeGreaterThanOrEqual(10);
      const metadata = JSON.parse(readFileSync(`${root}/${array}/zarr.json`, "utf8"));
      const sharding = metadata.codecs[0].configuration;
      expect(sharding.index_codecs.map((c: { name: string }) => c.name)).toEqual(["bytes", "crc32c"]);
      const shardShape: number[] = metadata.chunk_grid.configuration.chunk_shape;
      const inner = shardShape.reduce((n, d, i) => n * Math.ceil(d / sharding.chunk_shape[i]), 1);
      const c = await codec();
      const indexSize = c.encodedSize!(16 * inner)!;
      const shards = readdirSync(`${root}/${array}/c`, { recursive: true, withFileTypes: true }).filter((e) =>
        e.isFile(),
      );
      expect(shards.length).toBeGreaterThan(0);
      for (const entry of shards) {
        const shard = new Uint8Array(readFileSync(`${entry.parentPath}/${entry.name}`));
        const stored = shard.subarray(shard.length - indexSize);
        const index = await c.decode(stored, { key: `${array}/c/${entry.name}` });
        expect(referenceCrc32c(index)).toBe(new DataView(stored.buffer, stored.byteOffset).getUint32(16 * inner, true));
        const view = new DataView(index.buffer, index.byteOffset, index.byteLength);
        for (let i = 0; i < inner; i++) {
          const offset = view.getBigUint64(16 * i, true);
          const length = view.getBigUint64(16 * i + 8, true);
          if (offset === 2n ** 64n - 1n) continue; // empty inner chunk
          expect(offset + length).toBeLessThanOrEqual(BigInt(shard.length - indexSize));
        }
      }
    },
  );
});
