/** A satisfiable byte range of a value of known size: [start, end). */
export interface ByteRange {
  start: number;
  end: number;
}

/**
 * The range a `Range` header asks for (`bytes=a-b`, `bytes=a-`, `bytes=-n`;
 * one range only, as the stores send), undefined for the whole value, or
 * "unsatisfiable".
 */
export function parseRange(header: string | undefined, size: number): ByteRange | undefined | "unsatisfiable" {
  if (header === undefined) return undefined;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match || (match[1] === "" && match[2] === "")) return "unsatisfiable";
  if (match[1] === "") {
    const suffix = Number(match[2]);
    return suffix === 0 ? "unsatisfiable" : { start: Math.max(0, size - suffix), end: size };
  }
  const start = Number(match[1]);
  const last = match[2] === "" ? size - 1 : Math.min(Number(match[2]), size - 1);
  return start >= size || last < start ? "unsatisfiable" : { start, end: last + 1 };
}
