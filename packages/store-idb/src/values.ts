import { StoreError } from "@zarrkit/registry";

/**
 * What to hand to IndexedDB for `value`. Structured cloning copies the whole
 * buffer behind a view, so a view into a larger buffer is cut out first; a
 * Uint8Array that spans its buffer is stored as it is (cloned once, by put).
 */
export function storable(value: Uint8Array): Uint8Array {
  return value.byteOffset === 0 && value.byteLength === value.buffer.byteLength ? value : value.slice();
}

/** A stored value as bytes, without copying: a Uint8Array, an ArrayBuffer or another view. */
export function bytesOf(value: unknown, key: string): Uint8Array | undefined {
  if (value === undefined) return undefined;
  if (value instanceof Uint8Array) return value;
  if (value instanceof ArrayBuffer) return new Uint8Array(value);
  if (ArrayBuffer.isView(value)) return new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
  throw new StoreError(`IndexedDB value of ${key} is not bytes (${Object.prototype.toString.call(value)}).`, { key });
}
