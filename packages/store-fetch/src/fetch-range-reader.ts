// The codec workers' side of `FetchStore.lendRange`: a window lent by URL is
// fetched here with a store built from the lending store's URL and options
// (kept per store, so a worker's requests share what it learns of a server),
// and a window lent as bytes is copied from them.
import { PreconditionFailedError, registerRangeReader } from "@zarrkit/registry";
import { LruCache } from "@zarrkit/util";
import { BYTES_READER, FETCH_READER, FetchStore, type LentStore } from "./fetch-store.js";

/** Stores rebuilt in this thread, by their URL and options; a page rarely reads from more than a few. */
const stores = new LruCache<string, FetchStore>(16, () => 1);

function storeFor({ url, options }: LentStore): FetchStore {
  const id = JSON.stringify([url, options]);
  let store = stores.get(id);
  if (store === undefined) {
    store = new FetchStore(url, options);
    stores.set(id, store);
  }
  return store;
}

registerRangeReader(FETCH_READER, async (source, offset, target) => {
  const key = source.key as string;
  const ifMatch = source.ifMatch as string | undefined;
  const read = await storeFor(source as unknown as LentStore).getRangeWithSize(
    key,
    { offset, length: target.length },
    ifMatch === undefined ? undefined : { ifMatch },
  );
  if (read === undefined) {
    if (ifMatch === undefined) return undefined;
    throw new PreconditionFailedError(`${JSON.stringify(key)} was not found at version ${ifMatch}`, { key });
  }
  const bytes = read.value.subarray(0, target.length);
  target.set(bytes);
  return bytes.length;
});

registerRangeReader(BYTES_READER, (source, offset, target) => {
  const bytes = (source.bytes as Uint8Array).subarray(offset, offset + target.length);
  target.set(bytes);
  return bytes.length;
});
