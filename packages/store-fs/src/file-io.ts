import { readSync } from "node:fs";
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

/** `readInto` with synchronous reads of the descriptor `fd`, for threads that may block (codec workers). */
export function readIntoSync(fd: number, position: number, target: Uint8Array): number {
  let filled = 0;
  while (filled < target.length) {
    const read = readSync(fd, target, filled, Math.min(target.length - filled, MAX_IO_PIECE), position + filled);
    if (read === 0) break;
    filled += read;
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

/** Buffers one vectored write takes at most (Linux's IOV_MAX). */
const MAX_IO_VECTORS = 1024;

/**
 * Write the concatenation of `parts` at `position` with vectored writes (at most MAX_IO_VECTORS buffers and
 * MAX_IO_PIECE bytes per call), going on where a call wrote less.
 */
export async function writePartsAt(file: FileHandle, parts: readonly Uint8Array[], position: number): Promise<void> {
  let index = 0; // the first part not yet written whole ...
  let offset = 0; // ... and how much of it is
  let at = position;
  while (index < parts.length) {
    const batch: Uint8Array[] = [];
    let bytes = 0;
    for (let i = index; i < parts.length && batch.length < MAX_IO_VECTORS; i++) {
      const piece = i === index ? parts[i]!.subarray(offset) : parts[i]!;
      if (batch.length > 0 && bytes + piece.length > MAX_IO_PIECE) break;
      batch.push(piece.subarray(0, MAX_IO_PIECE));
      bytes += Math.min(piece.length, MAX_IO_PIECE);
    }
    let { bytesWritten } = await file.writev(batch, at);
    if (bytesWritten === 0 && bytes > 0) throw Object.assign(new Error("writev wrote no bytes"), { code: "EIO" });
    at += bytesWritten;
    while (index < parts.length && bytesWritten >= parts[index]!.length - offset) {
      bytesWritten -= parts[index]!.length - offset;
      index++;
      offset = 0;
    }
    offset += bytesWritten;
  }
}
