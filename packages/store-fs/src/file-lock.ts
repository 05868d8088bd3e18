import { createHash, randomBytes } from "node:crypto";
import { type BigIntStats, closeSync, constants, readFileSync, readlinkSync, unlinkSync, writeSync } from "node:fs";
import { type FileHandle, lutimes, readFile, unlink } from "node:fs/promises";
import { hostname } from "node:os";
import { basename, dirname, join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { StoreError } from "@zarrkit/registry";
import { errorCode, isMissing, readAt, writeAt } from "./file-io.js";
import { BREAK_PREFIX, LOCK_PREFIX } from "./keys.js";
import type { PathGuard } from "./paths.js";
import { advanceMtime } from "./version.js";

/*
 * The cross-process lock of one key, a file next to the value:
 *
 *   <dir>/.zarrkit-lock.<name>    line 1: the owner, JSON {pid, host, machine, start, nonce, time, op}
 *                                 line 2: the journal of the write in progress, JSON (append, setRange)
 *                                 then:   the bytes a setRange is overwriting
 *
 * It is created with O_EXCL (failing with EEXIST while the lock is held) and
 * its owner line written at once, synchronously: a waiter may see it empty
 * for a few microseconds, and judges an empty lock by the age rule below, so
 * a holder that died in between costs waiters staleLockMs once.
 *
 * A lock is STALE when
 *   - its owner ran on this machine (same hostname, boot and pid namespace)
 *     and that process is gone: kill(pid, 0) fails with ESRCH, or the pid now
 *     belongs to a process that started at another time. Judged at once.
 *   - otherwise (another machine, or an owner line that cannot be read): the
 *     lock stayed unchanged (inode, size, mtime) for `staleLockMs` as seen by
 *     the waiter's own clock. A holder refreshes its lock's mtime every
 *     staleLockMs / 4, so clocks need not agree between machines.
 *
 * Breaking a stale lock: take the break lock `.zarrkit-break.<name>` (O_EXCL;
 * only breakers take it), check under it that the lock is still the very file
 * judged stale (same inode, mtime and owner line), undo the write its journal
 * describes, unlink the lock, release the break lock. A break lock goes stale
 * like a lock (dead process on this machine) or after BREAK_STALE_MS unchanged.
 */

/** How long a break lock of another machine must stay unchanged before it is stale: breaking takes milliseconds. */
const BREAK_STALE_MS = 5000;
const HEARTBEAT_MIN_MS = 50;

interface Owner {
  pid: number;
  host: string;
  /** Boot id and pid namespace: pids can only be checked when they are equal. Empty when unknown. */
  machine: string;
  /** Start time of the process (clock ticks since boot), telling a reused pid apart. Empty when unknown. */
  start: string;
  nonce: string;
  time: number;
  op: string;
}

/**
 * The write in progress under a lock, enough to undo it, and to tell a write
 * that completed (its bytes all in place: kept, as a reader may have seen
 * them) from one torn part-way (undone). `written`: the SHA-256 (hex) of the
 * new bytes; `added`: how many bytes an append adds.
 */
export type Journal =
  | { op: "append"; ino?: string; size: number; created: boolean; added?: number; written?: string }
  | { op: "setRange"; ino: string; offset: number; length: number; written?: string };

/** The fingerprint journaled for a write's new bytes. */
export function fingerprint(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}

function procText(path: string, read: (path: string) => string): string {
  try {
    return read(path).trim();
  } catch {
    return "";
  }
}

/** Clock ticks since boot at which process `pid` started (field 22 of /proc/<pid>/stat), or "" when unknown. */
function startOf(stat: string): string {
  // The command name (field 2) is in parentheses and may hold spaces: count fields after the last ")".
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return fields[19] ?? "";
}

/** This process's host, machine and start time, as lock owner lines record them. */
export const me = (() => {
  const boot = procText("/proc/sys/kernel/random/boot_id", (p) => readFileSync(p, "utf8"));
  const pidNamespace = procText("/proc/self/ns/pid", readlinkSync);
  return {
    host: hostname(),
    machine: boot && pidNamespace ? `${boot}/${pidNamespace}` : "",
    start: startOf(procText("/proc/self/stat", (p) => readFileSync(p, "utf8"))),
  };
})();

function isOwner(value: unknown): value is Owner {
  const o = value as Owner;
  return (
    typeof o === "object" &&
    o !== null &&
    Number.isSafeInteger(o.pid) &&
    typeof o.host === "string" &&
    typeof o.machine === "string" &&
    typeof o.start === "string" &&
    typeof o.nonce === "string"
  );
}

function isJournal(value: unknown): value is Journal {
  const j = value as Journal;
  if (typeof j !== "object" || j === null) return false;
  const count = (n: unknown) => Number.isSafeInteger(n) && (n as number) >= 0;
  const written = j.written === undefined || typeof j.written === "string";
  if (j.op === "append") {
    return count(j.size) && typeof j.created === "boolean" && (j.ino === undefined || typeof j.ino === "string") && (j.added === undefined || count(j.added)) && written;
  }
  return j.op === "setRange" && typeof j.ino === "string" && count(j.offset) && count(j.length) && written;
}

/** A file name for `prefix + name`, hashed when too long for one path segment. */
function reservedName(prefix: string, name: string): string {
  const full = prefix + name;
  return Buffer.byteLength(full) <= 255 ? full : prefix + createHash("sha256").update(name).digest("hex");
}

export function lockPathOf(path: string): string {
  return join(dirname(path), reservedName(LOCK_PREFIX, basename(path)));
}

function breakPathOf(path: string): string {
  return join(dirname(path), reservedName(BREAK_PREFIX, basename(path)));
}

/** A lock or break lock as a waiter saw it. */
interface Seen {
  stats: BigIntStats;
  /** The first bytes (the owner line), or the whole file when asked for. */
  content: Buffer;
  owner?: Owner;
}

function parseOwner(content: Buffer): Owner | undefined {
  const end = content.indexOf(10);
  if (end < 0) return undefined;
  try {
    const owner: unknown = JSON.parse(content.subarray(0, end).toString("utf8"));
    return isOwner(owner) ? owner : undefined;
  } catch {
    return undefined;
  }
}

/** The journal in a lock file's content, with the old bytes, when it was written completely (else the data was never touched). */
export function parseJournal(content: Buffer): { journal: Journal; old: Uint8Array } | undefined {
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

async function inspect(guard: PathGuard, path: string, key: string, whole = false): Promise<Seen | undefined> {
  let file: FileHandle;
  try {
    file = await guard.open(path, key, constants.O_RDONLY);
  } catch (error) {
    if (isMissing(error)) return undefined;
    throw error;
  }
  try {
    const stats = await file.stat({ bigint: true });
    const content = Buffer.from(await readAt(file, 0, whole ? Number(stats.size) : Math.min(Number(stats.size), 4096)));
    return { stats, content, owner: parseOwner(content) };
  } finally {
    await file.close().catch(() => {});
  }
}

/** Is it still the very lock file that was judged (same inode, mtime and owner line)? */
function sameLock(a: Seen, b: Seen): boolean {
  if (a.stats.ino !== b.stats.ino || a.stats.dev !== b.stats.dev || a.stats.mtimeNs !== b.stats.mtimeNs) return false;
  const n = Math.min(a.content.length, b.content.length, 4096);
  return a.content.subarray(0, n).equals(b.content.subarray(0, n)) && (a.owner?.nonce ?? "") === (b.owner?.nonce ?? "");
}

async function processGone(owner: Owner): Promise<boolean> {
  try {
    process.kill(owner.pid, 0);
  } catch (error) {
    if (errorCode(error) === "ESRCH") return true; // EPERM: it exists, run by another user
  }
  if (owner.start === "" || me.start === "") return false;
  const now = startOf(await readFile(`/proc/${owner.pid}/stat`, "utf8").catch(() => ""));
  return now !== "" && now !== owner.start; // the pid was reused by a later process
}

/** Judges one lock name over the polls of one waiter. */
class StaleRule {
  #id = "";
  #since = 0;

  async isStale(seen: Seen, unchangedMs: number): Promise<boolean> {
    const owner = seen.owner;
    if (owner && owner.host === me.host && owner.machine !== "" && owner.machine === me.machine) return processGone(owner);
    const id = `${seen.stats.ino}:${seen.stats.size}:${seen.stats.mtimeNs}:${owner?.nonce ?? ""}`;
    if (id !== this.#id) {
      this.#id = id;
      this.#since = performance.now();
      return false;
    }
    return performance.now() - this.#since >= unchangedMs;
  }
}

export interface LockSettings {
  /** Age (unchanged, by the waiter's clock) after which a lock of another machine, or an unreadable one, is stale. */
  staleLockMs: number;
}

export interface Acquired {
  lock: HeldLock;
  /** Another holder had the lock first. */
  waited: boolean;
  /** A stale lock's torn write was undone on the way in. */
  undid: boolean;
}

/** The held lock of one key. Release it exactly once. */
export class HeldLock {
  readonly path: string;
  readonly #guard: PathGuard;
  readonly #key: string;
  readonly #ownerLength: number;
  readonly #heartbeat: NodeJS.Timeout;
  /** Open only once a journal is written (appends and in-place writes). */
  #file: FileHandle | undefined;
  #journal: { journal: Journal; old: Uint8Array } | undefined;

  constructor(path: string, guard: PathGuard, key: string, ownerLength: number, staleLockMs: number) {
    this.path = path;
    this.#guard = guard;
    this.#key = key;
    this.#ownerLength = ownerLength;
    // Waiters on other machines judge the lock by whether it changes: show that the holder lives.
    this.#heartbeat = setInterval(
      () => {
        const now = new Date();
        lutimes(this.path, now, now).catch(() => {});
      },
      Math.max(HEARTBEAT_MIN_MS, staleLockMs / 4),
    );
    this.#heartbeat.unref();
  }

  /** Record (durably) how to undo the write about to happen; until release, a crash leaves it for the next holder. */
  async journal(journal: Journal, old: Uint8Array = new Uint8Array(0)): Promise<void> {
    this.#journal = { journal, old };
    this.#file ??= await this.#guard.open(this.path, this.#key, constants.O_RDWR);
    const line = Buffer.from(`${JSON.stringify(journal)}\n`);
    await writeAt(this.#file, line, this.#ownerLength);
    if (old.length > 0) await writeAt(this.#file, old, this.#ownerLength + line.length);
    await this.#file.datasync();
  }

  /** The journaled write failed part-way in this (living) process: undo it now, as a breaker would after a crash. */
  async undo(guard: PathGuard, dataPath: string, key: string): Promise<void> {
    if (this.#journal) await undoWrite(guard, dataPath, key, this.#journal.journal, this.#journal.old);
  }

  /** Drop the lock (and with it the journal: the write is complete or undone). */
  async release(key: string): Promise<void> {
    clearInterval(this.#heartbeat);
    try {
      unlinkSync(this.path);
    } catch (error) {
      // Keep a finished write from being undone by whoever finds the lock later.
      if (this.#file) await this.#file.truncate(this.#ownerLength).catch(() => {});
      throw new StoreError(`Could not release the lock of ${JSON.stringify(key)} (${this.path}): ${String(error)}.`, { key, cause: error });
    } finally {
      await this.#file?.close().catch(() => {});
    }
  }
}

function ownerLine(op: string): Buffer {
  const owner: Owner = { pid: process.pid, ...me, nonce: randomBytes(12).toString("hex"), time: Date.now(), op };
  return Buffer.from(`${JSON.stringify(owner)}\n`);
}

const CREATE = constants.O_CREAT | constants.O_EXCL | constants.O_RDWR;

/**
 * Take the cross-process lock of the value at `path` (its directory must
 * exist), waiting for a live holder (polling with backoff, up to 64 ms apart)
 * and breaking a stale one, whose torn write is undone first.
 */
export async function acquireLock(guard: PathGuard, path: string, key: string, op: string, settings: LockSettings, signal?: AbortSignal): Promise<Acquired> {
  const lockPath = lockPathOf(path);
  const owner = ownerLine(op);
  const rule = new StaleRule();
  const breakRule = new StaleRule();
  let waited = false;
  let undid = false;
  let delay = 1;
  for (;;) {
    signal?.throwIfAborted();
    if (createLock(guard, lockPath, key, owner)) break;
    waited = true;
    const seen = await inspect(guard, lockPath, key);
    if (seen === undefined) continue; // released since
    if (await rule.isStale(seen, settings.staleLockMs)) {
      const broke = await breakLock(guard, path, key, seen, breakRule);
      if (broke !== undefined) {
        undid ||= broke;
        continue;
      }
    }
    await sleep(delay * (0.5 + Math.random()), undefined, { signal }).catch(() => signal?.throwIfAborted());
    delay = Math.min(delay * 2, 64);
  }
  return { lock: new HeldLock(lockPath, guard, key, owner.length, settings.staleLockMs), waited, undid };
}

/**
 * Create the lock file with its owner line, or return false while someone
 * holds it. Synchronous: on a local disk these are microseconds, where a trip
 * to Node's I/O threads costs tens per call (every `set` takes a lock).
 */
function createLock(guard: PathGuard, lockPath: string, key: string, owner: Buffer): boolean {
  let fd: number;
  try {
    fd = guard.openSync(lockPath, key, CREATE, 0o644);
  } catch (error) {
    if (errorCode(error) === "EEXIST") return false;
    throw error;
  }
  try {
    writeSync(fd, owner, 0, owner.length, 0);
  } catch (error) {
    try {
      unlinkSync(lockPath);
    } catch {
      // Left empty: the age rule breaks it.
    }
    throw error;
  } finally {
    closeSync(fd);
  }
  return true;
}

/**
 * Break the stale lock `seen` of the value at `path`: returns whether a torn
 * write was undone, or undefined when another breaker is at work (try later).
 */
async function breakLock(guard: PathGuard, path: string, key: string, seen: Seen, breakRule: StaleRule): Promise<boolean | undefined> {
  const breakPath = breakPathOf(path);
  const lockPath = lockPathOf(path);
  let file: FileHandle;
  try {
    file = await guard.open(breakPath, key, CREATE, 0o644);
  } catch (error) {
    if (errorCode(error) !== "EEXIST") throw error;
    const other = await inspect(guard, breakPath, key);
    if (other && (await breakRule.isStale(other, BREAK_STALE_MS))) {
      const again = await inspect(guard, breakPath, key);
      if (again && sameLock(again, other)) await unlink(breakPath).catch(() => {});
    }
    return undefined;
  }
  try {
    await writeAt(file, ownerLine("break"), 0);
    const current = await inspect(guard, lockPath, key, true);
    if (current === undefined || !sameLock(current, seen)) return false; // released or taken anew meanwhile
    const torn = parseJournal(current.content);
    const undid = torn ? await undoWrite(guard, path, key, torn.journal, torn.old) : false;
    await unlink(lockPath).catch((error: unknown) => (isMissing(error) ? undefined : Promise.reject(error)));
    return undid;
  } finally {
    await file.close().catch(() => {});
    await unlink(breakPath).catch(() => {});
  }
}

/**
 * Put the value back as it was before the journaled write (idempotent: a
 * crash while undoing leaves the journal for the next one), unless the write
 * completed: then its bytes stay, since a reader may already have seen them.
 * Returns whether the value was changed back.
 */
export async function undoWrite(guard: PathGuard, path: string, key: string, journal: Journal, old: Uint8Array): Promise<boolean> {
  if (journal.op === "append" && journal.created) {
    // The append created the value: undoing it removes the value.
    const stats = await guard.checkEntry(path, key);
    if (!stats?.isFile()) return false;
    if (await completed(guard, path, key, journal, Number(stats.size))) return false;
    await unlink(path);
    return true;
  }
  let file: FileHandle;
  try {
    file = await guard.open(path, key, constants.O_RDWR);
  } catch (error) {
    if (isMissing(error) || errorCode(error) === "EISDIR") return false;
    throw error;
  }
  try {
    const stats = await file.stat({ bigint: true });
    if (!stats.isFile() || (journal.ino !== undefined && stats.ino.toString() !== journal.ino)) return false; // replaced since
    if (await completedIn(file, journal, Number(stats.size))) return false;
    if (journal.op === "append") {
      if (stats.size <= BigInt(journal.size)) return false;
      await file.truncate(journal.size);
    } else {
      if (stats.size < BigInt(journal.offset + journal.length)) return false;
      await writeAt(file, old, journal.offset);
    }
    await advanceMtime(file, stats); // a new version: a reader may hold the torn value's
    await file.sync();
    return true;
  } finally {
    await file.close().catch(() => {});
  }
}

/** Whether the journaled write's new bytes are all in place in the file at `path`. */
async function completed(guard: PathGuard, path: string, key: string, journal: Journal, size: number): Promise<boolean> {
  if (journal.written === undefined) return false;
  const file = await guard.open(path, key, constants.O_RDONLY);
  try {
    return await completedIn(file, journal, size);
  } finally {
    await file.close().catch(() => {});
  }
}

/** Whether the journaled write's new bytes are all in place in `file` (of `size` bytes); never for journals without a fingerprint. */
async function completedIn(file: FileHandle, journal: Journal, size: number): Promise<boolean> {
  if (journal.written === undefined) return false;
  const [offset, length] = journal.op === "append" ? [journal.size, journal.added] : [journal.offset, journal.length];
  if (length === undefined || (journal.op === "append" ? size !== offset + length : size < offset + length)) return false;
  return fingerprint(await readAt(file, offset, length)) === journal.written;
}
