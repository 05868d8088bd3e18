import { registerStore } from "@zarrkit/registry";
import { openIdbStore } from "./open.js";

export { IdbStore, type IdbStoreOptions } from "./idb-store.js";

registerStore("idb", openIdbStore);
