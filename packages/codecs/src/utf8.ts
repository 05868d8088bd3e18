// UTF-8 helpers for vlen-utf8: exact sizes up front (one allocation, no
// slack) and an ASCII fast path, since chunks often hold many short strings.

const encoder = new TextEncoder();
// fatal: invalid UTF-8 is corrupt data, not U+FFFD; ignoreBOM: a leading U+FEFF is part of the string.
const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** UTF-8 length of `s`, or -1 when it holds a lone surrogate (which has no UTF-8 form). */
export function utf8Length(s: string): number {
  let bytes = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) continue;
    if (c < 0x800) bytes += 1;
    else if (c < 0xd800 || c > 0xdfff) bytes += 2;
    else if (c <= 0xdbff && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      bytes += 2; // a surrogate pair: 2 UTF-16 units, 4 UTF-8 bytes
      i++;
    } else return -1;
  }
  return bytes;
}

/** Write `s` (whose UTF-8 length is `length`) at `out[at]`. */
export function writeUtf8(s: string, out: Uint8Array, at: number, length: number): void {
  if (length === s.length && length <= 64) {
    for (let i = 0; i < length; i++) out[at + i] = s.charCodeAt(i);
  } else {
    encoder.encodeInto(s, out.subarray(at, at + length));
  }
}

/** Decode `bytes[start, end)`; throws TypeError on invalid UTF-8. */
export function readUtf8(bytes: Uint8Array, start: number, end: number): string {
  if (end - start <= 64) {
    let ascii = true;
    for (let i = start; i < end; i++) {
      if (bytes[i]! >= 0x80) {
        ascii = false;
        break;
      }
    }
    if (ascii) return String.fromCharCode.apply(null, bytes.subarray(start, end) as unknown as number[]);
  }
  return decoder.decode(bytes.subarray(start, end));
}
