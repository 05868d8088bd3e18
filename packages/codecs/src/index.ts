// Importing this module registers every codec of the package; each loader
// imports its codec only when an array first uses it, so bundles split them out.
import { registerCodec } from "@zarrkit/registry";

registerCodec("gzip", () => import("./gzip.js").then((m) => m.gzipCodecFactory));
registerCodec("zlib", () => import("./zlib.js").then((m) => m.zlibCodecFactory));
registerCodec("zstd", () => import("./zstd.js").then((m) => m.zstdCodecFactory));
registerCodec("blosc", () => import("./blosc.js").then((m) => m.bloscCodecFactory));
registerCodec("numcodecs.delta", () => import("./delta.js").then((m) => m.deltaCodecFactory));
registerCodec("vlen-utf8", () => import("./vlen-utf8.js").then((m) => m.vlenUtf8CodecFactory));

export { bloscCodecFactory } from "./blosc.js";
export { deltaCodecFactory } from "./delta.js";
export { gzipCodecFactory } from "./gzip.js";
export { vlenUtf8CodecFactory } from "./vlen-utf8.js";
export { zlibCodecFactory } from "./zlib.js";
export { zstdCodecFactory } from "./zstd.js";
