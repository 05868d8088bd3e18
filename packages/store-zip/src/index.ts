import { registerStoreAdapter } from "@zarrkit/registry";
import { ZipStore, type ZipStoreOptions } from "./zip-store.js";

export { BlobStore } from "./blob-store.js";
export type { OmeComment } from "./ome-comment.js";
export type { Rfc9Layout, Rfc9Problem } from "./rfc9-layout.js";
export { ZipStore, type ZipStoreOptions } from "./zip-store.js";
export { type ZipWriteOptions, zipBlob, zipChunks } from "./zip-writer.js";

/**
 * The `|zip:` segment of URL pipelines, and plain `.zip` / `.ozx` URLs:
 * `openStore("file:///data/image.ozx")`, `openStore("s3://b/x.zip|zip:path/inside")`.
 * `openStore`'s `zip` option (a ZipStoreOptions) is passed on.
 */
registerStoreAdapter(
  "zip",
  ({ store, key }, path, options) =>
    ZipStore.open(store, key, { ...(options.zip as ZipStoreOptions | undefined), root: path }),
  { suffixes: [".zip", ".ozx"] },
);
