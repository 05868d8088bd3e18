// A tiny offline app, loaded by test/browser/commands.ts in a page of its
// own: it keeps a sharded Zarr array in IndexedDB. Its functions take and
// return JSON, since they are called from Node through playwright.
import { createArray, openArray, slice, type StoreRequest, withRequestLog, type ZarrArray } from "@zarrkit/core";
import "@zarrkit/crc32c";
import "@zarrkit/sharding";
import { IdbStore } from "../../../src/index.js";
import { noise } from "@zarrkit/test-utils/noise";

/** What a write came to, as JSON. */
type Outcome = { ok: true } | { ok: false; name: string; code: unknown; key: unknown; message: string };

async function outcome(write: Promise<void>): Promise<Outcome> {
  try {
    await write;
    return { ok: true };
  } catch (error) {
    const { name, code, key, message } = error as Error & { code?: unknown; key?: unknown };
    return { ok: false, name, code, key, message };
  }
}

/** 64x64 int32 in shards of 32x32, inner chunks of 8x8: four shards of 16 chunks. */
const layout = { shape: [64, 64], dataType: "int32", chunkShape: [8, 8], shardShape: [32, 32] };

const store = (database: string) => new IdbStore({ database, prefix: "arrays" });
let array: ZarrArray | undefined;
const requests: StoreRequest[] = [];

const app = {
  /** Whether the page can reach its server. */
  async online(): Promise<boolean> {
    try {
      await fetch(location.href, { cache: "no-store" });
      return true;
    } catch {
      return false;
    }
  },

  setNoise: (database: string, key: string, length: number, seed: number) =>
    outcome(store(database).set(key, noise(length, seed))),

  setManyNoise: (database: string, entries: [key: string, length: number, seed: number][]) =>
    outcome(store(database).setMany(entries.map(([key, length, seed]) => [key, noise(length, seed)] as const))),

  /** Whether `key` holds noise(length, seed); null when it is missing. */
  async holdsNoise(database: string, key: string, length: number, seed: number): Promise<boolean | null> {
    const value = await store(database).get(key);
    if (value === undefined) return null;
    const expected = noise(length, seed);
    return value.byteLength === length && value.every((b, i) => b === expected[i]);
  },

  async writeArray(database: string): Promise<string[]> {
    const created = await createArray(store(database), "a.zarr", layout);
    await created.set(
      null,
      Int32Array.from({ length: 64 * 64 }, (_, i) => i),
    );
    const keys: string[] = [];
    for await (const key of store(database).list("")) keys.push(key);
    return keys.sort();
  },

  /** Open the array (loading every codec it needs), logging the store requests made from then on. */
  async openArray(database: string): Promise<void> {
    array = await openArray(
      withRequestLog(store(database), (request) => requests.push(request)),
      "a.zarr",
    );
    requests.length = 0;
  },

  async readArray(): Promise<{ block: number[]; all: number[]; blockRequests: StoreRequest[] }> {
    const block = await array!.get([slice(40, 48), slice(8, 16)]);
    const blockRequests = [...requests];
    const all = await array!.get();
    return { block: Array.from(block.data as Int32Array), all: Array.from(all.data as Int32Array), blockRequests };
  },
};

/** The names of the app's functions, which the tests call through `callApp`. */
export type AppFunction = keyof typeof app;

(window as unknown as { app: typeof app }).app = app;
