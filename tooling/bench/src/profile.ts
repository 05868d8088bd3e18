/** The stored forms of the benchmark array (see forms.ts). */
export type FormName = "raw" | "zstd" | "sharded" | "sharded-raw" | "sharded-other" | "sharded-other-raw";

/**
 * The sizes of one run of the suite. "full" is issue 7's data set; "quick"
 * halves every edge (an eighth of the bytes, the same number of chunks,
 * shards and inner chunks) and keeps only the sharded form beyond the local
 * whole reads, so that it finishes in under two minutes on a quiet machine.
 */
export interface Profile {
  name: "full" | "quick";
  /** Edge of the cubic uint16 array. */
  size: number;
  /** Edge of the chunks of the unsharded forms. */
  chunk: number;
  /** Edge of the shards of the sharded form. */
  shard: number;
  /** Edge of the inner chunks of the sharded form. */
  inner: number;
  /**
   * The other inner chunk edge issue 16 names (64^3 and 32^3), of the "sharded-other" forms, in shards of the same
   * edge.
   */
  otherInner: number;
  /** Timed runs per contender (the median is reported). */
  runs: number;
  /** Untimed runs per contender before them (JIT, wasm memory growth, page cache). */
  warmups: number;
  /** Inner chunks read one by one in the random-read case. */
  randomChunks: number;
  /** Forms read chunk by chunk (case 2, and over HTTP), and read whole over HTTP. */
  chunkForms: FormName[];
  /** Reads in flight in the chunk-by-chunk case. */
  concurrencies: number[];
  /** The same over HTTP, where every request costs the added latency (none: skipped). */
  httpConcurrencies: number[];
  /** Reads in flight in the random-read case over HTTP (locally it is 1). */
  httpRandomConcurrency: number;
  /** Latency the HTTP server adds to every request, in milliseconds. */
  latencyMs: number;
  /** Forms whose whole read is measured for memory (the sharded form's other reads always are). */
  memoryForms: FormName[];
  /** Forms written whole (case 6). */
  writeForms: FormName[];
  /**
   * Issue 20's comparison with tensorstore: the sharded forms of 32^3 raw,
   * 32^3 zstd and 64^3 zstd inner chunks, which tensorstore reads and writes
   * whole (and zarrkit writes whole too); it also reads the warm random inner chunks.
   */
  tensorstoreForms: FormName[];
  /** Why this profile leaves tensorstore out, if it does. */
  tensorstoreSkip?: string;
}

export const FULL: Profile = {
  name: "full",
  size: 512,
  chunk: 128,
  shard: 256,
  inner: 64,
  otherInner: 32,
  runs: 5,
  warmups: 1,
  randomChunks: 1000,
  chunkForms: ["raw", "zstd", "sharded"],
  concurrencies: [1, 2, 4, 8],
  httpConcurrencies: [1, 2, 4, 8],
  httpRandomConcurrency: 8,
  latencyMs: 20,
  memoryForms: ["raw", "zstd", "sharded"],
  writeForms: ["raw", "zstd", "sharded"],
  tensorstoreForms: ["sharded-other-raw", "sharded-other", "sharded"],
};

export const QUICK: Profile = {
  name: "quick",
  size: 256,
  chunk: 64,
  shard: 128,
  inner: 32,
  otherInner: 64,
  runs: 2,
  warmups: 1,
  randomChunks: 100,
  chunkForms: ["sharded"],
  concurrencies: [8],
  httpConcurrencies: [],
  httpRandomConcurrency: 8,
  latencyMs: 20,
  memoryForms: ["sharded"],
  writeForms: ["raw", "sharded"],
  tensorstoreForms: ["sharded-raw", "sharded", "sharded-other"],
};
