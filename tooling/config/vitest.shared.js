// Tests run against each workspace package's TypeScript sources (the
// "@zarrkit/source" export condition), so no build is needed before testing.
const conditions = ["@zarrkit/source", "module", "node", "import", "default"];

/** @param {import("vitest/config").UserConfig["test"]} [test] */
export function zarrkitVitestConfig(test = {}) {
  return {
    resolve: { conditions },
    ssr: { resolve: { conditions, externalConditions: ["@zarrkit/source"] } },
    test: {
      testTimeout: 30_000,
      ...test,
    },
  };
}
