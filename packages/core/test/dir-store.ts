/** Arrays between a memory store and files, for the peers (tensorstore, zarr-python) that read and write files. */
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { MemoryStore } from "../src/index.js";

/** Every file under `dir` as a memory store's keys. */
export async function storeFromDir(dir: string): Promise<MemoryStore> {
  const store = new MemoryStore();
  const walk = async (at: string): Promise<void> => {
    for (const name of readdirSync(at)) {
      const path = join(at, name);
      if (statSync(path).isDirectory()) await walk(path);
      else await store.set(relative(dir, path).split("\\").join("/"), new Uint8Array(readFileSync(path)));
    }
  };
  await walk(dir);
  return store;
}

/** Every key of `store` as a file under `dir`. */
export async function dirFromStore(store: MemoryStore, dir: string): Promise<void> {
  for await (const key of store.list!("")) {
    const path = join(dir, key);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, (await store.get(key))!);
  }
}
