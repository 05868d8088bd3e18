// zarrkit on Node: everything in the browser entry, plus file:// stores.
import "@zarrkit/store-fs";
import { registerCodecWorkerModule } from "@zarrkit/registry";

// Codec workers (on by default in Node) register the same codecs by importing the browser entry.
registerCodecWorkerModule(new URL("./index.js", import.meta.url).href);

export * from "./index.js";
export { FileSystemStore } from "@zarrkit/store-fs";
