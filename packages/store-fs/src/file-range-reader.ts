// The codec workers' side of `FileSystemStore.lendRange`: a lent file is its
// descriptor, which every thread of the process shares, read with positioned
// reads. Blocking is fine there: a worker has nothing else to do meanwhile.
import { readSync } from "node:fs";
import { type RangeSource, registerRangeReader } from "@zarrkit/registry";
import { MAX_IO_PIECE } from "./file-io.js";

const READER = "@zarrkit/store-fs:file";

/** The source of a window of the file open as `fd`, valid while the store keeps it open. */
export function fileSource(fd: number): RangeSource {
  return { reader: READER, fd };
}

registerRangeReader(READER, (source, offset, target) => {
  const fd = source.fd as number;
  let filled = 0;
  while (filled < target.length) {
    const piece = Math.min(target.length - filled, MAX_IO_PIECE);
    const read = readSync(fd, target, filled, piece, offset + filled);
    if (read === 0) break;
    filled += read;
  }
  return filled;
});
