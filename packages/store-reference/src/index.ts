import { registerStoreAdapter } from "@zarrkit/registry";
import { openReferenceStore } from "./open.js";
import type { ReferenceStoreOptions } from "./options.js";

export { openReferenceStore };
export type { ReferenceStoreOptions };
export { ReferenceStore } from "./reference-store.js";
export type { Reference, ReferenceTable } from "./reference.js";

// openStore("https://host/refs.json|reference:", { reference: {...} }): the reference store's options under "reference".
registerStoreAdapter("reference", ({ store, key }, path, options) =>
  openReferenceStore(store, key, (options.reference ?? {}) as ReferenceStoreOptions, path),
);
