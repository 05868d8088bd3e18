import { fileURLToPath } from "node:url";
import { registerStore, StoreError } from "@zarrkit/registry";
import { FileSystemStore, type FileSystemStoreOptions } from "./file-system-store.js";

export { FileSystemStore, type FileSystemStoreOptions };

registerStore("file", (url, options) => {
  let root: string;
  try {
    root = fileURLToPath(url);
  } catch (cause) {
    throw new StoreError(`Not a local file URL: ${url.href}.`, { cause });
  }
  return new FileSystemStore(root, options as FileSystemStoreOptions);
});
