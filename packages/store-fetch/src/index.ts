import { registerCodecWorkerModule, registerStore } from "@zarrkit/registry";
import { FetchStore, type FetchStoreOptions, IN_NODE } from "./fetch-store.js";
import "./fetch-range-reader.js";

export { FetchStore, type FetchStoreOptions };
export { ResponseTooLargeError, StoreTimeoutError } from "@zarrkit/registry";
export type { RetryOptions } from "@zarrkit/http";

// openStore("https://...", options): the options are FetchStoreOptions.
for (const scheme of ["http", "https"])
  registerStore(scheme, (url, options) => new FetchStore(url, options as FetchStoreOptions));

// Codec workers fetch the windows lent to them (`lendRange`) with this module's readers. Node's workers import it by
// URL (from the TypeScript sources in this repository's tests); browser workers import this package in their entry.
if (IN_NODE) {
  const reader = import.meta.url.endsWith(".ts") ? "./fetch-range-reader.ts" : "./fetch-range-reader.js";
  registerCodecWorkerModule(new URL(reader, import.meta.url).href);
}
