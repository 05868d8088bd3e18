// zarrkit for every runtime: the core API, every built-in codec, and the
// stores that need no Node built-ins (http(s)://, s3://, idb://, zip archives, the |reference: adapter). The "node"
// entry point adds file:// (here FileSystemStore only throws, so both entries
// export the same names).
import "@zarrkit/codecs";
import "@zarrkit/crc32c";
import "@zarrkit/sharding";
import "@zarrkit/store-fetch";
import "@zarrkit/store-idb";
import "@zarrkit/store-reference";
import "@zarrkit/store-s3";
import "@zarrkit/store-zip";
import { configureCodecWorkers } from "@zarrkit/core";

// Browsers: codec workers run this package's worker entry, which knows every built-in codec. Bundlers emit it from
// this pattern (Vite, webpack); esbuild users build it as an entry of its own (README). Node ignores this.
configureCodecWorkers({
  createWorker: () =>
    new Worker(new URL("./codec-worker.js", import.meta.url), { type: "module", name: "zarrkit codec worker" }),
});

export * from "@zarrkit/core";
export {
  describeShard,
  type InnerChunkEntry,
  plannedReads,
  type ShardDescription,
  type ShardingOptions,
  type ShardReadPlan,
} from "@zarrkit/sharding";
export { FetchStore, type FetchStoreOptions } from "@zarrkit/store-fetch";
export { FileSystemStore } from "./file-system-store-elsewhere.js";
export { IdbStore } from "@zarrkit/store-idb";
export {
  openReferenceStore,
  type Reference,
  ReferenceStore,
  type ReferenceStoreOptions,
  type ReferenceTable,
} from "@zarrkit/store-reference";
export { S3Store } from "@zarrkit/store-s3";
export {
  BlobStore,
  ZipStore,
  type ZipStoreOptions,
  type ZipWriteOptions,
  zipBlob,
  zipChunks,
} from "@zarrkit/store-zip";
