// The page of the browser case (case 9), bundled by build-page.ts: zarrkit
// (default settings: codec workers on; and with them off, for comparison) and
// zarrita.js (its FetchStore) in the same page, each reading a whole array over HTTP. Node drives it through
// browser-page.ts; the warm-up checks the values against the generated content.
import * as zarr from "zarrita";
import * as zk from "zarrkit";
import { parseArrayMetadata, parseJson } from "@zarrkit/core/internal";
import { Content } from "../content.js";

export type BrowserPeer = "zarrkit" | "zarrkit, workers off" | "zarrita";

/** The I/O alone: the array's shard files fetched whole and at once, nothing decoded. */
export const FETCH_ONLY = "fetch only";

/** What a read returns to Node: never the data itself (hundreds of MiB), only what shows it was right. */
export interface PageRead {
  elements: number;
  /** Index of the first element unlike the generated content, -1 when all match; undefined when not checked. */
  mismatch?: number;
  /** FNV-1a over the values, to compare two readers. */
  digest: number;
  /** Whether the values are over a SharedArrayBuffer. */
  shared: boolean;
}

export interface PageFacts {
  crossOriginIsolated: boolean;
  hardwareConcurrency: number;
  userAgent: string;
  workers: zk.CodecWorkerStats;
}

const readers = new Map<BrowserPeer, () => Promise<Uint16Array>>();
const decoder = new TextDecoder();

/**
 * Read the array's zarr.json once (untimed); each read then makes a fresh array object with empty caches, as in Node.
 */
async function prepare(peer: BrowserPeer, base: string, path: string): Promise<void> {
  if (peer !== "zarrita") {
    const store = new zk.FetchStore(base);
    const key = `${path}/zarr.json`;
    const bytes = await store.get(key);
    if (!bytes) throw new Error(`no array at ${base}${path}`);
    const metadata = parseArrayMetadata(parseJson(bytes, key), key);
    const options = peer === "zarrkit" ? {} : { workers: false };
    // Workers start before the timed reads, as in a page that has been open for a while.
    if (peer === "zarrkit") await zk.startCodecWorkers();
    readers.set(
      peer,
      async () => (await (await zk.ZarrArray.create(store, path, metadata, options)).get(null)).data as Uint16Array,
    );
  } else {
    const store = new zarr.FetchStore(base);
    const bytes = await store.get(`/${path}/zarr.json`);
    if (!bytes) throw new Error(`no array at ${base}${path}`);
    const metadata = JSON.parse(decoder.decode(bytes)) as zarr.ArrayMetadata<"uint16">;
    readers.set(peer, async () => (await zarr.get(new zarr.Array(store, `/${path}`, metadata))).data as Uint16Array);
  }
}

/** Fetch `keys` under `base` at once, each whole and past the HTTP cache; returns the bytes received. */
async function fetchOnly(base: string, keys: string[]): Promise<number> {
  const bodies = await Promise.all(
    keys.map(async (key) => {
      const response = await fetch(base + key, { cache: "no-store" });
      if (!response.ok) throw new Error(`${base}${key}: HTTP ${response.status}`);
      return response.arrayBuffer();
    }),
  );
  return bodies.reduce((sum, body) => sum + body.byteLength, 0);
}

function digest(values: Uint16Array): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < values.length; i++) hash = Math.imul(hash ^ values[i]!, 0x01000193);
  return hash >>> 0;
}

/** One whole read by `peer`; with `checkSize`, its values are checked against the content of that edge. */
async function read(peer: BrowserPeer, checkSize?: number): Promise<PageRead> {
  const reader = readers.get(peer);
  if (!reader) throw new Error(`${peer} was not prepared`);
  const data = await reader();
  const shared = data.buffer instanceof SharedArrayBuffer;
  if (checkSize === undefined) return { elements: data.length, digest: 0, shared };
  const mismatch = new Content(checkSize).firstMismatch(data, [0, 0, 0], [checkSize, checkSize, checkSize]);
  return { elements: data.length, mismatch, digest: digest(data), shared };
}

function facts(): PageFacts {
  return {
    crossOriginIsolated,
    hardwareConcurrency: navigator.hardwareConcurrency,
    userAgent: navigator.userAgent,
    workers: zk.codecWorkerStats(),
  };
}

/** Collect garbage before a timed read (Chromium started with --expose-gc), so no read pays for another's. */
function collect(): void {
  (globalThis as { gc?: () => void }).gc?.();
}

const api = { prepare, read, fetchOnly, facts, collect };
export type PageApi = typeof api;
Object.assign(globalThis, { bench: api });
