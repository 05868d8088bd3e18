import { readFileSync, readlinkSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { hostname } from "node:os";
import { errorCode } from "./file-io.js";

/*
 * Who a process is, as far as lock owners are concerned: enough to tell, from
 * another process, whether the holder of a lock still runs (step 6.1 of the
 * package README's "The cross-process protocol").
 */

/** A process as a lock's owner line records it. */
export interface ProcessIdentity {
  host: string;
  /** Boot id and pid namespace: pids can only be checked when they are equal. Empty when unknown. */
  machine: string;
  /** Start time of the process (clock ticks since boot), telling a reused pid apart. Empty when unknown. */
  start: string;
}

function procText(path: string, read: (path: string) => string): string {
  try {
    return read(path).trim();
  } catch {
    return "";
  }
}

/** The start time in the text of /proc/<pid>/stat (field 22, clock ticks since boot), or "" when unknown. */
function startOf(stat: string): string {
  // The command name (field 2) is in parentheses and may hold spaces: count fields after the last ")".
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return fields[19] ?? "";
}

let self: ProcessIdentity | undefined;

/**
 * This process's identity. Read on first use, not at import: importing the
 * store costs no file reads, and a process that never writes never reads /proc.
 */
export function thisProcess(): ProcessIdentity {
  if (self === undefined) {
    const boot = procText("/proc/sys/kernel/random/boot_id", (p) => readFileSync(p, "utf8"));
    const pidNamespace = procText("/proc/self/ns/pid", readlinkSync);
    self = {
      host: hostname(),
      machine: boot && pidNamespace ? `${boot}/${pidNamespace}` : "",
      start: startOf(procText("/proc/self/stat", (p) => readFileSync(p, "utf8"))),
    };
  }
  return self;
}

/** Whether `other` ran on this machine (same host, boot and pid namespace), so that its pid can be checked here. */
export function onThisMachine(other: ProcessIdentity): boolean {
  const me = thisProcess();
  return other.host === me.host && other.machine !== "" && other.machine === me.machine;
}

/** Whether process `pid` of this machine, started at `start` ("" when unknown), is gone. */
export async function processGone(pid: number, start: string): Promise<boolean> {
  try {
    process.kill(pid, 0);
  } catch (error) {
    if (errorCode(error) === "ESRCH") return true; // EPERM: it exists, run by another user
  }
  if (start === "" || thisProcess().start === "") return false;
  const now = startOf(await readFile(`/proc/${pid}/stat`, "utf8").catch(() => ""));
  return now !== "" && now !== start; // the pid was reused by a later process
}
