// Importing this module registers the crc32c codec; its loader imports the
// codec (and hash-wasm) only when an array first uses it.
import { registerCodec } from "@zarrkit/registry";

registerCodec("crc32c", () => import("./codec.js").then((m) => m.crc32cCodecFactory));

export { crc32cCodecFactory } from "./codec.js";
export { crc32c, crc32cAsync, initCrc32c } from "./crc32c.js";
