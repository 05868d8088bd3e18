import { beforeAll, describe, expect, it } from "vitest";
import { conformanceChecks } from "../src/conformance/checks.js";
import { unsafeKeys } from "../src/index.js";
import { mutants } from "./mutants.js";

// Run every check against every broken store once; the tests below read the matrix.
const killedBy = new Map<string, string[]>();
const caughtBy = new Map<string, string[]>();
const title = (check: (typeof conformanceChecks)[number]) => `${check.group}: ${check.name}`;

beforeAll(async () => {
  for (const check of conformanceChecks) {
    for (const [mutant, make] of Object.entries(mutants)) {
      const store = make();
      const failed = await check
        .run({ store, put: (key, value) => store.set!(key, value), invalidKeys: unsafeKeys })
        .then(
          () => false,
          () => true,
        );
      if (!failed) continue;
      killedBy.set(title(check), [...(killedBy.get(title(check)) ?? []), mutant]);
      caughtBy.set(mutant, [...(caughtBy.get(mutant) ?? []), title(check)]);
    }
  }
});

describe("every conformance check fails against at least one broken store", () => {
  it.each(conformanceChecks.map(title))("%s", (name) => {
    expect(killedBy.get(name) ?? [], `no broken store makes "${name}" fail`).not.toEqual([]);
  });
});

describe("every broken store fails at least one check", () => {
  it.each(Object.keys(mutants))("%s", (mutant) => {
    expect(caughtBy.get(mutant) ?? [], `the suite passes on a store where ${mutant}`).not.toEqual([]);
  });
});
