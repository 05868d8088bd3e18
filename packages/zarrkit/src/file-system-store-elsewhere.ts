// Outside Node there is no file system, yet every entry point exports the same
// names, so the types of each export condition (TypeScript's "bundler"
// resolution reads the default one) match what it exports.
import { UnsupportedError } from "@zarrkit/registry";
import type { FileSystemStore as NodeFileSystemStore } from "@zarrkit/store-fs";

/**
 * The filesystem store exists in Node only (the `node` export condition); elsewhere constructing it throws an
 * UnsupportedError.
 */
export const FileSystemStore = class FileSystemStore {
  constructor(root: string) {
    throw new UnsupportedError(
      `FileSystemStore(${JSON.stringify(root)}) needs Node: this runtime loaded zarrkit's browser entry. Use ` +
        `FetchStore, S3Store or IdbStore here.`,
    );
  }
} as unknown as typeof NodeFileSystemStore;
export type FileSystemStore = NodeFileSystemStore;
