/**
 * The IndexedDB key range of every string key starting with `prefix`:
 * from the prefix itself up to (excluding) the first string after all its
 * extensions. Keys compare by UTF-16 code units, so incrementing the last
 * unit gives that bound (dropping trailing U+FFFF units, which cannot be).
 */
export function prefixRange(prefix: string): IDBKeyRange {
  let end = prefix;
  while (end.endsWith("\uffff")) end = end.slice(0, -1);
  if (end === "") return IDBKeyRange.lowerBound(prefix);
  return IDBKeyRange.bound(
    prefix,
    end.slice(0, -1) + String.fromCharCode(end.charCodeAt(end.length - 1) + 1),
    false,
    true,
  );
}
