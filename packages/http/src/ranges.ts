// Byte ranges over HTTP: the Range header, and checks of what a server answered.
import type { RangeQuery } from "@zarrkit/registry";

/** The `Range` header for a non-empty range: `bytes=a-b`, or `bytes=-n` for a suffix. */
export function rangeHeader(range: RangeQuery): string {
  return "suffixLength" in range
    ? `bytes=-${range.suffixLength}`
    : `bytes=${range.offset}-${range.offset + range.length - 1}`;
}

interface ContentRange {
  first: number;
  last: number;
  /** Undefined when the server sent "*". */
  total?: number;
}

function parseContentRange(header: string | null): ContentRange | undefined {
  const match = /^bytes (\d+)-(\d+)\/(\d+|\*)$/i.exec(header?.trim() ?? "");
  if (!match) return undefined;
  const [first, last] = [Number(match[1]), Number(match[2])];
  return first <= last ? { first, last, total: match[3] === "*" ? undefined : Number(match[3]) } : undefined;
}

/**
 * What is wrong with a 206 answer to `range` carrying `header` as its
 * Content-Range and `received` body bytes, or undefined when it is exactly
 * what was asked for (clipped at the end of the value).
 */
export function contentRangeProblem(header: string | null, range: RangeQuery, received: number): string | undefined {
  const parsed = parseContentRange(header);
  if (!parsed) return header === null ? "no Content-Range header" : `malformed Content-Range ${JSON.stringify(header)}`;
  const { first, last, total } = parsed;
  if (received !== last - first + 1)
    return `the body has ${received} bytes but Content-Range ${JSON.stringify(header)} announces ${last - first + 1}`;
  if (total !== undefined && last >= total) return `Content-Range ${JSON.stringify(header)} ends past the total size`;
  const mismatch = `Content-Range ${JSON.stringify(header)} does not match the request ${rangeHeader(range)}`;
  if ("suffixLength" in range) {
    if (total === undefined) return received <= range.suffixLength ? undefined : mismatch;
    return first === Math.max(0, total - range.suffixLength) && last === total - 1 ? undefined : mismatch;
  }
  const wantedLast = range.offset + range.length - 1;
  if (first !== range.offset || last > wantedLast) return mismatch;
  // Shorter than asked is fine only when clipped at the end of the value.
  if (last < wantedLast && total !== undefined && last !== total - 1) return mismatch;
  return undefined;
}

/** The total size a Content-Range header announces ("bytes a-b/total"), if any. */
export function contentRangeTotal(header: string | null): number | undefined {
  return parseContentRange(header)?.total;
}

/** The size from the `bytes *\/size` Content-Range of a 416 answer, if the server sent one. */
export function unsatisfiedRangeSize(header: string | null): number | undefined {
  const match = /^bytes \*\/(\d+)$/i.exec(header?.trim() ?? "");
  return match ? Number(match[1]) : undefined;
}

/**
 * What is wrong with a reply to a GET of a whole value (no Range asked), or
 * undefined when it is the complete value: a 200, or a 206 whose
 * Content-Range covers the whole value; its `received` bytes must add up to
 * the full size a Content-Range announces. A 206 with half the value (a
 * server or cache answering an unasked range) would otherwise pass for the
 * value.
 */
export function wholeValueProblem(status: number, headers: Headers, received: number): string | undefined {
  const header = headers.get("content-range");
  if (status === 206) {
    const parsed = parseContentRange(header);
    if (!parsed || parsed.total === undefined)
      return (
        "a partial answer (206) with " +
        (header === null ? "no Content-Range" : `Content-Range ${JSON.stringify(header)}`) +
        " to a request for the whole value"
      );
    if (parsed.first !== 0 || parsed.last !== parsed.total - 1 || received !== parsed.total) {
      return (
        `a partial answer (206, Content-Range ${JSON.stringify(header)}, ${received} bytes)` +
        ` to a request for the whole value of ${parsed.total} bytes`
      );
    }
    return undefined;
  }
  if (status !== 200) return `status ${status} to a request for the whole value`;
  const total = header === null ? undefined : (parseContentRange(header)?.total ?? unsatisfiedRangeSize(header));
  if (total !== undefined && total !== received)
    return `${received} bytes where Content-Range ${JSON.stringify(header)} announces ${total}`;
  return undefined;
}
