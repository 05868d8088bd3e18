// The contract every fuzz case is held to: each read ends as the same value, a
// typed error (a ZarrkitError), or, only where nothing in the chain carries a
// checksum, a different value. Anything else is a ContractViolation.
import { ZarrkitError } from "@zarrkit/registry";

export type Outcome = "same" | "typed" | "different";

export type ViolationKind = "untyped-error" | "wrong-value" | "hang" | "memory" | "crash" | "harness";

export class ContractViolation extends Error {
  constructor(
    readonly kind: ViolationKind,
    message: string,
    readonly detail: string = message,
  ) {
    super(message);
    this.name = "ContractViolation";
  }
}

/** Worst outcome first: a case with any typed error counts as typed, else any different read as different. */
export function combine(outcomes: readonly Outcome[]): Outcome {
  if (outcomes.includes("typed")) return "typed";
  if (outcomes.includes("different")) return "different";
  return "same";
}

/** Per-read time limit inside the worker (async hangs); the runner's watchdog also catches synchronous ones. */
export const READ_TIMEOUT_MS = 5_000;

export function describeError(error: unknown): string {
  if (error instanceof Error) {
    const name = error.constructor?.name ?? error.name;
    return `${name}: ${error.message}`.slice(0, 600);
  }
  return `non-Error thrown: ${String(error)}`.slice(0, 600);
}

/**
 * Runs one read and classifies it. `expected === undefined` means the value
 * cannot be predicted (it is always "different" unless it throws).
 */
export async function classify<T>(
  label: string,
  read: () => Promise<T>,
  matches: (value: T) => boolean,
  allowDifferent: boolean,
  describeValue: (value: T) => string = () => "(value)",
): Promise<Outcome> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new ContractViolation("hang", `${label}: no answer within ${READ_TIMEOUT_MS} ms`)),
      READ_TIMEOUT_MS,
    );
  });
  let value: T;
  try {
    value = await Promise.race([read(), timeout]);
  } catch (error) {
    if (error instanceof ContractViolation) throw error;
    if (error instanceof ZarrkitError) return "typed";
    const stack = error instanceof Error ? (error.stack ?? "").split("\n").slice(1, 6).join("\n") : "";
    throw new ContractViolation(
      "untyped-error",
      `${label}: ${describeError(error)}`,
      `${label}: ${describeError(error)}\n${stack}`,
    );
  } finally {
    clearTimeout(timer);
  }
  if (matches(value)) return "same";
  if (allowDifferent) return "different";
  throw new ContractViolation(
    "wrong-value",
    `${label}: a different value where the chain has a checksum: ${describeValue(value)}`,
  );
}

/** Stable signature of a violation, for grouping: numbers and hex blobs elided. */
export function signature(target: string, violation: ContractViolation): string {
  const text = violation.message
    .replace(/0x[0-9a-f]+/gi, "#")
    .replace(/\d+/g, "#")
    .replace(/"[^"]*"/g, '"…"')
    .slice(0, 160);
  return `${target} ${violation.kind} ${text}`;
}

// ---------------------------------------------------------------------------
// Small helpers shared by the targets.

/**
 * `list[index]` for an index that is in range by construction (a case's
 * bounded pick, a position modulo a length): out of range is a harness
 * error, never a silent undefined.
 */
export function itemAt<T>(list: ArrayLike<T>, index: number): T {
  const item = list[index];
  if (item === undefined) throw new RangeError(`index ${index} out of range (length ${list.length})`);
  return item;
}

/** The element `at` picks cyclically (`at` is a natural number), or undefined when `list` is empty. */
export function cyclicAt<T>(list: readonly T[], at: number): T | undefined {
  return list.length === 0 ? undefined : itemAt(list, at % list.length);
}

export const toHex = (bytes: Uint8Array): string =>
  Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("hex");
export const fromHex = (hex: string): Uint8Array => new Uint8Array(Buffer.from(hex, "hex"));

export function bytesOf(view: ArrayBufferView): Uint8Array {
  return new Uint8Array(view.buffer, view.byteOffset, view.byteLength);
}

export function sameBytes(a: ArrayBufferView, b: ArrayBufferView): boolean {
  return Buffer.compare(bytesOf(a), bytesOf(b)) === 0;
}

/** JSON for case values: bigints as strings with an n, bytes as hex. */
export function caseJson(value: unknown, limit = 20_000): string {
  const text = JSON.stringify(value, (_, v) => {
    if (typeof v === "bigint") return `${v}n`;
    if (v instanceof Uint8Array) return `hex:${toHex(v)}`;
    return v;
  });
  return text.length > limit ? `${text.slice(0, limit)}…(${text.length} chars)` : text;
}
