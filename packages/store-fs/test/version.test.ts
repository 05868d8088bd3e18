import { open, stat } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import { advanceMtime, versionOf } from "../src/version.js";
import { tempDir } from "./temp-dir.js";

let dir: Awaited<ReturnType<typeof tempDir>>;
beforeEach(async () => {
  dir = await tempDir();
});
afterEach(() => dir.remove());

it("moves the mtime past the previous one when the clock has not (coarse timestamps)", async () => {
  const path = join(dir.path, "f");
  const file = await open(path, "w");
  try {
    const now = await file.stat({ bigint: true });
    // As if the previous write happened "later" within the same coarse tick.
    const previous = Object.assign(Object.create(Object.getPrototypeOf(now)), now, {
      mtimeNs: now.mtimeNs + 5_000_000_000n,
    });
    await advanceMtime(file, previous);
    const after = await file.stat({ bigint: true });
    expect(after.mtimeNs > previous.mtimeNs).toBe(true);
    expect(versionOf(after)).not.toBe(versionOf(previous));
  } finally {
    await file.close();
  }
});

it("leaves the mtime alone when it already moved on", async () => {
  const path = join(dir.path, "f");
  const file = await open(path, "w");
  try {
    const now = await file.stat({ bigint: true });
    const previous = Object.assign(Object.create(Object.getPrototypeOf(now)), now, { mtimeNs: now.mtimeNs - 1n });
    await advanceMtime(file, previous);
    expect((await stat(path, { bigint: true })).mtimeNs).toBe(now.mtimeNs);
  } finally {
    await file.close();
  }
});
