import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createArray, FileSystemStore, open, type Store, type ZarrArray } from "zarrkit";
import { verify } from "../src/commands/verify.js";
import { UsageError } from "../src/errors.js";
import { createProgress, progressMode } from "../src/progress.js";

/** A stream that records writes, and a clock the test moves. */
function fakes(isTTY: boolean) {
  const writes: string[] = [];
  let t = 1_000_000;
  return {
    stream: { isTTY, write: (s: string) => writes.push(s) },
    writes,
    now: () => t,
    tick: (ms: number) => (t += ms),
  };
}

describe("createProgress", () => {
  it("auto on a TTY draws one redrawn bar line with done/total, percent, rate and ETA, ended by a newline", () => {
    const f = fakes(true);
    const p = createProgress({ mode: "auto", total: 4, unit: "shards", stream: f.stream, now: f.now });
    f.tick(1000);
    p.advance(1);
    f.tick(1000);
    p.advance(1, { bytesRead: 2e6 });
    p.finish();
    expect(f.writes.every((w) => w.startsWith("\r["))).toBe(true);
    expect(f.writes[1]).toContain("1/4 shards (25%), 1.0 shards/s, ETA 3s");
    // The last redraw clears the rest of the line (ESC [K) and ends it.
    expect(f.writes.at(-1)).toBe(
      `\r[${"#".repeat(12)}${"-".repeat(12)}] 2/4 shards (50%), 1.0 shards/s, ETA 2s, bytesRead 2.0 MB (1.0 ` +
        `MB/s)${String.fromCharCode(27)}[K\n`,
    );
  });

  it("auto without a TTY prints plain lines on the interval only, and a last line when it printed any", async () => {
    const quiet = fakes(false);
    const q = createProgress({ mode: "auto", total: 2, stream: quiet.stream, intervalMs: 10_000 });
    q.advance(2);
    q.finish();
    expect(quiet.writes).toEqual([]);
    const f = fakes(false);
    const p = createProgress({ mode: "auto", total: 3, unit: "shards", stream: f.stream, intervalMs: 5 });
    p.advance(1);
    await new Promise((r) => setTimeout(r, 40));
    p.advance(2);
    p.finish();
    expect(f.writes.length).toBeGreaterThanOrEqual(2);
    expect(f.writes[0]).toMatch(/^1\/3 shards \(33%\)/);
    expect(f.writes.at(-1)).toMatch(/^3\/3 shards \(100%\), [\d.]+ shards\/s, took 0s\n$/);
  });

  it("json prints {done, total, ...counters} at most every 100 ms, and always the last; none prints nothing", () => {
    const f = fakes(false);
    const p = createProgress({ mode: "json", total: 5, stream: f.stream, now: f.now });
    p.advance(1, { bytesWritten: 10 });
    p.advance(1, { bytesWritten: 10 });
    f.tick(100);
    p.advance(1);
    p.advance(2);
    p.finish();
    p.finish();
    expect(f.writes.map((w) => JSON.parse(w))).toEqual([
      { done: 0, total: 5 },
      { done: 3, total: 5, bytesWritten: 20 },
      { done: 5, total: 5, bytesWritten: 20 },
    ]);
    const n = fakes(true);
    const none = createProgress({ mode: "none", total: 1, stream: n.stream });
    none.advance();
    none.finish();
    expect(n.writes).toEqual([]);
  });

  it(
    "json prints every unit advanced with a record at once, its fields after done/total; other modes " +
      "ignore records",
    () => {
      const f = fakes(false);
      const p = createProgress({ mode: "json", total: 3, stream: f.stream, now: f.now });
      p.advance(1, { written: 1, bytesWritten: 10 }, { key: "c/0/0", shard: "written" });
      p.advance(1, { skipped: 1 }, { key: "c/0/1", shard: "present" });
      p.advance(1);
      p.finish();
      expect(f.writes).toEqual([
        '{"done":0,"total":3}\n',
        '{"done":1,"total":3,"key":"c/0/0","shard":"written","written":1,"bytesWritten":10}\n',
        '{"done":2,"total":3,"key":"c/0/1","shard":"present","written":1,"bytesWritten":10,"skipped":1}\n',
        '{"done":3,"total":3,"written":1,"bytesWritten":10,"skipped":1}\n',
      ]);
      const bar = fakes(true);
      const b = createProgress({ mode: "bar", total: 2, stream: bar.stream, now: bar.now });
      b.advance(1, {}, { key: "c/0/0" });
      b.advance(1, {}, { key: "c/0/1" });
      b.finish();
      expect(bar.writes.join("")).not.toContain("c/0/");
    },
  );

  it("progressMode takes the five modes and refuses others naming --progress", () => {
    expect(progressMode(undefined, "verify")).toBe("auto");
    expect(progressMode("json", "verify")).toBe("json");
    expect(() => progressMode("fancy", "verify")).toThrow(UsageError);
    expect(() => progressMode("fancy", "verify")).toThrow(/--progress/);
  });
});

