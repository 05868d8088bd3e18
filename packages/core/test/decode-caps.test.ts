// The codec pipeline computes, for every bytes->bytes decode, the most bytes
// its output may hold (CodecContext.maxDecodedBytes) and passes it down.
import { describe, expect, it } from "vitest";
import { type BytesToBytesCodec, registerCodec } from "@zarrkit/registry";
import { DEFAULT_MAX_DECODED_CHUNK_BYTES, dataType } from "../src/index.js";
import { CodecPipeline, expansionBound, arrayPipelineContext } from "../src/internal.js";

const seen: (number | undefined)[] = [];

/**
 * Records the cap it is given; `pad` bytes make its encoded size fixed (like crc32c's 4), else it declares none (like a
 * compressor).
 */
registerCodec("test.probe", () => (configuration) => {
  const pad = (configuration.pad as number | undefined) ?? 0;
  const codec: BytesToBytesCodec = {
    kind: "bytes_to_bytes",
    name: "test.probe",
    encode: (bytes) => {
      const out = new Uint8Array(bytes.length + pad);
      out.set(bytes);
      return out;
    },
    decode: (bytes, ctx) => {
      seen.push(ctx.maxDecodedBytes);
      return bytes.subarray(0, bytes.length - pad);
    },
    ...(configuration.pad !== undefined && { encodedSize: (n: number) => n + pad }),
    toJSON: () => ({ name: "test.probe", configuration }),
  };
  return codec;
});

const probe = (pad?: number) => ({ name: "test.probe", configuration: pad === undefined ? {} : { pad } });

describe("caps on decoded bytes", () => {
  it("are the chunk's exact size, mapped through fixed-size codecs and bounded through compressors", async () => {
    // [16, 16] int32: the bytes codec makes exactly 1024 bytes.
    const spec = { shape: [16, 16], dataType: dataType("int32"), fillValue: 0 };
    const codecs = [{ name: "bytes", configuration: { endian: "little" } }, probe(4), probe(), probe(4)];
    const pipeline = await CodecPipeline.create(codecs, spec);
    const stage2 = expansionBound(1028);
    expect(pipeline.chain.decodedCaps).toEqual([1024, 1028, stage2]);
    expect(stage2).toBe(1028 + 129 + 65536);
    seen.length = 0;
    const encoded = await pipeline.encode({ data: new Int32Array(256).fill(7), shape: [16, 16] }, { key: "k" });
    const decoded = await pipeline.decode(encoded, { key: "k" });
    expect(decoded.data).toEqual(new Int32Array(256).fill(7));
    // Decoding runs the chain backwards: the last codec first.
    expect(seen).toEqual([stage2, 1028, 1024]);
  });

  it("use the configurable bound for variable-length data", async () => {
    const spec = { shape: [4], dataType: dataType("string"), fillValue: "" };
    registerCodec("test.vlen", () => () => ({
      kind: "array_to_bytes",
      name: "test.vlen",
      encode: (chunk) => new TextEncoder().encode(JSON.stringify(chunk.data)),
      decode: (bytes, s) => ({ data: JSON.parse(new TextDecoder().decode(bytes)), shape: [...s.shape] }),
      toJSON: () => ({ name: "test.vlen" }),
    }));
    const byDefault = await CodecPipeline.create([{ name: "test.vlen" }, probe()], spec);
    expect(byDefault.chain.decodedCaps).toEqual([DEFAULT_MAX_DECODED_CHUNK_BYTES]);
    const bounded = await CodecPipeline.create(
      [{ name: "test.vlen" }, probe(), probe()],
      spec,
      arrayPipelineContext({ maxDecodedChunkBytes: 5000 }),
    );
    expect(bounded.chain.decodedCaps).toEqual([5000, expansionBound(5000)]);
    expect(() => arrayPipelineContext({ maxDecodedChunkBytes: -1 })).toThrow(
      /maxDecodedChunkBytes must be a positive integer/,
    );
  });
});
