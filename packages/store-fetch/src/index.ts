import { registerStore } from "@zarrkit/registry";
import { FetchStore, type FetchStoreOptions } from "./fetch-store.js";

export { FetchStore, type FetchStoreOptions };
export { ResponseTooLargeError, StoreTimeoutError } from "@zarrkit/registry";
export type { RetryOptions } from "@zarrkit/http";

// openStore("https://...", options): the options are FetchStoreOptions.
for (const scheme of ["http", "https"])
  registerStore(scheme, (url, options) => new FetchStore(url, options as FetchStoreOptions));
