import { expect } from "vitest";
import { bytes, expectBytes, sequence, text } from "./bytes.js";
import { expectPreconditionFailed, settle } from "./errors.js";
import { readLent } from "./lending.js";
import type { ConformanceCheck } from "./types.js";

// Conditional writes are checked on stores that expose versions: a store that
// hands out version tokens promises to honour them in `set`.
export const versionChecks: ConformanceCheck[] = [
  {
    group: "getVersioned",
    name: "returns undefined for a missing key",
    needs: ["getVersioned"],
    async run({ store }) {
      expect(await store.getVersioned!("missing")).toBe(undefined);
    },
  },
  {
    group: "getVersioned",
    name: "returns the value and a non-empty version that is stable while nothing changes",
    needs: ["getVersioned", "write"],
    async run({ store, put }) {
      await put("k", sequence(40));
      const first = await store.getVersioned!("k");
      expectBytes(first?.value, sequence(40));
      expect(
        typeof first?.version === "string" && first.version.length > 0,
        "version should be a non-empty string",
      ).toBe(true);
      const second = await store.getVersioned!("k");
      expect(second?.version, "version of an unchanged value").toBe(first?.version);
      const empty = new Uint8Array(0);
      await put("empty", empty);
      expectBytes((await store.getVersioned!("empty"))?.value, empty, "empty value");
    },
  },
  {
    group: "getVersioned",
    name: "the version changes whenever set replaces the value, even with one of the same size",
    needs: ["getVersioned", "set"],
    async run({ store }) {
      const seen = new Set<string>();
      for (let i = 0; i < 4; i++) {
        await store.set!("k", sequence(64, i));
        const current = await store.getVersioned!("k");
        expectBytes(current?.value, sequence(64, i), `value ${i}`);
        expect(seen.has(current!.version), `version after write ${i} should be new`).toBe(false);
        seen.add(current!.version);
      }
    },
  },
  {
    group: "getVersioned",
    name: "the version changes after append, setRange and truncate",
    needs: ["getVersioned", "write", ["append", "setRange", "truncate"]],
    async run({ store, put }) {
      const versions: string[] = [];
      const record = async (what: string) => {
        const current = await store.getVersioned!("k");
        expect(versions, `version after ${what} should be new`).not.toContain(current!.version);
        versions.push(current!.version);
      };
      await put("k", sequence(32));
      await record("the first write");
      if (store.append) {
        await store.append("k", sequence(4));
        await record("append");
      }
      if (store.setRange) {
        await store.setRange("k", 0, sequence(4, 100));
        await record("setRange");
      }
      if (store.truncate) {
        await store.truncate("k", 16);
        await record("truncate");
      }
    },
  },
  {
    group: "conditional set",
    name: 'ifNoneMatch: "*" creates a missing key',
    needs: ["set", "getVersioned"],
    async run({ store }) {
      await store.set!("k", text("created"), { ifNoneMatch: "*" });
      expectBytes(await store.get("k"), text("created"));
    },
  },
  {
    group: "conditional set",
    name: 'ifNoneMatch: "*" on an existing key throws PreconditionFailedError and keeps the value',
    needs: ["set", "getVersioned"],
    async run({ store }) {
      await store.set!("k", text("original"));
      await expectPreconditionFailed(
        store.set!("k", text("replaced"), { ifNoneMatch: "*" }),
        'set with ifNoneMatch: "*" on an existing key',
      );
      expectBytes(await store.get("k"), text("original"));
    },
  },
  {
    group: "conditional set",
    name: "ifMatch with the current version succeeds",
    needs: ["set", "getVersioned"],
    async run({ store }) {
      await store.set!("k", text("v1"));
      const { version } = (await store.getVersioned!("k"))!;
      await store.set!("k", text("v2"), { ifMatch: version });
      expectBytes(await store.get("k"), text("v2"));
    },
  },
  {
    group: "conditional set",
    name: "ifMatch with a stale version throws PreconditionFailedError and keeps the value",
    needs: ["set", "getVersioned"],
    async run({ store }) {
      await store.set!("k", text("v1"));
      const stale = (await store.getVersioned!("k"))!.version;
      await store.set!("k", text("v2")); // same size: a size-based version would not notice
      await expectPreconditionFailed(store.set!("k", text("v3"), { ifMatch: stale }), "set with a stale ifMatch");
      expectBytes(await store.get("k"), text("v2"));
    },
  },
  {
    group: "conditional set",
    name: "ifMatch on a missing key throws PreconditionFailedError and creates nothing",
    needs: ["set", "getVersioned"],
    async run({ store }) {
      await store.set!("k", text("v1"));
      const { version } = (await store.getVersioned!("k"))!;
      await expectPreconditionFailed(
        store.set!("other", text("v2"), { ifMatch: version }),
        "set with ifMatch on a missing key",
      );
      expect(await store.get("other")).toBe(undefined);
    },
  },
  {
    group: "conditional set",
    name: 'of concurrent ifNoneMatch: "*" creates, exactly one wins',
    needs: ["set", "getVersioned"],
    async run({ store }) {
      const values = Array.from({ length: 6 }, (_, i) => text(`writer ${i}`));
      const { fulfilled, reasons } = await settle(values.map((value) => store.set!("k", value, { ifNoneMatch: "*" })));
      expect(fulfilled, "writers that succeeded").toBe(1);
      for (const reason of reasons) expect((reason as { code?: unknown }).code).toBe("PRECONDITION_FAILED");
      const stored = new TextDecoder().decode(await store.get("k"));
      expect(stored).toMatch(/^writer \d$/);
    },
  },
  {
    group: "conditional set",
    name: "of concurrent writes with the same ifMatch version, exactly one wins",
    needs: ["set", "getVersioned"],
    async run({ store }) {
      await store.set!("k", text("base"));
      const { version } = (await store.getVersioned!("k"))!;
      const values = Array.from({ length: 6 }, (_, i) => text(`writer ${i}`));
      const { fulfilled, reasons } = await settle(values.map((value) => store.set!("k", value, { ifMatch: version })));
      expect(fulfilled, "writers that succeeded").toBe(1);
      for (const reason of reasons) expect((reason as { code?: unknown }).code).toBe("PRECONDITION_FAILED");
    },
  },
];

