// Node only: writing an archive to a file (atomically). Everything else is in the main entry point.
export { type WrittenZip, writeZip } from "./write-zip.js";
export type { ZipWriteOptions } from "./zip-writer.js";
