import "fake-indexeddb/auto";
import { describeStoreConformance, unsafeKeys } from "@zarrkit/test-utils";
import { IdbStore } from "../src/index.js";
import { freshDatabase } from "./databases.js";

describeStoreConformance(
  "IdbStore (fake-indexeddb)",
  async () => ({ store: new IdbStore({ database: freshDatabase() }) }),
  {
    invalidKeys: unsafeKeys,
  },
);

// Stores side by side in one database, apart by prefix.
const shared = freshDatabase();
let n = 0;
describeStoreConformance(
  "IdbStore under a prefix (fake-indexeddb)",
  async () => ({ store: new IdbStore({ database: shared, prefix: `arrays/${n++}.zarr` }) }),
  {
    invalidKeys: unsafeKeys,
  },
);
