/** A window of a stored value: `length` bytes starting at `offset`. */
export interface ByteRange {
  /** First byte. */
  offset: number;
  /** Bytes. */
  length: number;
}

/** One request's worth of byte ranges: the window to read and the ranges it serves. */
export interface RangeGroup<T extends ByteRange> extends ByteRange {
  /** The ranges this request serves, in offset order. */
  members: T[];
}

/**
 * Merge byte ranges into as few requests as possible: sorted by offset,
 * neighbours at most `coalesceGapBytes` apart share one request, as one more round
 * trip costs more than a few unused bytes. A group grows past `maxRequest`
 * bytes only by a range that overlaps it or is that large on its own (one
 * read must stay allocatable).
 */
export function coalesceRanges<T extends ByteRange>(
  ranges: readonly T[],
  coalesceGapBytes: number,
  maxRequest = Number.POSITIVE_INFINITY,
): RangeGroup<T>[] {
  const sorted = [...ranges].sort((a, b) => a.offset - b.offset);
  const groups: RangeGroup<T>[] = [];
  let current: RangeGroup<T> | undefined;
  for (const range of sorted) {
    const end = range.offset + range.length;
    if (current) {
      const currentEnd = current.offset + current.length;
      if (range.offset - currentEnd <= coalesceGapBytes && (end - current.offset <= maxRequest || end <= currentEnd)) {
        current.length = Math.max(currentEnd, end) - current.offset;
        current.members.push(range);
        continue;
      }
    }
    current = { offset: range.offset, length: range.length, members: [range] };
    groups.push(current);
  }
  return groups;
}
