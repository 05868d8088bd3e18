export { fixturesDir, fixturePath } from "./fixtures.js";
export { describeStoreConformance, type StoreConformanceOptions, type StoreFixture } from "./conformance/describe.js";
export { unsafeKeys } from "./conformance/keys.js";
