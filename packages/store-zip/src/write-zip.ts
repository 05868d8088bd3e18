import { randomBytes } from "node:crypto";
import { open, rename, rm } from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";
import type { Store } from "@zarrkit/registry";
import { type ZipWriteOptions, zipChunks } from "./zip-writer.js";

/** What {@link writeZip} wrote. */
export interface WrittenZip {
  /** Absolute path of the archive. */
  path: string;
  /** Its size in bytes. */
  bytes: number;
}

/**
 * Write every key of `source` into the zip archive `path` (Node), the RFC-9
 * way (see {@link zipChunks}): streamed into a temporary file beside it,
 * fsynced, then renamed over `path`. A failed or killed write leaves no
 * archive at `path` (an earlier one stays whole); a killed process may leave
 * a `.zarrkit-tmp.*` file beside it, which can be deleted.
 */
export async function writeZip(source: Store, path: string, options: ZipWriteOptions = {}): Promise<WrittenZip> {
  const target = resolve(path);
  const temp = join(dirname(target), `.zarrkit-tmp.${randomBytes(8).toString("hex")}.${basename(target)}`);
  const file = await open(temp, "wx", 0o644);
  let bytes = 0;
  try {
    for await (const chunk of zipChunks(source, options)) {
      // FileHandle.write may write part of a buffer: loop until all of it is on disk.
      for (let at = 0; at < chunk.length; ) at += (await file.write(chunk, at, chunk.length - at)).bytesWritten;
      bytes += chunk.length;
    }
    await file.sync();
    await file.close();
    await rename(temp, target);
  } catch (error) {
    await file.close().catch(() => {});
    await rm(temp, { force: true }).catch(() => {});
    throw error;
  }
  return { path: target, bytes };
}