// A store whose getRangeWithSize reports a version promises to honour it as
// `ifMatch` on ranged reads, appends and in-place writes of the key; stores
// that report none promise nothing, and these checks end early on them.
export const rangeVersionChecks: ConformanceCheck[] = [
  {
    group: "versions on ranged reads",
    name:
      "getRange and getRangeWithSize with ifMatch read the value at that version, and throw " +
      "PreconditionFailedError once it changed",
    needs: ["getRangeWithSize", "getRange", "write"],
    async run({ store, put }) {
      await put("k", sequence(64));
      const version = (await store.getRangeWithSize!("k", { offset: 8, length: 8 }))?.version;
      if (version === undefined) return;
      expect(typeof version === "string" && version.length > 0, "a reported version should be a non-empty string").toBe(
        true,
      );
      if (store.getVersioned)
        expect((await store.getVersioned("k"))?.version, "getVersioned reports the same token").toBe(version);
      expectBytes(
        await store.getRange!("k", { offset: 8, length: 8 }, { ifMatch: version }),
        sequence(8, 8),
        "window at the current version",
      );
      expectBytes(
        await store.getRange!("k", { suffixLength: 4 }, { ifMatch: version }),
        sequence(4, 60),
        "suffix at the current version",
      );
      const sized = await store.getRangeWithSize!("k", { offset: 0, length: 4 }, { ifMatch: version });
      expectBytes(sized?.value, sequence(4), "getRangeWithSize at the current version");
      expect(sized?.version, "version of the unchanged value").toBe(version);
      await put("k", sequence(64, 1)); // same size: a size-based version would not notice
      const changed = (await store.getRangeWithSize!("k", { suffixLength: 0 }))?.version;
      expect(changed, "version after the value was replaced").not.toBe(version);
      await expectPreconditionFailed(
        store.getRange!("k", { offset: 8, length: 8 }, { ifMatch: version }),
        "getRange of a window with a stale ifMatch",
      );
      await expectPreconditionFailed(
        store.getRange!("k", { suffixLength: 4 }, { ifMatch: version }),
        "getRange of a suffix with a stale ifMatch",
      );
      await expectPreconditionFailed(
        store.getRangeWithSize!("k", { offset: 0, length: 4 }, { ifMatch: version }),
        "getRangeWithSize with a stale ifMatch",
      );
    },
  },
  {
    group: "versions on ranged reads",
    name:
      "getRangeInto with ifMatch reads the value at that version, and throws PreconditionFailedError once " +
      "it changed",
    needs: ["getRangeWithSize", "getRangeInto", "write"],
    async run({ store, put }) {
      await put("k", sequence(64));
      const version = (await store.getRangeWithSize!("k", { offset: 8, length: 8 }))?.version;
      if (version === undefined) return;
      const target = new Uint8Array(8);
      expect(
        await store.getRangeInto!("k", { offset: 8, length: 8 }, target, { ifMatch: version }),
        "bytes read at the current version",
      ).toBe(8);
      expectBytes(target, sequence(8, 8), "window at the current version");
      await put("k", sequence(64, 1)); // same size: a size-based version would not notice
      await expectPreconditionFailed(
        store.getRangeInto!("k", { offset: 8, length: 8 }, target, { ifMatch: version }),
        "getRangeInto with a stale ifMatch",
      );
      expectBytes(target, sequence(8, 8), "the target after a refused read");
    },
  },
  {
    group: "versions on ranged reads",
    name:
      "lendRange with ifMatch lends the value at that version, and throws PreconditionFailedError once it " +
      "changed or is gone",
    needs: ["getRangeWithSize", "lendRange", "write"],
    async run({ store, put }) {
      await put("k", sequence(64));
      const version = (await store.getRangeWithSize!("k", { offset: 8, length: 8 }))?.version;
      if (version === undefined) return;
      const window = { offset: 8, length: 8 };
      // Read whole: a store that asks only when read (not splittable) says no then.
      const lendAndRead = (key: string) =>
        store.lendRange!(key, window, { ifMatch: version }, async (lent) => lent && readLent(lent, `${key} lent`));
      expectBytes(await lendAndRead("k"), sequence(8, 8), "window lent at the current version");
      await put("k", sequence(64, 1)); // same size: a size-based version would not notice
      await expectPreconditionFailed(lendAndRead("k"), "lendRange with a stale ifMatch");
      await expectPreconditionFailed(lendAndRead("missing"), "lendRange of a missing key with ifMatch");
    },
  },
  {
    group: "versions on ranged reads",
    name: "append with ifMatch appends only while the value has that version",
    needs: ["append", "getRangeWithSize", "write"],
    async run({ store, put }) {
      await put("k", sequence(10));
      const version = (await store.getRangeWithSize!("k", { suffixLength: 0 }))?.version;
      if (version === undefined) return;
      expect(
        await store.append!("k", sequence(5, 10), { ifMatch: version }),
        "offset of an append at the current version",
      ).toBe(10);
      await expectPreconditionFailed(
        store.append!("k", sequence(5, 99), { ifMatch: version }),
        "append with a stale ifMatch",
      );
      expectBytes(await store.get("k"), sequence(15), "value after one append at the version and one refused");
      await expectPreconditionFailed(
        store.append!("missing", bytes(1), { ifMatch: version }),
        "append with ifMatch to a missing key",
      );
      expect(await store.get("missing"), "a refused append creates nothing").toBe(undefined);
    },
  },
  {
    group: "versions on ranged reads",
    name: "setRange with ifMatch writes only while the value has that version, and returns the new version",
    needs: ["setRange", "getRangeWithSize", "write"],
    async run({ store, put }) {
      await put("k", sequence(16));
      const version = (await store.getRangeWithSize!("k", { suffixLength: 0 }))?.version;
      if (version === undefined) return;
      const returned = await store.setRange!("k", 0, bytes(0xaa), { ifMatch: version });
      const current = (await store.getRangeWithSize!("k", { suffixLength: 0 }))?.version;
      expect(current, "version after setRange").not.toBe(version);
      expect(returned, "setRange returns the value's new version").toBe(current);
      await expectPreconditionFailed(
        store.setRange!("k", 1, bytes(0xbb), { ifMatch: version }),
        "setRange with a stale ifMatch",
      );
      const expected = sequence(16);
      expected[0] = 0xaa;
      expectBytes(await store.get("k"), expected, "value after one setRange at the version and one refused");
    },
  },
];
