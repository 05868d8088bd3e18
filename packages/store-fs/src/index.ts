import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { registerPathStore, registerStore, StoreError } from "@zarrkit/registry";
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
