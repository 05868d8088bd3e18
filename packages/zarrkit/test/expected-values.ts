import type * as zk from "../src/node.js";

/** The fixtures' expected JSON encoding: 64-bit integers as decimal strings, non-finite floats as strings. */
export function normalize(value: unknown): unknown {
  if (typeof value === "bigint") return value.toString();
  if (typeof value === "number") {
    if (Number.isNaN(value)) return "NaN";
    if (!Number.isFinite(value)) return value > 0 ? "Infinity" : "-Infinity";
    return value;
  }
  return value;
}

/** Array data as the fixtures' expected.json files write it. */
export function asExpected(data: zk.ArrayData, dataType: string): unknown[] {
  if (dataType === "bool") return Array.from(data as Uint8Array, (v) => v === 1);
  return Array.from(data as ArrayLike<unknown>, normalize);
}