describe("verify on a store without sized ranged reads", () => {
  it("still finds an index entry past the end (the shard is read whole to know its size)", async () => {
    const dir = await mkdtemp(join(tmpdir(), "zarrkit-sized-"));
    try {
      const fs = new FileSystemStore(dir);
      const a = await createArray(fs, "", {
        zarr_format: 3,
        node_type: "array",
        shape: [4],
        data_type: "uint8",
        chunk_grid: { name: "regular", configuration: { chunk_shape: [4] } },
        chunk_key_encoding: { name: "default", configuration: { separator: "/" } },
        fill_value: 0,
        codecs: [
          {
            name: "sharding_indexed",
            configuration: {
              chunk_shape: [2],
              codecs: [{ name: "bytes" }],
              index_codecs: [{ name: "bytes", configuration: { endian: "little" } }],
              index_location: "start",
            },
          },
        ],
        attributes: {},
      });
      await a.set(null, { data: Uint8Array.from([1, 2, 3, 4]), shape: [4] });
      // Index at the start (2 entries x 16 bytes, no checksum), then 2 + 2 data bytes: point entry 1 at [35, 37), one
      // byte past the end.
      const file = join(dir, "c/0");
      const bytes = new Uint8Array(await readFile(file));
      expect(bytes.length).toBe(36);
      new DataView(bytes.buffer).setBigUint64(16, 35n, true);
      await writeFile(file, bytes);
      // Only get, getRange and size: no getRangeWithSize, so the codec alone could not see the end.
      const plain: Store = {
        get: (key, o) => fs.get(key, o),
        getRange: (key, r, o) => fs.getRange(key, r, o),
        size: (key, o) => fs.size(key, o),
      };
      const report = await verify((await open(plain, "")) as ZarrArray, {});
      expect(report.ok).toBe(false);
      expect(report.problems).toEqual([
        {
          key: "c/0",
          error: "CorruptDataError",
          message: expect.stringMatching(/points at bytes \[35, 37\) outside the shard's data \[32, 36\)/),
        },
      ]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe("verify's concurrency", () => {
  it("checks at most --concurrency shards at once (index reads in flight), and more without the bound", async () => {
    const dir = await mkdtemp(join(tmpdir(), "zarrkit-conc-"));
    try {
      const fs = new FileSystemStore(dir);
      const a = await createArray(fs, "", {
        zarr_format: 3,
        node_type: "array",
        shape: [12, 2],
        data_type: "uint8",
        chunk_grid: { name: "regular", configuration: { chunk_shape: [1, 2] } },
        chunk_key_encoding: { name: "default", configuration: { separator: "/" } },
        fill_value: 0,
        codecs: [
          {
            name: "sharding_indexed",
            configuration: {
              chunk_shape: [1, 1],
              codecs: [{ name: "bytes" }],
              index_codecs: [{ name: "bytes", configuration: { endian: "little" } }, { name: "crc32c" }],
            },
          },
        ],
        attributes: {},
      });
      await a.set(null, { data: Uint8Array.from({ length: 24 }, (_, i) => i + 1), shape: [12, 2] });
      const maxInFlight = async (concurrency?: number) => {
        let now = 0;
        let max = 0;
        const slow: Store = {
          get: (key, o) => fs.get(key, o),
          list: (prefix, o) => fs.list(prefix, o),
          getRangeWithSize: async (key, range, o) => {
            max = Math.max(max, ++now);
            await new Promise((r) => setTimeout(r, 20));
            now--;
            return fs.getRangeWithSize(key, range, o);
          },
        };
        const report = await verify(
          (await open(slow, "")) as ZarrArray,
          concurrency === undefined ? {} : { concurrency },
        );
        expect(report).toMatchObject({ ok: true, checked: { shards: 12 } });
        return max;
      };
      expect(await maxInFlight(2)).toBe(2);
      expect(await maxInFlight()).toBe(12);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
