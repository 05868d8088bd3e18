import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { registerCodecWorkerModule, registerPathStore, registerStore, StoreError } from "@zarrkit/registry";
import { FileSystemStore } from "./file-system-store.js";
import type { FileSystemStoreOptions } from "./store-options.js";

export { FileSystemStore, type FileSystemStoreOptions };

registerStore("file", (url, options) => {
  if (url.host !== "" && url.host !== "localhost") {
    // file://data/x reads as the host "data" and the path /x: almost always a path was meant.
    const path = `${url.host}${url.pathname}`;
    throw new StoreError(
      `${url.href} names the host "${url.host}": local files have none. Write file:///${path} for the absolute ` +
        `path /${path}, or the path itself (${path}) for a relative one.`,
    );
  }
  let root: string;
  try {
    root = fileURLToPath(url);
  } catch (cause) {
    throw new StoreError(`Not a local file URL: ${url.href}.`, { cause });
  }
  return new FileSystemStore(root, options as FileSystemStoreOptions);
});

// openStore("./data.zarr") and openStore("/data/a.zarr"): relative to the working directory.
registerPathStore((path, options) => new FileSystemStore(resolve(path), options as FileSystemStoreOptions));

// Codec workers read the files lent to them (`lendRange`) with this module's reader. Run from the TypeScript sources
// (this repository's tests), the module next to this one is the .ts file.
const reader = import.meta.url.endsWith(".ts") ? "./file-range-reader.ts" : "./file-range-reader.js";
registerCodecWorkerModule(new URL(reader, import.meta.url).href);
