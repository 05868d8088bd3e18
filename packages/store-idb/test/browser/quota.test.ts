import { afterEach, describe, expect, it } from "vitest";
import { AppPage } from "./app-page.js";

const MB = 1_000_000;

interface Outcome {
  ok: boolean;
  name?: string;
  code?: string;
  key?: string;
}

describe("a full quota in Chromium", () => {
  let app: AppPage | undefined;
  afterEach(async () => {
    await app?.close();
    app = undefined;
  });

  it("fails a set with QuotaExceededError naming the key, and keeps the previous value", async () => {
    app = await AppPage.open(2 * MB);
    expect(await app.call<Outcome>("setNoise", "db", "a/c/0", 100_000, 1)).toEqual({ ok: true });
    const failed = await app.call<Outcome>("setNoise", "db", "a/c/0", 8 * MB, 2);
    expect(failed).toMatchObject({ ok: false, name: "QuotaExceededError", code: "QUOTA_EXCEEDED", key: "a/c/0" });
    expect(await app.call("holdsNoise", "db", "a/c/0", 100_000, 1)).toBe(true);
    // A value that fits still goes in. In a fresh context: the aborted write's bytes count against the quota until
    // Chromium compacts the database, which a loaded machine may not have done yet.
    await app.close();
    app = await AppPage.open(2 * MB);
    expect(await app.call<Outcome>("setNoise", "db", "a/c/0", 200_000, 3)).toEqual({ ok: true });
    expect(await app.call("holdsNoise", "db", "a/c/0", 200_000, 3)).toBe(true);
  });

  it("fails a setMany as a whole: none of its values are written", async () => {
    app = await AppPage.open(2 * MB);
    expect(await app.call<Outcome>("setNoise", "db", "zarr.json", 100, 1)).toEqual({ ok: true });
    const batch = [
      ["zarr.json", 200, 2],
      ["c/0", 1000, 3],
      ["c/1", 4 * MB, 4],
    ];
    const failed = await app.call<Outcome>("setManyNoise", "db", batch);
    expect(failed).toMatchObject({ ok: false, name: "QuotaExceededError", code: "QUOTA_EXCEEDED" });
    expect(await app.call("holdsNoise", "db", "zarr.json", 100, 1)).toBe(true);
    expect(await app.call("holdsNoise", "db", "c/0", 1000, 3)).toBe(null);
    expect(await app.call("holdsNoise", "db", "c/1", 4 * MB, 4)).toBe(null);
    // Without the big value the batch fits. In a fresh context: the aborted transaction's bytes stay in
    // Chromium's usage until its database files are compacted, which a loaded machine may not have done yet.
    await app.close();
    app = await AppPage.open(2 * MB);
    expect(await app.call<Outcome>("setManyNoise", "db", batch.slice(0, 2))).toEqual({ ok: true });
    expect(await app.call("holdsNoise", "db", "zarr.json", 200, 2)).toBe(true);
    expect(await app.call("holdsNoise", "db", "c/0", 1000, 3)).toBe(true);
  });
});
