/**
 * JSON with integers beyond 2^53 kept exact: uint64/int64 fill values such as
 * 18446744073709551615 must survive a round trip, and JSON.parse on Node 20
 * has no access to a number's source text. Large integer literals are parsed
 * as bigint; every other value is as JSON.parse gives it.
 */
import { InvalidMetadataError, type Store } from "@zarrkit/registry";

const decoder = new TextDecoder();
const encoder = new TextEncoder();

/**
 * JSON from a stored document, integers past 2^53 as bigints; an InvalidMetadataError naming `key` when it does not
 * parse.
 */
export function parseJson(input: Uint8Array | string, key: string): unknown {
  const text = typeof input === "string" ? input : decoder.decode(input);
  const marker = bigintMarker();
  try {
    return JSON.parse(quoteLargeIntegers(text, marker), (_name, value) =>
      typeof value === "string" && value.startsWith(marker) ? BigInt(value.slice(marker.length)) : value,
    );
  } catch (cause) {
    throw new InvalidMetadataError(`${key} is not valid JSON: ${(cause as Error).message}`, { key, cause });
  }
}

/** Wraps integer literals too large for a double in marked strings, leaving string contents alone. */
function quoteLargeIntegers(text: string, marker: string): string {
  let out = "";
  let last = 0;
  let i = 0;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) {
      i++;
      while (i < text.length && text.charCodeAt(i) !== 0x22) i += text.charCodeAt(i) === 0x5c ? 2 : 1;
      i++;
    } else if (c === 0x2d /* - */ || (c >= 0x30 && c <= 0x39)) {
      const start = i;
      i++;
      while (i < text.length && /[0-9.eE+-]/.test(text[i]!)) i++;
      const literal = text.slice(start, i);
      if (/^-?\d{16,}$/.test(literal) && !Number.isSafeInteger(Number(literal))) {
        out += `${text.slice(last, start)}"${marker}${literal}"`;
        last = i;
      }
    } else {
      i++;
    }
  }
  return last === 0 ? text : out + text.slice(last);
}

/** The JSON document at `key`, or undefined when the store has none. */
export async function readJson(store: Store, key: string): Promise<unknown> {
  const bytes = await store.get(key);
  return bytes === undefined ? undefined : parseJson(bytes, key);
}

/** JSON.stringify that writes bigints as exact integer literals. */
export function stringifyJson(value: unknown, indent = 2): string {
  const marker = bigintMarker();
  const text = JSON.stringify(value, (_name, v) => (typeof v === "bigint" ? `${marker}${v}` : v), indent);
  return text.replace(new RegExp(`"${marker}(-?\\d+)"`, "g"), "$1");
}

/** A prefix no real string in a document will carry: random per call. */
function bigintMarker(): string {
  return `zarrkit-bigint-${Math.random().toString(36).slice(2)}${Math.random().toString(36).slice(2)}:`;
}

/** A metadata document as stored: indented UTF-8 JSON (bigints as integers). */
export function encodeJson(value: unknown): Uint8Array {
  return encoder.encode(stringifyJson(value));
}
