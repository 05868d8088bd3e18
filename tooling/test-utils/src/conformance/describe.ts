import type { Store } from "@zarrkit/registry";
import { describe, it } from "vitest";
import { conformanceChecks } from "./checks.js";
import { available, type CheckContext, missingNeed } from "./types.js";

/** A fresh, empty store for one check, and how to clean up after it. */
export interface StoreFixture {
  /** A fresh, empty store. */
  store: Store;
  /** Release what the fixture holds (temporary directories, servers); runs after every test. */
  cleanup?: () => Promise<void>;
  /**
   * For stores without `set`: put a value in place behind the store's back
   * (write the file, fill the server), so the read checks can run.
   */
  seed?: (key: string, value: Uint8Array) => Promise<void>;
}

/** What else the suite checks. */
export interface StoreConformanceOptions {
  /**
   * Keys the store must reject with a StoreError naming the key, on every
   * method it has. `unsafeKeys` is the usual list; omit for stores that take
   * any string as a key.
   */
  invalidKeys?: readonly string[];
}

/**
 * Run the store conformance suite: one test per check, each on a fresh store
 * from `makeStore`. Checks for capabilities the store lacks are reported as
 * skipped, naming what is missing.
 */
export function describeStoreConformance(
  name: string,
  makeStore: () => Promise<StoreFixture>,
  options: StoreConformanceOptions = {},
): void {
  describe(`${name} store conformance`, () => {
    const groups = [...new Set(conformanceChecks.map((check) => check.group))];
    for (const group of groups) {
      describe(group, () => {
        for (const check of conformanceChecks.filter((c) => c.group === group)) {
          it(check.name, async (test) => {
            const fixture = await makeStore();
            try {
              const has = available(fixture.store, fixture.seed !== undefined, options.invalidKeys !== undefined);
              const missing = missingNeed(check, has);
              if (missing) test.skip(`needs ${missing}`);
              await check.run(contextFor(fixture, options));
            } finally {
              await fixture.cleanup?.();
            }
          });
        }
      });
    }
  });
}

function contextFor({ store, seed }: StoreFixture, options: StoreConformanceOptions): CheckContext {
  return {
    store,
    put: (key, value) => (store.set ? store.set(key, value) : seed!(key, value)),
    invalidKeys: options.invalidKeys ?? [],
  };
}
