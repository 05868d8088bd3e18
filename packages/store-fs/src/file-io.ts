import type { FileHandle } from "node:fs/promises";

export function errorCode(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code;
}

/** The error means the path does not exist (or a parent is a file). */
export function isMissing(error: unknown): boolean {
  const code = errorCode(error);
  return code === "ENOENT" || code === "ENOTDIR";
}

/**
 * The most one read or write call asks of the OS. Node aborts the whole
 * process (`Assertion failed: args[3]->IsInt32()`) when one fs read asks for
 * 2 GiB or more, so larger transfers go in pieces of this size.
 */
export const MAX_IO_PIECE = 2 ** 30;

/**
 * Read `length` bytes at `position` with positioned reads (at most MAX_IO_PIECE each); fewer if the file ends first.
 */
export async function readAt(file: FileHandle, position: number, length: number): Promise<Uint8Array> {
  const out = new Uint8Array(length);
  const filled = await readInto(file, position, out, length);
  return filled === length ? out : out.slice(0, filled);
}

/**
 * Read up to `length` bytes at `position` into the start of `target`, returning how many were read (fewer if the file
 * ends first).
 */
export async function readInto(
  file: FileHandle,
  position: number,
  target: Uint8Array,
  length: number,
): Promise<number> {
  let filled = 0;
  while (filled < length) {
    const { bytesRead } = await file.read(target, filled, Math.min(length - filled, MAX_IO_PIECE), position + filled);
    if (bytesRead === 0) break;
    filled += bytesRead;
  }
  return filled;
}

/**
 * Write all of `bytes` at `position` (null: at the end of a file opened for appending), at most MAX_IO_PIECE per call.
 */
export async function writeAt(file: FileHandle, bytes: Uint8Array, position: number | null): Promise<void> {
  let written = 0;
  while (written < bytes.length) {
    const at = position === null ? null : position + written;
    const result = await file.write(bytes, written, Math.min(bytes.length - written, MAX_IO_PIECE), at);
    written += result.bytesWritten;
  }
}
