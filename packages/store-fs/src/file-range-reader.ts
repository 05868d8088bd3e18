// The codec workers' side of `FileSystemStore.lendRange`: a lent file is its
// descriptor, which every thread of the process shares, read with positioned
// reads. Blocking is fine there: a worker has nothing else to do meanwhile.
import { type RangeSource, registerRangeReader } from "@zarrkit/registry";
import { readIntoSync } from "./file-io.js";

const READER = "@zarrkit/store-fs:file";

/** The source of a window of the file open as `fd`, valid while the store keeps it open. */
export function fileSource(fd: number): RangeSource {
  return { reader: READER, fd };
}

registerRangeReader(READER, (source, offset, target) => readIntoSync(source.fd as number, offset, target));
