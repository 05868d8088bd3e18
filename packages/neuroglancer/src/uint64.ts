import { InvalidSelectionError } from "@zarrkit/registry";

export const UINT64_MAX = (1n << 64n) - 1n;

/** Wrapping uint64 addition: the format's delta sums are defined modulo 2^64. */
export function addU64(a: bigint, b: bigint): bigint {
  return BigInt.asUintN(64, a + b);
}

/** Reject ids that are not uint64 values, naming what they were meant to be. */
export function checkU64(value: bigint, what: string): bigint {
  if (typeof value !== "bigint" || value < 0n || value > UINT64_MAX) {
    throw new InvalidSelectionError(`${what} must be a uint64 bigint, got ${String(value)}`);
  }
  return value;
}

export function compareU64(a: bigint, b: bigint): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
