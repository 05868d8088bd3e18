import { type ArrayData, createArray, MemoryStore, type Store } from "../src/index.js";

export function memory(): MemoryStore {
  return new MemoryStore();
}

/** Sequential values of a data type's in-memory class, varied enough to catch misplaced elements. */
export function sequence(type: string, n: number): ArrayData {
  switch (type) {
    case "bool":
      return Uint8Array.from({ length: n }, (_, i) => ((i * 7) % 3 === 0 ? 1 : 0));
    case "int8":
      return Int8Array.from({ length: n }, (_, i) => ((i * 37) % 256) - 128);
    case "uint8":
      return Uint8Array.from({ length: n }, (_, i) => (i * 13 + 1) % 256);
    case "int16":
      return Int16Array.from({ length: n }, (_, i) => i * 3 - 1000);
    case "uint16":
      return Uint16Array.from({ length: n }, (_, i) => (i * 977) % 65536);
    case "int32":
      return Int32Array.from({ length: n }, (_, i) => i * 100_003 - 2 ** 30);
    case "uint32":
      return Uint32Array.from({ length: n }, (_, i) => (i * 2_654_435_761) % 2 ** 32);
    case "int64":
      return BigInt64Array.from({ length: n }, (_, i) => BigInt(i) * 10_000_000_000_007n - 2n ** 62n);
    case "uint64":
      return BigUint64Array.from({ length: n }, (_, i) => 2n ** 64n - 1n - BigInt(i) * 3n);
    case "float16":
      return Float32Array.from({ length: n }, (_, i) => (i % 2 ? -1 : 1) * (i * 0.5 + 0.25));
    case "float32":
      return Float32Array.from({ length: n }, (_, i) => i * 1.5 - 7.25);
    case "float64":
      return Float64Array.from({ length: n }, (_, i) => i / 3 - 1e10);
    case "complex64":
      return Float32Array.from({ length: 2 * n }, (_, i) => (i % 2 ? -i : i) * 0.5);
    case "complex128":
      return Float64Array.from({ length: 2 * n }, (_, i) => (i % 2 ? -i : i) / 7);
    case "r24":
      return Uint8Array.from({ length: 3 * n }, (_, i) => (i * 29) % 256);
    case "string":
      return Array.from({ length: n }, (_, i) => (i % 4 === 0 ? "" : `s${i}-é`));
    default:
      throw new Error(`no sequence for ${type}`);
  }
}

export async function keysOf(store: Store): Promise<string[]> {
  const keys: string[] = [];
  for await (const k of store.list!("")) keys.push(k);
  return keys.sort();
}

export { createArray };
