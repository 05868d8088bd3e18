// Importing this package lets openStore("example-map://name") open a MapStore;
// the same name opens the same store again within this realm.
import { registerStore } from "@zarrkit/registry";
import { MapStore } from "./map-store.js";

export { MapStore };

const named = new Map<string, MapStore>();

registerStore("example-map", (url) => {
  let store = named.get(url.host);
  if (!store) {
    store = new MapStore();
    named.set(url.host, store);
  }
  return store;
});
