// Tests run against each workspace package's TypeScript sources (the
// "@zarrkit/source" export condition), so no build is needed before testing.
const conditions = ["@zarrkit/source", "module", "node", "import", "default"];
// Worker threads and child processes started by tests run plain Node, which
// inherits these flags: they load the same TypeScript sources (see the hooks).
const execArgv = ["--import", new URL("./node-ts-register.js", import.meta.url).href];

/** @param {import("vitest/config").UserConfig["test"]} [test] */
export function zarrkitVitestConfig(test = {}) {
  return {
    resolve: { conditions },
    ssr: { resolve: { conditions, externalConditions: ["@zarrkit/source"] } },
    test: {
      testTimeout: 30_000,
      execArgv,
      ...test,
    },
  };
}
