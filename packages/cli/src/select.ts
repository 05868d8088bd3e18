import { type Selection, type Slice, slice } from "zarrkit";
import { UsageError } from "./errors.js";

const INT = /^[+-]?\d+$/;

function integer(text: string, what: string, command: string): number {
  const t = text.trim();
  if (!INT.test(t)) throw new UsageError(`bad --select: ${what} ${JSON.stringify(text)} is not an integer`, command);
  const n = Number(t);
  if (!Number.isSafeInteger(n)) throw new UsageError(`bad --select: ${what} ${t} is too large`, command);
  return n;
}

/**
 * A numpy-style selection: comma-separated integers (negative counting from
 * the end), `start:stop:step` slices with any part omitted, and `:`; fewer
 * dimensions than the rank select all of the trailing ones.
 */
export function parseSelection(text: string, rank: number, command = "get"): Selection {
  if (text.trim() === "") return [];
  const parts = text.split(",");
  if (parts.length > rank) {
    throw new UsageError(
      `bad --select ${JSON.stringify(text)}: ${parts.length} dimensions, but the array has ${rank}`,
      command,
    );
  }
  return parts.map((part, dim): number | Slice | null => {
    const p = part.trim();
    if (p === "")
      throw new UsageError(
        `bad --select ${JSON.stringify(text)}: dimension ${dim} is empty (use ":" for all)`,
        command,
      );
    if (!p.includes(":")) return integer(p, `index of dimension ${dim}`, command);
    const bits = p.split(":");
    if (bits.length > 3)
      throw new UsageError(`bad --select: ${JSON.stringify(p)} (dimension ${dim}) has more than two colons`, command);
    const [start, stop, step] = bits.map((b, i) =>
      b.trim() === "" ? null : integer(b, `${["start", "stop", "step"][i]} of dimension ${dim}`, command),
    );
    if (step !== null && step !== undefined && step < 1) {
      throw new UsageError(`bad --select: step ${step} of dimension ${dim} must be at least 1`, command);
    }
    if (start === null && stop === null && (step ?? null) === null) return null;
    return slice(start ?? null, stop ?? null, step ?? null);
  });
}
