// A third-party store through the conformance suite every zarrkit store passes.
import { describeStoreConformance, unsafeKeys } from "@zarrkit/test-utils";
import { MapStore } from "../src/index.js";

describeStoreConformance("example MapStore", async () => ({ store: new MapStore() }), { invalidKeys: unsafeKeys });
