import { describeStoreConformance, unsafeKeys } from "@zarrkit/test-utils";
import { IdbStore } from "../../src/index.js";

let counter = 0;
const freshDatabase = () => `conformance-${Date.now().toString(36)}-${counter++}`;

describeStoreConformance("IdbStore in Chromium", async () => ({ store: new IdbStore({ database: freshDatabase() }) }), {
  invalidKeys: unsafeKeys,
});
