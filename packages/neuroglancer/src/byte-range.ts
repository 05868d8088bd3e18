/** A window of a stored file: `length` bytes starting at `offset`. */
export interface ByteRange {
  offset: number;
  length: number;
}

export interface RangeGroup<T extends ByteRange> extends ByteRange {
  members: T[];
}

/**
 * Merge ranges whose gaps are at most `maxGap` bytes, so one request serves
 * several nearby ranges: one extra round trip costs more than a few unused KiB.
 * Overlapping and duplicate ranges share a group; a group grows past
 * `maxLength` only by a range longer than that on its own.
 */
export function coalesceRanges<T extends ByteRange>(
  ranges: readonly T[],
  maxGap: number,
  maxLength = Number.POSITIVE_INFINITY,
): RangeGroup<T>[] {
  const sorted = [...ranges].sort((a, b) => a.offset - b.offset);
  const groups: RangeGroup<T>[] = [];
  let current: RangeGroup<T> | undefined;
  for (const range of sorted) {
    const end = range.offset + range.length;
    // Groups stay within maxLength (one read must stay allocatable), unless the range overlaps the group anyway.
    if (
      current &&
      range.offset <= current.offset + current.length + maxGap &&
      (end - current.offset <= maxLength || end <= current.offset + current.length)
    ) {
      current.length = Math.max(current.length, end - current.offset);
      current.members.push(range);
    } else {
      current = { offset: range.offset, length: range.length, members: [range] };
      groups.push(current);
    }
  }
  return groups;
}
