// Origins seen answering a Range request with the whole value. Shared by all
// FetchStores in this realm: stores opened on the same server need not
// rediscover it. A 206 from the origin later takes it off the list.
const ignoringRanges = new Set<string>();

export function ignoresRanges(origin: string): boolean {
  return ignoringRanges.has(origin);
}

export function learnRangeSupport(origin: string, honoured: boolean): void {
  if (honoured) ignoringRanges.delete(origin);
  else ignoringRanges.add(origin);
}
