import { describeStoreConformance } from "@zarrkit/test-utils";
import { MemoryStore } from "../src/index.js";

describeStoreConformance("MemoryStore", async () => ({ store: new MemoryStore() }));
