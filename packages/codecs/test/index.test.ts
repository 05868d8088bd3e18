import { readdirSync } from "node:fs";
import { type CodecMetadata, isCodecRegistered, resolveCodec } from "@zarrkit/registry";
import { fixturePath } from "@zarrkit/test-utils/fixtures";
import { describe, expect, test } from "vitest";
import * as codecs from "../src/index.js";
import { chunkSpec, create, fixtureBytes } from "./helpers.js";

const FACTORIES = {
  gzip: codecs.gzipCodecFactory,
  zlib: codecs.zlibCodecFactory,
  zstd: codecs.zstdCodecFactory,
  blosc: codecs.bloscCodecFactory,
  "numcodecs.delta": codecs.deltaCodecFactory,
  "vlen-utf8": codecs.vlenUtf8CodecFactory,
  "vlen-bytes": codecs.vlenBytesCodecFactory,
  "numcodecs.vlen-bytes": codecs.numcodecsVlenBytesCodecFactory,
  "numcodecs.zlib": codecs.numcodecsZlibCodecFactory,
  "numcodecs.gzip": codecs.numcodecsGzipCodecFactory,
  "numcodecs.zstd": codecs.numcodecsZstdCodecFactory,
  "numcodecs.blosc": codecs.numcodecsBloscCodecFactory,
  "numcodecs.vlen-utf8": codecs.numcodecsVlenUtf8CodecFactory,
  "numcodecs.lz4": codecs.numcodecsLz4CodecFactory,
  "numcodecs.bz2": codecs.numcodecsBz2CodecFactory,
  "numcodecs.lzma": codecs.numcodecsLzmaCodecFactory,
  "numcodecs.fixedscaleoffset": codecs.numcodecsFixedScaleOffsetCodecFactory,
  "numcodecs.quantize": codecs.numcodecsQuantizeCodecFactory,
  "numcodecs.bitround": codecs.numcodecsBitRoundCodecFactory,
  "numcodecs.astype": codecs.numcodecsAsTypeCodecFactory,
  "numcodecs.packbits": codecs.numcodecsPackBitsCodecFactory,
  "numcodecs.categorize": codecs.numcodecsCategorizeCodecFactory,
  "numcodecs.json2": codecs.numcodecsJson2CodecFactory,
  "numcodecs.shuffle": codecs.numcodecsShuffleCodecFactory,
  "numcodecs.crc32": codecs.numcodecsCrc32CodecFactory,
  "numcodecs.adler32": codecs.numcodecsAdler32CodecFactory,
  "numcodecs.fletcher32": codecs.numcodecsFletcher32CodecFactory,
  cast_value: codecs.castValueCodecFactory,
  scale_offset: codecs.scaleOffsetCodecFactory,
  reshape: codecs.reshapeCodecFactory,
  bitround: codecs.bitroundCodecFactory,
};

describe("@zarrkit/codecs index", () => {
  test("registers every codec with a loader that yields the exported factory", async () => {
    for (const [name, factory] of Object.entries(FACTORIES)) {
      expect(isCodecRegistered(name)).toBe(true);
      expect(await resolveCodec(name)).toBe(factory);
    }
  });

  test("exports exactly the registered factories", () => {
    const exported = Object.values(codecs);
    expect(exported).toHaveLength(Object.keys(FACTORIES).length);
    expect(new Set(exported)).toEqual(new Set(Object.values(FACTORIES)));
  });
});

/** Every codec entry of a zarr.json, including the inner and index codecs of sharding. */
function codecEntries(entries: CodecMetadata[]): CodecMetadata[] {
  return entries.flatMap((entry) => {
    const nested = ["codecs", "index_codecs"].flatMap(
      (key) => (entry.configuration?.[key] as CodecMetadata[] | undefined) ?? [],
    );
    return [entry, ...codecEntries(nested)];
  });
}

describe("toJSON reproduces zarr-python's metadata", () => {
  const root = fixturePath("zarr-python-v3.zarr");
  const arrays = root
    ? readdirSync(root).filter((name) => fixtureBytes(`${name}/zarr.json`) && name !== "zarr.json")
    : [];
  test.for(arrays.length ? arrays : ["(fixtures absent)"])("%s", async (array, { skip }) => {
    const text = fixtureBytes(`${array}/zarr.json`);
    if (!text) return skip("fixtures absent");
    const metadata = JSON.parse(new TextDecoder().decode(text));
    if (metadata.node_type !== "array") return;
    const spec = chunkSpec(metadata.chunk_grid.configuration.chunk_shape, metadata.data_type);
    for (const entry of codecEntries(metadata.codecs)) {
      const factory = FACTORIES[entry.name as keyof typeof FACTORIES];
      if (!factory) continue;
      const codec = await create(factory, entry.configuration ?? {}, spec);
      expect(codec.toJSON()).toEqual({ configuration: {}, ...entry });
    }
  });
});
