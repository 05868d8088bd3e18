// Parts of one conversion starting at the same time: a part that finds no
// root zarr.json and then lists the destination may see what another part
// stored in between (its metadata, then shards). Replayed deterministically
// in-process: the destination's `s3` scheme is taken over by a memory store
// that stores another part's keys just before it lists.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createArray, FileSystemStore, MemoryStore, openArray } from "zarrkit";
import { registerStore } from "@zarrkit/registry";
import { main } from "../src/main.js";
import type { Output } from "../src/output.js";

let root: string;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "zarrkit-race-"));
  const src = await createArray(new FileSystemStore(join(root, "src.zarr")), "", {
    shape: [8, 8],
    dataType: "uint16",
    chunkShape: [2, 2],
  });
  await src.set(
    null,
    Uint16Array.from({ length: 64 }, (_, i) => i + 1),
  );
});

afterAll(async () => {
  if (root) await rm(root, { recursive: true, force: true });
});

function capture(): Output & { lines: string[] } {
  const lines: string[] = [];
  return { lines, write: (t) => void lines.push(t), error: (t) => void lines.push(t), help: () => 0 };
}

/** A memory store that, on its first listing, first stores `others` (what another part wrote meanwhile). */
function racyStore(others: Map<string, Uint8Array>): MemoryStore {
  const store = new MemoryStore();
  const list = store.list.bind(store);
  let raced = false;
  store.list = async function* (prefix: string) {
    if (!raced) {
      raced = true;
      for (const [key, value] of others) await store.set(key, value);
    }
    yield* list(prefix);
  };
  return store;
}

describe("convert parts starting at once", () => {
  it(
    "a part that lists another part's fresh metadata and shard goes on; other data found that way is " +
      "still refused",
    async () => {
      const src = join(root, "src.zarr");
      const layout = ["--shard-shape", "4,4", "--progress", "none"];
      // What part 0 of 2 stores: the metadata, then its shards.
      const reference = join(root, "part0.zarr");
      expect(await main(["convert", src, reference, ...layout, "--part", "0/2"], capture())).toBe(0);
      const part0 = new FileSystemStore(reference);
      const others = new Map([
        ["zarr.json", (await part0.get("zarr.json"))!],
        ["c/0/0", (await part0.get("c/0/0"))!],
      ]);

      const dst = racyStore(others);
      registerStore("s3", async () => dst);
      const out = capture();
      expect(
        await main(["convert", src, "s3://bucket/race.zarr", ...layout, "--part", "1/2"], out),
        out.lines.join("\n"),
      ).toBe(0);
      expect(out.lines.at(-1)).toContain("shards: 2 written, 0 already present, 2 of 2 (part 1/2)");
      const got = await (await openArray(dst, "")).get();
      // Shards c/0/0 (the other part's), c/0/1 and c/1/1 (this part's) hold values; c/1/0, of part 0, was not stored
      // here.
      const missing = (i: number) => i >= 32 && i % 8 < 4;
      expect(Array.from(got.data as Uint16Array)).toEqual(
        Array.from({ length: 64 }, (_, i) => (missing(i) ? 0 : i + 1)),
      );

      // Keys of something else, appearing the same way, without this conversion's metadata: refused, untouched.
      const foreign = racyStore(new Map([["readme", new TextEncoder().encode("mine")]]));
      registerStore("s3", async () => foreign);
      const refused = capture();
      expect(await main(["convert", src, "s3://bucket/other.zarr", ...layout, "--part", "1/2"], refused)).toBe(1);
      expect(refused.lines.join("\n")).toMatch(
        /NodeExistsError: destination s3:\/\/bucket\/other.zarr already holds other data \(readme\)/,
      );
      expect(await foreign.get("zarr.json")).toBeUndefined();
    },
  );
});
