import { MemoryStore } from "@zarrkit/core";
import type { RequestOptions, Store } from "@zarrkit/registry";
import { describeStoreConformance, unsafeKeys } from "@zarrkit/test-utils";
import { fileServer, startServer } from "../../store-fetch/test/http-server.js";
import "@zarrkit/store-fetch";
import { openReferenceStore, type Reference, type ReferenceTable, ReferenceStore } from "../src/index.js";

/** A table the fixture fills behind the store's back: short values inline, longer ones windows of target files. */
class SeededTable implements ReferenceTable {
  readonly references = new Map<string, Reference>();
  async lookup(key: string, _options?: RequestOptions): Promise<Reference | undefined> {
    return this.references.get(key);
  }
  async *keys(prefix: string): AsyncGenerator<string> {
    for (const key of this.references.keys()) if (key.startsWith(prefix)) yield key;
  }
}

/** Seeds `table`: values of 16 bytes or more become a window (after 7 bytes of padding) of a new target file. */
function seeder(
  table: SeededTable,
  write: (name: string, bytes: Uint8Array) => Promise<void>,
  url: (name: string) => string,
) {
  let targets = 0;
  return async (key: string, value: Uint8Array) => {
    if (value.length < 16) {
      table.references.set(key, { kind: "inline", bytes: value.slice() });
      return;
    }
    const name = `target-${targets++}.bin`;
    const padded = new Uint8Array(value.length + 7).fill(0xee);
    padded.set(value, 7);
    await write(name, padded);
    table.references.set(key, {
      kind: "target",
      url: url(name),
      window: { offset: 7, length: value.length },
      field: `refs[${JSON.stringify(key)}]`,
    });
  };
}

describeStoreConformance(
  "ReferenceStore (targets beside the reference file)",
  async () => {
    const home = new MemoryStore();
    const table = new SeededTable();
    return {
      store: new ReferenceStore(table, home, "refs.json"),
      seed: seeder(
        table,
        (name, bytes) => home.set(name, bytes),
        (name) => name,
      ),
    };
  },
  { invalidKeys: unsafeKeys },
);

describeStoreConformance(
  "ReferenceStore (targets over HTTP)",
  async () => {
    const files = fileServer();
    const server = await startServer(files.handler);
    const table = new SeededTable();
    return {
      store: new ReferenceStore(table, new MemoryStore(), "refs.json", { targetOptions: { retry: { retries: 0 } } }),
      seed: seeder(
        table,
        async (name, bytes) => files.put(name, bytes),
        (name) => `${server.url}${name}`,
      ),
      cleanup: server.close,
    };
  },
  { invalidKeys: unsafeKeys },
);

describeStoreConformance(
  "ReferenceStore (kerchunk JSON, the file rewritten and reopened for each value)",
  async () => {
    const home = new MemoryStore();
    const refs: Record<string, unknown> = {};
    let current = await writeAndOpen(home, refs);
    // Each seed writes a new reference file and reopens it: the store checked is always the latest one.
    const store: Store = {
      get: (key, options) => current.get(key, options),
      getRange: (key, range, options) => current.getRange(key, range, options),
      size: (key, options) => current.size(key, options),
      list: (prefix, options) => current.list(prefix, options),
      listDir: (prefix, options) => current.listDir(prefix, options),
    };
    return {
      store,
      seed: async (key, value) => {
        await home.set(`t/${key}`, value.slice());
        refs[key] = [`{{t}}/${key}`, 0, value.length];
        current = await writeAndOpen(home, refs);
      },
    };
  },
  { invalidKeys: unsafeKeys },
);

async function writeAndOpen(home: MemoryStore, refs: Record<string, unknown>): Promise<ReferenceStore> {
  await home.set("refs.json", new TextEncoder().encode(JSON.stringify({ version: 1, templates: { t: "t" }, refs })));
  return openReferenceStore(home, "refs.json");
}
