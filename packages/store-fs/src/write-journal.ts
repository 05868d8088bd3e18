import { constants } from "node:fs";
import type { FileHandle } from "node:fs/promises";
import { writeAt } from "./file-io.js";
import { type JournalRecord, type Journal, journalLine } from "./journal-record.js";
import { undoWrite } from "./journal-undo.js";
import type { PathGuard } from "./paths.js";

/**
 * The journal of the write in progress under one held lock, kept in the lock
 * file after its owner line (steps 8.3, 8.4 and 10 of the package README's
 * "The cross-process protocol"): until the lock is released, a crash leaves
 * it for whoever breaks the lock.
 */
export class WriteJournal {
  readonly #guard: PathGuard;
  readonly #lockPath: string;
  readonly #dataPath: string;
  readonly #key: string;
  readonly #ownerLength: number;
  /** Open only once a journal is recorded (appends and in-place writes). */
  #file: FileHandle | undefined;
  #record: JournalRecord | undefined;

  constructor(guard: PathGuard, lockPath: string, dataPath: string, key: string, ownerLength: number) {
    this.#guard = guard;
    this.#lockPath = lockPath;
    this.#dataPath = dataPath;
    this.#key = key;
    this.#ownerLength = ownerLength;
  }

  /** Record (durably) how to undo the write about to happen. */
  async record(journal: Journal, old: Uint8Array = new Uint8Array(0)): Promise<void> {
    this.#record = { journal, old };
    this.#file ??= await this.#guard.open(this.#lockPath, this.#key, constants.O_RDWR);
    const line = journalLine(journal);
    await writeAt(this.#file, line, this.#ownerLength);
    if (old.length > 0) await writeAt(this.#file, old, this.#ownerLength + line.length);
    await this.#file.datasync();
  }

  /** The recorded write failed part-way in this (living) process: undo it now, as a breaker would after a crash. */
  async undo(): Promise<void> {
    if (this.#record) await undoWrite(this.#guard, this.#dataPath, this.#key, this.#record.journal, this.#record.old);
  }

  /** Cut the lock file back to its owner line, so that a lock left behind cannot undo the finished write. */
  async forget(): Promise<void> {
    await this.#file?.truncate(this.#ownerLength);
  }

  async close(): Promise<void> {
    await this.#file?.close();
  }
}
