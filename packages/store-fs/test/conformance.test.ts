import { describeStoreConformance, unsafeKeys } from "@zarrkit/test-utils";
import { FileSystemStore } from "../src/index.js";
import { tempDir } from "./temp-dir.js";

describeStoreConformance(
  "FileSystemStore",
  async () => {
    const dir = await tempDir();
    return { store: new FileSystemStore(dir.path), cleanup: dir.remove };
  },
  { invalidKeys: unsafeKeys },
);

describeStoreConformance(
  "FileSystemStore keeping empty directories",
  async () => {
    const dir = await tempDir();
    return { store: new FileSystemStore(dir.path, { removeEmptyDirectories: false }), cleanup: dir.remove };
  },
  { invalidKeys: unsafeKeys },
);
