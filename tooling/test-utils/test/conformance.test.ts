import type { Store } from "@zarrkit/registry";
import { describeStoreConformance, unsafeKeys } from "../src/index.js";
import { MemoryStore } from "./memory-store.js";

describeStoreConformance("reference memory", async () => ({ store: new MemoryStore() }), { invalidKeys: unsafeKeys });

// A read-only view: the read checks run on values put in place through `seed`.
describeStoreConformance("read-only memory", async () => {
  const inner = new MemoryStore();
  const store: Store = {
    get: (key) => inner.get(key),
    getRange: (key, range) => inner.getRange(key, range),
    size: (key) => inner.size(key),
    list: (prefix) => inner.list(prefix),
    listDir: (prefix) => inner.listDir(prefix),
  };
  return { store, seed: (key, value) => inner.set(key, value) };
});
