import { execFileSync } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ArrayData } from "@zarrkit/core";

/** A fresh temporary directory and how to remove it. */
export async function tempDir(): Promise<{ path: string; remove: () => Promise<void> }> {
  const path = await mkdtemp(join(tmpdir(), "zarrkit-zip-"));
  return { path, remove: () => rm(path, { recursive: true, force: true }) };
}

/** Run Debian's Python 3 (zipfile, zarr-python 2.13) on a script, returning its standard output. */
export function python(script: string, args: readonly string[] = []): string {
  return execFileSync("/usr/bin/python3", ["-c", script, ...args], { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
}

/** Run a Python file of this test folder. */
export function pythonFile(file: string, args: readonly string[]): string {
  return execFileSync("/usr/bin/python3", [new URL(file, import.meta.url).pathname, ...args], { encoding: "utf8" });
}

/** Array data as the fixtures' expected.json files write it (64-bit integers as strings, non-finite floats named). */
export function asExpected(data: ArrayData, dataType: string): unknown[] {
  if (dataType === "bool") return Array.from(data as Uint8Array, (v) => v === 1);
  return Array.from(data as ArrayLike<unknown>, normalize);
}

export function normalize(value: unknown): unknown {
  if (typeof value === "bigint") return value.toString();
  if (typeof value === "number" && !Number.isFinite(value))
    return Number.isNaN(value) ? "NaN" : value > 0 ? "Infinity" : "-Infinity";
  return value;
}
