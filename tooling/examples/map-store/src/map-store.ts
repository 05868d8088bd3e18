import { checkStoreKey, type RangeQuery, type Store } from "@zarrkit/registry";

/** Values in a Map: the smallest complete third-party store (reads, ranged reads, writes, listing). */
export class MapStore implements Store {
  private readonly values = new Map<string, Uint8Array>();

  async get(key: string): Promise<Uint8Array | undefined> {
    checkStoreKey(key);
    return this.values.get(key)?.slice();
  }

  async getRange(key: string, range: RangeQuery): Promise<Uint8Array | undefined> {
    checkStoreKey(key);
    const value = this.values.get(key);
    if (!value) return undefined;
    if ("suffixLength" in range) return value.slice(Math.max(0, value.length - range.suffixLength));
    return value.slice(range.offset, range.offset + range.length);
  }

  async set(key: string, value: Uint8Array): Promise<void> {
    checkStoreKey(key);
    this.values.set(key, value.slice());
  }

  async delete(key: string): Promise<void> {
    checkStoreKey(key);
    this.values.delete(key);
  }

  async *list(prefix: string): AsyncIterable<string> {
    for (const key of [...this.values.keys()].sort()) if (key.startsWith(prefix)) yield key;
  }
}
