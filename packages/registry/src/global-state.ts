import type { CodecFactory } from "./codec.js";
import type { ChunkGridParser } from "./chunk-grid.js";
import type { CreateOptionHook } from "./create-option-hook.js";
import type { RangeReader, Store } from "./store.js";

/** Loads a codec's factory on first use (a dynamic `import()` keeps the codec out of bundles until then). */
export type CodecLoader = () => CodecFactory | Promise<CodecFactory>;
/** Opens a store for a URL of its scheme (`registerStore`). */
export type StoreFactory = (url: URL, options: Readonly<Record<string, unknown>>) => Store | Promise<Store>;
/**
 * Opens a store over a value of another store (`registerStoreAdapter`): an
 * archive, a reference file. `path`: where inside it the returned store is
 * rooted ("" for its root).
 */
export type StoreAdapter = (
  value: { store: Store; key: string },
  path: string,
  options: Readonly<Record<string, unknown>>,
) => Store | Promise<Store>;
/** Opens a store from a plain filesystem path (absolute or relative), for `openStore("./data.zarr")`. */
export type PathStoreFactory = (path: string, options: Readonly<Record<string, unknown>>) => Store | Promise<Store>;

interface RegistryState {
  codecs: Map<string, { loader: CodecLoader; loaded?: Promise<CodecFactory> }>;
  stores: Map<string, StoreFactory>;
  /** URL pipeline adapters by name (`|zip:`), and the file suffixes that open through one. */
  adapters: Map<string, StoreAdapter>;
  adapterSuffixes: Map<string, string>;
  /** Hooks of `createArray` options by name; the field keeps its first name, as every copy in the realm shares it. */
  layouts: Map<string, CreateOptionHook>;
  chunkGrids: Map<string, ChunkGridParser>;
  /** Modules codec workers import so that they know the codecs registered here (see codec-worker-modules.ts). */
  workerModules: string[];
  /** What opens plain paths (the filesystem store registers it in Node). */
  pathStore?: PathStoreFactory;
  workerModuleListeners: Set<(added: string) => void>;
  /** Readers of lent ranges by name (see range-reader.ts). */
  rangeReaders: Map<string, RangeReader>;
}

// One registry per realm even when a bundle ends up with two copies of this
// package: registrations made through either copy must be visible to both.
const KEY = Symbol.for("@zarrkit/registry@1");

export function registryState(): RegistryState {
  const holder = globalThis as unknown as Record<symbol, RegistryState | undefined>;
  let state = holder[KEY];
  if (!state) {
    state = {
      codecs: new Map(),
      stores: new Map(),
      adapters: new Map(),
      adapterSuffixes: new Map(),
      layouts: new Map(),
      chunkGrids: new Map(),
      workerModules: [],
      workerModuleListeners: new Set(),
      rangeReaders: new Map(),
    };
    holder[KEY] = state;
  }
  // A registry created by an older copy of this package lacks what later versions added.
  state.layouts ??= new Map();
  state.adapters ??= new Map();
  state.adapterSuffixes ??= new Map();
  state.chunkGrids ??= new Map();
  state.workerModules ??= [];
  state.workerModuleListeners ??= new Set();
  state.rangeReaders ??= new Map();
  return state;
}
