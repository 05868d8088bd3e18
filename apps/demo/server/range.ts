/**
 * The byte range [start, end] (inclusive) a `Range` header asks of a file of
 * `size` bytes; undefined for a header this server ignores (multiple ranges,
 * other units: the whole file is sent, as HTTP allows); "unsatisfiable" for a
 * range starting past the end.
 */
export function parseRange(header: string, size: number): [number, number] | "unsatisfiable" | undefined {
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match || (match[1] === "" && match[2] === "")) return undefined;
  if (match[1] === "") {
    const suffix = Number(match[2]);
    if (suffix === 0) return "unsatisfiable";
    return [Math.max(0, size - suffix), size - 1];
  }
  const start = Number(match[1]);
  const end = match[2] === "" ? size - 1 : Math.min(Number(match[2]), size - 1);
  if (start >= size) return "unsatisfiable";
  if (end < start) return undefined;
  return [start, end];
}
