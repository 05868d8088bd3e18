import type { Dir } from "node:fs";
import { opendir, readdir, readlink, realpath, stat, unlink } from "node:fs/promises";
import { join, relative, sep } from "node:path";
import { systemCode } from "./write-errors.js";

/** The filesystem store's names for whole-value writes in flight (a temporary file, then a rename over the key). */
const TEMP_PREFIX = ".zarrkit-tmp.";

/**
 * How long before a run a temporary file must have last changed to be
 * removed. A live writer changes its temporary file with every write until
 * it renames it, so one unchanged this long is only waiting on its final
 * fsync; a file abandoned by a kill never changes again.
 */
export const SWEEP_AGE_MS = 60_000;

const UNLISTABLE = new Set(["ENOENT", "ENOTDIR", "EACCES", "EPERM"]);

/** What a sweep found: the temporary files removed and those kept, with why (paths relative to the root). */
export interface SweepReport {
  /** The temporary files removed. */
  removed: string[];
  /** The temporary files kept, each with why. */
  kept: {
    /** The file's path relative to the root. */
    key: string;
    /** Why it was kept. */
    reason: string;
  }[];
}

/**
 * Remove the temporary files that interrupted writes (a `kill -9`, a crash,
 * a lost machine) left under `root`, and only those. A temporary file is
 * removed when both hold:
 * - age: it last changed at least `SWEEP_AGE_MS` before `runStart`, so
 *   nothing written during this run, nor lately by a writer still running
 *   (here or on another machine sharing the directory), is touched;
 * - ownership: no process on this machine holds it open (on Linux, from
 *   /proc/<pid>/fd), so a writer that is stopped (Ctrl-Z) or stuck keeps it.
 * Everything else is kept and reported, as are files that could not be
 * removed (a read-only destination).
 */
export async function sweepTemporaryFiles(root: string, runStart: number): Promise<SweepReport> {
  const report: SweepReport = { removed: [], kept: [] };
  const found = await temporaryFiles(root);
  const base = await realpath(root).catch(() => root);
  if (found.length === 0) return report;
  const open = await openFiles();
  for (const path of found) {
    const key = relative(base, path).split(sep).join("/");
    let mtimeMs: number;
    try {
      mtimeMs = (await stat(path)).mtimeMs;
    } catch {
      continue; // renamed by its writer, or removed by another sweep, since the listing
    }
    const idle = runStart - mtimeMs;
    const holder = open.get(path);
    let reason: string | undefined;
    if (idle < SWEEP_AGE_MS) {
      const ago = seconds(Math.max(0, Date.now() - mtimeMs));
      reason = `changed ${ago} ago: a write in flight, or left too recently to tell`;
    } else if (holder !== undefined) {
      reason = `open by process ${holder}: a write in flight`;
    }
    if (reason === undefined) {
      try {
        await unlink(path);
        report.removed.push(key);
        continue;
      } catch (error) {
        if (systemCode(error) === "ENOENT") continue;
        reason = `left by an interrupted write, but could not be removed (${systemCode(error) ?? String(error)})`;
      }
    }
    report.kept.push({ key, reason });
  }
  report.removed.sort();
  report.kept.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return report;
}

/**
 * Every temporary file under `root` (none when it does not exist), walking
 * one directory at a time: a destination of a million shards is never held
 * in memory as a listing, only the temporary files found.
 */
async function temporaryFiles(root: string): Promise<string[]> {
  let start: string;
  try {
    start = await realpath(root); // the real path: /proc names open files by theirs
  } catch (error) {
    if (UNLISTABLE.has(systemCode(error) ?? "")) return [];
    throw error;
  }
  const found: string[] = [];
  const pending = [start];
  for (let dir = pending.pop(); dir !== undefined; dir = pending.pop()) {
    let handle: Dir;
    try {
      handle = await opendir(dir);
    } catch (error) {
      // Removed since it was listed, or not ours to list: what cannot be listed cannot be swept.
      if (UNLISTABLE.has(systemCode(error) ?? "")) continue;
      throw error;
    }
    for await (const entry of handle) {
      if (entry.isDirectory()) pending.push(join(dir, entry.name));
      else if (entry.isFile() && entry.name.startsWith(TEMP_PREFIX)) found.push(join(dir, entry.name));
    }
  }
  return found;
}

/**
 * The files open in processes of this machine that we may look at, by path,
 * with one process holding each (empty where /proc does not exist).
 */
async function openFiles(): Promise<Map<string, number>> {
  const open = new Map<string, number>();
  let pids: string[];
  try {
    pids = (await readdir("/proc")).filter((name) => /^\d+$/.test(name));
  } catch {
    return open;
  }
  for (const pid of pids) {
    let fds: string[];
    try {
      fds = await readdir(`/proc/${pid}/fd`);
    } catch {
      continue; // another user's process, or one that ended
    }
    for (const fd of fds) {
      try {
        const target = await readlink(`/proc/${pid}/fd/${fd}`);
        if (target.includes(TEMP_PREFIX)) open.set(target, Number(pid));
      } catch {
        // closed meanwhile
      }
    }
  }
  return open;
}

function seconds(ms: number): string {
  return `${Math.round(ms / 1000)} s`;
}
