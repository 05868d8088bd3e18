import { createHash } from "node:crypto";

/*
 * The record format of the write journal: what follows the owner line in a
 * lock file (the files of the package README's "The cross-process protocol";
 * written in its step 8.3, read in 7.4).
 */

/**
 * The write in progress under a lock, enough to undo it, and to tell a write
 * that completed (its bytes all in place: kept, as a reader may have seen
 * them) from one torn part-way (undone). `written`: the SHA-256 (hex) of the
 * new bytes; `added`: how many bytes an append adds.
 */
export type Journal =
  | { op: "append"; ino?: string; size: number; created: boolean; added?: number; written?: string }
  | { op: "setRange"; ino: string; offset: number; length: number; written?: string };

/** A journal with the bytes its write overwrites (setRange; empty for appends). */
export interface JournalRecord {
  journal: Journal;
  old: Uint8Array;
}

/** The fingerprint journaled for a write's new bytes. */
export function fingerprint(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}

/** The journal line as written after the owner line, newline included. */
export function journalLine(journal: Journal): Buffer {
  return Buffer.from(`${JSON.stringify(journal)}\n`);
}

function isJournal(value: unknown): value is Journal {
  const j = value as Journal;
  if (typeof j !== "object" || j === null) return false;
  const count = (n: unknown) => Number.isSafeInteger(n) && (n as number) >= 0;
  const written = j.written === undefined || typeof j.written === "string";
  if (j.op === "append") {
    return (
      count(j.size) &&
      typeof j.created === "boolean" &&
      (j.ino === undefined || typeof j.ino === "string") &&
      (j.added === undefined || count(j.added)) &&
      written
    );
  }
  return j.op === "setRange" && typeof j.ino === "string" && count(j.offset) && count(j.length) && written;
}

/**
 * The journal in a lock file's whole content, with the old bytes, when it was
 * written completely; undefined otherwise, which means the value was never touched.
 */
export function parseJournal(content: Buffer): JournalRecord | undefined {
  const ownerEnd = content.indexOf(10);
  const journalEnd = ownerEnd < 0 ? -1 : content.indexOf(10, ownerEnd + 1);
  if (journalEnd < 0) return undefined;
  let journal: unknown;
  try {
    journal = JSON.parse(content.subarray(ownerEnd + 1, journalEnd).toString("utf8"));
  } catch {
    return undefined;
  }
  if (!isJournal(journal)) return undefined;
  const old = content.subarray(journalEnd + 1);
  if (journal.op === "setRange" ? old.length !== journal.length : old.length !== 0) return undefined;
  return { journal, old };
}
