/**
 * URL pipelines (ZEP 8): `<url>|<adapter>:<path>|...` opens the store at
 * `<url>`, then each adapter over the value before it, e.g.
 * `file:///data/image.ozx|zip:` (the archive's root) or
 * `s3://bucket/x.zip|zip:path/inside|...`. Adapters register by name; an
 * adapter may also claim file suffixes (`.zip`, `.ozx`) so that a plain URL
 * of such a file opens through it.
 */
import { StoreError } from "./errors.js";
import { type StoreAdapter, registryState } from "./global-state.js";
import { redactUnparsedUrl } from "./redact.js";
import type { Store } from "./store.js";

/** How an adapter is registered. */
export interface RegisterStoreAdapterOptions {
  /** File name endings (lower case, with the dot) a plain URL opens through this adapter, e.g. `[".zip", ".ozx"]`. */
  suffixes?: readonly string[];
}

/** Register the adapter behind the `|<name>:` segment of URL pipelines. */
export function registerStoreAdapter(
  name: string,
  adapter: StoreAdapter,
  options: RegisterStoreAdapterOptions = {},
): void {
  if (!/^[a-z][a-z0-9+.-]*$/.test(name)) throw new StoreError(`Invalid store adapter name ${JSON.stringify(name)}`);
  const suffixes = options.suffixes ?? [];
  for (const suffix of suffixes) {
    if (!/^\.[a-z0-9][a-z0-9.-]*$/i.test(suffix)) {
      throw new StoreError(
        `Store adapter ${name}: suffix ${JSON.stringify(suffix)} must be a file ending with its dot, e.g. ".zip"`,
        {
          field: "suffixes",
        },
      );
    }
  }
  const state = registryState();
  state.adapters.set(name, adapter);
  for (const suffix of suffixes) state.adapterSuffixes.set(suffix.toLowerCase(), name);
}

/** The registered adapter names, sorted. */
export function registeredStoreAdapters(): string[] {
  return [...registryState().adapters.keys()].sort();
}

/** One `|name:path` segment of a pipeline. */
export interface PipelineSegment {
  /** The adapter's name. */
  name: string;
  /** What follows the colon: a path inside what the adapter opens ("" for its root). */
  path: string;
}

/** A URL split into its base and adapter segments; undefined when it names no pipeline. */
export function parseStorePipeline(url: string):
  | {
      /** The store URL before the first "|". */
      base: string;
      /** The adapter segments, in order. */
      segments: PipelineSegment[];
    }
  | undefined {
  const adapters = registryState();
  const parts = url.split("|");
  if (parts.length === 1) {
    const name = suffixAdapter(url, adapters.adapterSuffixes);
    return name === undefined ? undefined : { base: url, segments: [{ name, path: "" }] };
  }
  const [base, ...rest] = parts;
  if (base === undefined || base === "") {
    throw new StoreError(
      `URL pipeline ${JSON.stringify(redactUnparsedUrl(url))} has no store URL before its first "|"`,
    );
  }
  const segments = rest.map((segment, i) => {
    const match = /^([a-z][a-z0-9+.-]*):(.*)$/.exec(segment);
    if (!match) {
      throw new StoreError(
        `URL pipeline segment ${i + 1} ${JSON.stringify(segment)} is not of the form <adapter>:<path> (e.g. "zip:" ` +
          `or "zip:path/inside")`,
        { field: `segment ${i + 1}` },
      );
    }
    return { name: match[1]!, path: match[2]!.replace(/^\/+|\/+$/g, "") };
  });
  return { base, segments };
}

function suffixAdapter(url: string, suffixes: ReadonlyMap<string, string>): string | undefined {
  const path = url.replace(/[?#].*$/, "").toLowerCase();
  for (const [suffix, name] of suffixes) if (path.endsWith(suffix)) return name;
  return undefined;
}

/**
 * Where a pipeline's first adapter reads its value: the store of the folder
 * that holds it and the value's key there (`file:///data/a.ozx` ->
 * `file:///data/` and `a.ozx`).
 */
export function splitValueUrl(url: string): { parent: string; key: string } {
  const path = url.replace(/[?#].*$/, "");
  const slash = path.lastIndexOf("/");
  const key = decodeURIComponent(path.slice(slash + 1));
  if (key === "") {
    throw new StoreError(
      `${JSON.stringify(redactUnparsedUrl(url))} names no file for the pipeline to open (it ends in "/")`,
    );
  }
  // A bare relative file name ("a.ozx") lies in the working directory.
  return { parent: slash < 0 ? "./" : url.slice(0, slash + 1) + url.slice(path.length), key };
}

/** Apply `segments` in turn, the first over `key` of `store`. */
export async function applyPipeline(
  store: Store,
  key: string,
  segments: readonly PipelineSegment[],
  options: Readonly<Record<string, unknown>>,
): Promise<Store> {
  let current = store;
  let valueKey = key;
  for (const [i, segment] of segments.entries()) {
    const adapter = registryState().adapters.get(segment.name);
    if (!adapter) {
      const known = registeredStoreAdapters();
      throw new StoreError(
        `URL pipeline segment ${i + 1} "${segment.name}:" names no registered adapter ` +
          `(registered: ${known.length ? known.map((n) => `${n}:`).join(", ") : "none"})`,
        { field: `segment ${i + 1}` },
      );
    }
    const last = i === segments.length - 1;
    // An adapter followed by another opens its root; the next segment's value is its path.
    current = await adapter({ store: current, key: valueKey }, last ? segment.path : "", options);
    if (!last) {
      if (segment.path === "") {
        throw new StoreError(
          `URL pipeline segment ${i + 1} "${segment.name}:" needs a path: the value the next adapter opens`,
          {
            field: `segment ${i + 1}`,
          },
        );
      }
      valueKey = segment.path;
    }
  }
  return current;
}
