import * as zarr from "zarrita";
import * as zk from "zarrkit";
import { parseArrayMetadata, parseJson } from "@zarrkit/core/internal";
import type { Source } from "./sources.js";

export type PeerName = "zarrita" | "zarrita+coalescing" | "zarrkit" | "zarrkit shared" | `zarrkit, ${string}`;

/** A box of the array: [start, stop) per dimension. */
export interface Box {
  start: number[];
  stop: number[];
}

export interface Reader {
  /** The box (default: everything) in C order. */
  read(box?: Box): Promise<Uint16Array>;
}

/** A library reading the arrays, the same way for every case. */
export interface ReadPeer {
  name: PeerName;
  /**
   * Read the array's zarr.json once (outside any timing); the function
   * returned makes a fresh array object, with empty caches, without a request.
   */
  prepare(source: Source, path: string): Promise<() => Promise<Reader>>;
}

const decoder = new TextDecoder();

function zarritaPeer(name: PeerName, coalescing: boolean): ReadPeer {
  return {
    name,
    async prepare(source, path) {
      const store = await source.zarritaStore();
      const reading = coalescing ? zarr.withRangeCoalescing(store) : store;
      const bytes = await store.get(`/${path}/zarr.json`);
      if (!bytes) throw new Error(`no array at ${path}`);
      const metadata = JSON.parse(decoder.decode(bytes)) as zarr.ArrayMetadata<"uint16">;
      return async () => {
        const array = new zarr.Array(reading, `/${path}`, metadata);
        return {
          async read(box) {
            const selection = box ? box.start.map((s, d) => zarr.slice(s, box.stop[d]!)) : null;
            return (await zarr.get(array, selection)).data as Uint16Array;
          },
        };
      };
    },
  };
}

/** zarrkit with its default options (or the array options given), reading with the `get` options given. */
const zarrkitPeer = (name: PeerName, options: zk.GetOptions, arrayOptions: zk.ArrayOptions = {}): ReadPeer => ({
  name,
  async prepare(source, path) {
    const store = source.zarrkitStore();
    const key = `${path}/zarr.json`;
    const bytes = await store.get(key);
    if (!bytes) throw new Error(`no array at ${path}`);
    const doc = parseJson(bytes, key);
    return async () => {
      const array = await zk.ZarrArray.create(store, path, parseArrayMetadata(doc, key), arrayOptions);
      return {
        async read(box) {
          const selection = box ? box.start.map((s, d) => zk.slice(s, box.stop[d]!)) : null;
          return (await array.get(selection, options)).data as Uint16Array;
        },
      };
    };
  },
});

/** The peers of every read case, in the order they alternate. */
export const READ_PEERS: readonly ReadPeer[] = [
  zarritaPeer("zarrita", false),
  zarritaPeer("zarrita+coalescing", true),
  zarrkitPeer("zarrkit", {}),
];

/**
 * The memory case's peers: also zarrkit asked for a result over shared memory, which codec workers decode straight
 * into.
 */
export const MEMORY_PEERS: readonly ReadPeer[] = [...READ_PEERS, zarrkitPeer("zarrkit shared", { shared: true })];

/** zarrkit with codec workers off, or on with `workers` of them at most (the array's setting; other limits default). */
export function zarrkitWorkersPeer(workers: number | false): ReadPeer {
  const count = `${workers} worker${workers === 1 ? "" : "s"}`;
  const name: PeerName = workers === false ? "zarrkit, workers off" : `zarrkit, ${count}`;
  return zarrkitPeer(name, {}, { workers: workers === false ? false : { size: workers } });
}
