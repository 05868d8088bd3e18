import type { BigIntStats } from "node:fs";
import type { FileHandle } from "node:fs/promises";

/** The version token of a file: any write through the store changes one of these fields. */
export function versionOf(stats: BigIntStats): string {
  return [stats.dev, stats.ino, stats.size, stats.mtimeNs].map((n) => n.toString(36)).join(".");
}

/**
 * Make the file's mtime later than `previous` (the state before this write).
 * Filesystems with coarse timestamps can give two writes within one clock
 * tick the same mtime; an in-place write that keeps the size would then keep
 * the version. Bumping by a millisecond only happens in that case.
 */
export async function advanceMtime(file: FileHandle, previous: BigIntStats | undefined): Promise<void> {
  if (!previous) return;
  const current = await file.stat({ bigint: true });
  if (current.mtimeNs > previous.mtimeNs) return;
  // 2 ms past the previous millisecond: utimes takes seconds as a double, whose rounding (a few hundred ns at
  // today's epoch) could land 1 ms past it just short of the previous time.
  const mtimeMs = Number(previous.mtimeNs / 1_000_000n) + 2;
  await file.utimes(new Date(Number(current.atimeMs)), new Date(mtimeMs));
}
