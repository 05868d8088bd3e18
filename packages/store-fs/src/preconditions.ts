import type { BigIntStats } from "node:fs";
import { PreconditionFailedError, type SetOptions } from "@zarrkit/registry";
import { versionOf } from "./version.js";

/** The error of a conditional operation on a value that is missing or at another version than `expected`. */
export function versionMismatch(key: string, exists: boolean, expected: string): PreconditionFailedError {
  const state = exists ? "at another version" : "missing";
  return new PreconditionFailedError(`${JSON.stringify(key)} is ${state}; expected version ${expected}.`, { key });
}

/** Check `ifNoneMatch` / `ifMatch` against the value's current state (its stats, or undefined when missing). */
export function checkPreconditions(key: string, current: BigIntStats | undefined, options: SetOptions): void {
  if (options.ifNoneMatch === "*" && current) {
    throw new PreconditionFailedError(`${JSON.stringify(key)} already exists.`, { key });
  }
  if (options.ifMatch !== undefined && (!current || versionOf(current) !== options.ifMatch)) {
    throw versionMismatch(key, current !== undefined, options.ifMatch);
  }
}
