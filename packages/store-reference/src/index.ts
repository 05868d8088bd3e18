import { InvalidOptionError, registerStoreAdapter, showValue } from "@zarrkit/registry";
import { openReferenceStore } from "./open.js";
import type { ReferenceStoreOptions } from "./options.js";

export { openReferenceStore };
export type { ReferenceStoreOptions };
export { ReferenceStore } from "./reference-store.js";
export type { Reference, ReferenceTable } from "./reference.js";

// openStore("https://host/refs.json|reference:", { reference: {...} }):
// the reference store's options go under "reference".
registerStoreAdapter("reference", ({ store, key }, path, options) => {
  const own = options.reference ?? {};
  if (typeof own !== "object" || own === null || Array.isArray(own)) {
    throw new InvalidOptionError(
      `openStore's reference option must be an object of reference store options, got ${showValue(own, 80)}`,
      { field: "reference" },
    );
  }
  return openReferenceStore(store, key, own as ReferenceStoreOptions, path);
});
