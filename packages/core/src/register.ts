// Core's own built-ins: every array needs an array->bytes codec, and
// memory:// stores and the regular and rectilinear grids need nothing beyond core.
import { registerChunkGrid, registerCodec, registerStore } from "@zarrkit/registry";
import { parseRectangularChunkGrid, parseRectilinearChunkGrid } from "./grid/rectilinear.js";
import { parseRegularChunkGrid } from "./grid/regular.js";
import { namedMemoryStore } from "./store/memory-store.js";

registerCodec("bytes", () => import("./codecs/bytes.js").then((m) => m.bytesCodecFactory));
registerCodec("transpose", () => import("./codecs/transpose.js").then((m) => m.transposeCodecFactory));
registerCodec("packbits", () => import("./codecs/packbits.js").then((m) => m.packbitsCodecFactory));
registerChunkGrid("regular", parseRegularChunkGrid);
registerChunkGrid("rectilinear", parseRectilinearChunkGrid);
registerChunkGrid("rectangular", parseRectangularChunkGrid);
registerStore("memory", (url) => namedMemoryStore(decodeURIComponent(url.host + url.pathname)));
