export { describeStoreConformance, type StoreConformanceOptions, type StoreFixture } from "./conformance/describe.js";
export { unsafeKeys } from "./conformance/keys.js";
