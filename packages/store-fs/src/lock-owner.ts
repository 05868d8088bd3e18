import { randomBytes } from "node:crypto";
import { type ProcessIdentity, thisProcess } from "./process-identity.js";

/** Line 1 of a lock or break lock: who holds it (the files of the package README's "The cross-process protocol"). */
export interface LockOwner extends ProcessIdentity {
  pid: number;
  /** Random: tells two holdings of one lock name apart, whatever else they share. */
  nonce: string;
  time: number;
  op: string;
}

function isOwner(value: unknown): value is LockOwner {
  const o = value as LockOwner;
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

/** A fresh owner line of this process for operation `op`, newline included. */
export function ownerLine(op: string): Buffer {
  const owner: LockOwner = {
    pid: process.pid,
    ...thisProcess(),
    nonce: randomBytes(12).toString("hex"),
    time: Date.now(),
    op,
  };
  return Buffer.from(`${JSON.stringify(owner)}\n`);
}

/** The owner in a lock file's first bytes, or undefined when its line is incomplete or not an owner. */
export function parseOwner(content: Buffer): LockOwner | undefined {
  const end = content.indexOf(10);
  if (end < 0) return undefined;
  try {
    const owner: unknown = JSON.parse(content.subarray(0, end).toString("utf8"));
    return isOwner(owner) ? owner : undefined;
  } catch {
    return undefined;
  }
}
