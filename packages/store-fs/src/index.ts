import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { registerPathStore, registerStore, StoreError } from "@zarrkit/registry";
import { FileSystemStore, type FileSystemStoreOptions } from "./file-system-store.js";

export { FileSystemStore, type FileSystemStoreOptions };

registerStore("file", (url, options) => {
  if (url.host !== "" && url.host !== "localhost") {
    // file://data/x reads as the host "data" and the path /x: almost always a path was meant.
    throw new StoreError(
      `${url.href} names the host "${url.host}": local files have none. Write file:///${url.host}${url.pathname} for the absolute path /${url.host}${url.pathname}, or the path itself (${url.host}${url.pathname}) for a relative one.`,
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
