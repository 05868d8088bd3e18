import { type RequestOptions, ResponseTooLargeError, type Store } from "@zarrkit/registry";

/**
 * The value of `key`, refused with a ResponseTooLargeError naming it when it
 * holds more than `maxBytes`: read as a window of `maxBytes + 1` bytes where
 * the store has ranged reads, so a hostile file costs at most that much memory.
 */
export async function readCapped(
  store: Store,
  key: string,
  maxBytes: number,
  what: string,
  options: RequestOptions = {},
): Promise<Uint8Array | undefined> {
  const bytes =
    typeof store.getRange === "function"
      ? await store.getRange(key, { offset: 0, length: maxBytes + 1 }, options)
      : await store.get(key, options);
  if (bytes !== undefined && bytes.length > maxBytes) {
    throw new ResponseTooLargeError(
      `The ${what} ${JSON.stringify(key)} is larger than ${maxBytes} bytes ` +
        "(the cap; raise it with the maxFileBytes option)",
      { key },
    );
  }
  return bytes;
}
