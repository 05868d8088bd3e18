// Importing this package registers example.xor, here and in zarrkit's codec
// workers: workerModule names this very module, which each worker imports.
import { registerCodec } from "@zarrkit/registry";

registerCodec("example.xor", async () => (await import("./xor.js")).xorCodec, { workerModule: import.meta.url });
