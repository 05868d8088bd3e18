// Importing this module registers every codec of the package; each loader
// imports its codec only when an array first uses it, so bundles split them out.
import { registerCodec } from "@zarrkit/registry";

registerCodec("gzip", () => import("./gzip.js").then((m) => m.gzipCodecFactory));
registerCodec("zlib", () => import("./zlib.js").then((m) => m.zlibCodecFactory));
registerCodec("zstd", () => import("./zstd.js").then((m) => m.zstdCodecFactory));
registerCodec("blosc", () => import("./blosc.js").then((m) => m.bloscCodecFactory));
registerCodec("numcodecs.delta", () => import("./delta.js").then((m) => m.deltaCodecFactory));
registerCodec("vlen-utf8", () => import("./vlen-utf8.js").then((m) => m.vlenUtf8CodecFactory));
registerCodec("vlen-bytes", () => import("./vlen-bytes.js").then((m) => m.vlenBytesCodecFactory));
// zarr-extensions array->array codecs.
registerCodec("cast_value", () => import("./cast-value.js").then((m) => m.castValueCodecFactory));
registerCodec("scale_offset", () => import("./scale-offset.js").then((m) => m.scaleOffsetCodecFactory));
registerCodec("reshape", () => import("./reshape.js").then((m) => m.reshapeCodecFactory));
registerCodec("bitround", () => import("./bitround.js").then((m) => m.bitroundCodecFactory));

// numcodecs' codecs under the names zarr-python 3 writes (and core gives Zarr v2 filters and compressors).
const aliases = () => import("./numcodecs/aliases.js");
const checksums = () => import("./numcodecs/checksums.js");
registerCodec("numcodecs.zlib", () => aliases().then((m) => m.numcodecsZlibCodecFactory));
registerCodec("numcodecs.gzip", () => aliases().then((m) => m.numcodecsGzipCodecFactory));
registerCodec("numcodecs.zstd", () => aliases().then((m) => m.numcodecsZstdCodecFactory));
registerCodec("numcodecs.blosc", () => aliases().then((m) => m.numcodecsBloscCodecFactory));
registerCodec("numcodecs.vlen-utf8", () => aliases().then((m) => m.numcodecsVlenUtf8CodecFactory));
registerCodec("numcodecs.vlen-bytes", () => import("./vlen-bytes.js").then((m) => m.numcodecsVlenBytesCodecFactory));
registerCodec("numcodecs.lz4", () => import("./numcodecs/lz4.js").then((m) => m.numcodecsLz4CodecFactory));
registerCodec("numcodecs.bz2", () => import("./numcodecs/bz2.js").then((m) => m.numcodecsBz2CodecFactory));
registerCodec("numcodecs.lzma", () => import("./numcodecs/lzma.js").then((m) => m.numcodecsLzmaCodecFactory));
registerCodec("numcodecs.shuffle", () => import("./numcodecs/shuffle.js").then((m) => m.numcodecsShuffleCodecFactory));
registerCodec("numcodecs.fixedscaleoffset", () =>
  import("./numcodecs/scale.js").then((m) => m.numcodecsFixedScaleOffsetCodecFactory),
);
registerCodec("numcodecs.quantize", () => import("./numcodecs/scale.js").then((m) => m.numcodecsQuantizeCodecFactory));
registerCodec("numcodecs.bitround", () =>
  import("./numcodecs/bitround.js").then((m) => m.numcodecsBitRoundCodecFactory),
);
registerCodec("numcodecs.astype", () => import("./numcodecs/astype.js").then((m) => m.numcodecsAsTypeCodecFactory));
registerCodec("numcodecs.packbits", () =>
  import("./numcodecs/packbits.js").then((m) => m.numcodecsPackBitsCodecFactory),
);
registerCodec("numcodecs.categorize", () =>
  import("./numcodecs/categorize.js").then((m) => m.numcodecsCategorizeCodecFactory),
);
registerCodec("numcodecs.json2", () => import("./numcodecs/json2.js").then((m) => m.numcodecsJson2CodecFactory));
registerCodec("numcodecs.crc32", () => checksums().then((m) => m.numcodecsCrc32CodecFactory));
registerCodec("numcodecs.adler32", () => checksums().then((m) => m.numcodecsAdler32CodecFactory));
registerCodec("numcodecs.fletcher32", () => checksums().then((m) => m.numcodecsFletcher32CodecFactory));

export { bitroundCodecFactory } from "./bitround.js";
export { bloscCodecFactory } from "./blosc.js";
export { castValueCodecFactory } from "./cast-value.js";
export { reshapeCodecFactory } from "./reshape.js";
export { scaleOffsetCodecFactory } from "./scale-offset.js";
export { deltaCodecFactory } from "./delta.js";
export { gzipCodecFactory } from "./gzip.js";
export { vlenUtf8CodecFactory } from "./vlen-utf8.js";
export { numcodecsVlenBytesCodecFactory, vlenBytesCodecFactory } from "./vlen-bytes.js";
export { zlibCodecFactory } from "./zlib.js";
export { zstdCodecFactory } from "./zstd.js";
export {
  numcodecsBloscCodecFactory,
  numcodecsGzipCodecFactory,
  numcodecsVlenUtf8CodecFactory,
  numcodecsZlibCodecFactory,
  numcodecsZstdCodecFactory,
} from "./numcodecs/aliases.js";
export {
  numcodecsAdler32CodecFactory,
  numcodecsCrc32CodecFactory,
  numcodecsFletcher32CodecFactory,
} from "./numcodecs/checksums.js";
export { numcodecsAsTypeCodecFactory } from "./numcodecs/astype.js";
export { numcodecsBitRoundCodecFactory } from "./numcodecs/bitround.js";
export { numcodecsCategorizeCodecFactory } from "./numcodecs/categorize.js";
export { numcodecsJson2CodecFactory } from "./numcodecs/json2.js";
export { numcodecsPackBitsCodecFactory } from "./numcodecs/packbits.js";
export { numcodecsFixedScaleOffsetCodecFactory, numcodecsQuantizeCodecFactory } from "./numcodecs/scale.js";
export { numcodecsBz2CodecFactory } from "./numcodecs/bz2.js";
export { numcodecsLzmaCodecFactory } from "./numcodecs/lzma.js";
export { numcodecsLz4CodecFactory } from "./numcodecs/lz4.js";
export { numcodecsShuffleCodecFactory } from "./numcodecs/shuffle.js";
