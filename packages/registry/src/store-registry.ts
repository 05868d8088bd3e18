import { StoreError } from "./errors.js";
import { redactUnparsedUrl } from "./redact.js";
import { type PathStoreFactory, registryState, type StoreFactory } from "./global-state.js";
import { applyPipeline, parseStorePipeline, splitValueUrl } from "./store-pipeline.js";
import type { Store } from "./store.js";

/** Register the factory behind `openStore("<scheme>://...")`; scheme without "://", e.g. "file". */
export function registerStore(scheme: string, factory: StoreFactory): void {
  registryState().stores.set(normalizeScheme(scheme), factory);
}

/**
 * Register what `openStore` does with a plain path such as "./data.zarr" or "/data/a.zarr" (`@zarrkit/store-fs` does,
 * in Node).
 */
export function registerPathStore(factory: PathStoreFactory): void {
  registryState().pathStore = factory;
}

/**
 * No scheme (`data.zarr`, `./a`, `/abs`) or a Windows drive (`C:\\data`); never with "://" (a mistyped URL stays an
 * error).
 */
function isPlainPath(input: string): boolean {
  return !input.includes("://") && (!/^[a-z][a-z0-9+.-]*:/i.test(input) || /^[a-z]:[\\/]/i.test(input));
}

/** The registered URL schemes (without "://"), sorted. */
export function registeredStoreSchemes(): string[] {
  return [...registryState().stores.keys()].sort();
}

/**
 * Open a store from a URL using the factory registered for its scheme. A
 * plain path (`./data.zarr`, `/data/a.zarr`) opens the filesystem store where
 * one is registered (Node, with `@zarrkit/store-fs` or `zarrkit`). A URL
 * pipeline (`file:///data/image.ozx|zip:`, `https://host/refs.json|reference:`)
 * opens the store of the value's folder, then each adapter in turn (see
 * `registerStoreAdapter`); so does a plain URL of a file whose suffix an
 * adapter claims (`.zip`, `.ozx`).
 */
export async function openStore(url: string | URL, options: Readonly<Record<string, unknown>> = {}): Promise<Store> {
  const pipeline = typeof url === "string" ? parseStorePipeline(url) : undefined;
  if (pipeline) {
    const { parent, key } = splitValueUrl(pipeline.base);
    return applyPipeline(await openBaseStore(parent, options), key, pipeline.segments, options);
  }
  return openBaseStore(url, options);
}

async function openBaseStore(url: string | URL, options: Readonly<Record<string, unknown>>): Promise<Store> {
  if (typeof url === "string" && url !== "" && isPlainPath(url)) {
    const pathStore = registryState().pathStore;
    if (!pathStore) {
      throw new StoreError(
        `${JSON.stringify(redactUnparsedUrl(url))} is a plain path, which opens the filesystem store: that needs ` +
          `Node and @zarrkit/store-fs (or zarrkit). Elsewhere use a URL such as https://... or idb://db/prefix.`,
      );
    }
    return pathStore(url, options);
  }
  if (typeof url === "string" && /^file:(?!\/\/)/i.test(url)) {
    const path = url.slice("file:".length);
    throw new StoreError(
      `${JSON.stringify(url)} is not a file URL: write file:///${path.replace(/^\/+/, "")} for an absolute path, or ` +
        `the path itself (${path}) for a relative one.`,
    );
  }
  let parsed: URL;
  try {
    parsed = typeof url === "string" ? new URL(url) : url;
  } catch {
    // No cause: the parser's error holds the input verbatim, credentials included.
    throw new StoreError(
      `Not a store URL: ${JSON.stringify(redactUnparsedUrl(String(url)))}. Use <scheme>://..., e.g. ` +
        `file:///data/a.zarr.`,
    );
  }
  const scheme = normalizeScheme(parsed.protocol);
  const factory = registryState().stores.get(scheme);
  if (!factory) {
    const known = registeredStoreSchemes();
    throw new StoreError(
      `No store is registered for "${scheme}://". Registered ` +
        `schemes: ${known.length ? known.map((s) => `${s}://`).join(", ") : "none"}.`,
    );
  }
  return factory(parsed, options);
}

function normalizeScheme(scheme: string): string {
  return scheme.replace(/:(\/\/)?$/, "").toLowerCase();
}
