/** A byte range of a shard some inner chunks need. */
export interface Wanted<T> {
  offset: number;
  length: number;
  item: T;
}

export interface CoalescedRange<T> {
  offset: number;
  length: number;
  members: Wanted<T>[];
}

/**
 * Merge byte ranges into as few requests as possible: sorted by offset,
 * neighbours closer than `maxGap` join one request unless it would grow past
 * `maxRequest` bytes (a single range larger than that is still one request).
 */
export function coalesceRanges<T>(wanted: readonly Wanted<T>[], maxGap: number, maxRequest: number): CoalescedRange<T>[] {
  const sorted = [...wanted].sort((a, b) => a.offset - b.offset);
  const ranges: CoalescedRange<T>[] = [];
  let current: CoalescedRange<T> | undefined;
  for (const w of sorted) {
    const end = w.offset + w.length;
    if (current) {
      const currentEnd = current.offset + current.length;
      const mergedLength = Math.max(currentEnd, end) - current.offset;
      if (w.offset - currentEnd <= maxGap && mergedLength <= maxRequest) {
        current.length = mergedLength;
        current.members.push(w);
        continue;
      }
    }
    current = { offset: w.offset, length: w.length, members: [w] };
    ranges.push(current);
  }
  return ranges;
}
