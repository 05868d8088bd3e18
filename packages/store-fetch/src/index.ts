import { registerCodecWorkerModule, registerStore } from "@zarrkit/registry";
import { FetchStore, type FetchStoreOptions, IN_NODE } from "./fetch-store.js";

export { FetchStore, type FetchStoreOptions };
export { ResponseTooLargeError, StoreTimeoutError } from "@zarrkit/registry";
export type { RetryOptions } from "@zarrkit/http";

// openStore("https://...", options): the options are FetchStoreOptions.
for (const scheme of ["http", "https"])
  registerStore(scheme, (url, options) => new FetchStore(url, options as FetchStoreOptions));

// Codec workers fetch the windows lent to them (`lendRange`) with the readers of fetch-range-reader.ts: Node's workers
// import it by URL (the TypeScript sources in this repository's tests), browser workers import
// "@zarrkit/store-fetch/range-reader" in their entry. Pages and calling threads never need it.
if (IN_NODE) {
  const reader = import.meta.url.endsWith(".ts") ? "./fetch-range-reader.ts" : "./fetch-range-reader.js";
  registerCodecWorkerModule(new URL(reader, import.meta.url).href);
}
