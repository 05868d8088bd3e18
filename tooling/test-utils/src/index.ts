export { fixturesDir, fixturePath } from "./fixtures.js";
export { countingStore, type CountingStore, type LoggedRequest } from "./counting-store.js";
