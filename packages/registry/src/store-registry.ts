import { StoreError } from "./errors.js";
import { redactUnparsedUrl } from "./http/redact.js";
import { registryState, type StoreFactory } from "./global-state.js";
import type { Store } from "./store.js";

/** Register the factory behind `openStore("<scheme>://...")`; scheme without "://", e.g. "file". */
export function registerStore(scheme: string, factory: StoreFactory): void {
  registryState().stores.set(normalizeScheme(scheme), factory);
}

export function registeredStoreSchemes(): string[] {
  return [...registryState().stores.keys()].sort();
}

/** Open a store from a URL using the factory registered for its scheme. */
export async function openStore(url: string | URL, options: Readonly<Record<string, unknown>> = {}): Promise<Store> {
  let parsed: URL;
  try {
    parsed = typeof url === "string" ? new URL(url) : url;
  } catch {
    // No cause: the parser's error holds the input verbatim, credentials included.
    throw new StoreError(`Not a store URL: ${JSON.stringify(redactUnparsedUrl(String(url)))}. Use <scheme>://..., e.g. file:///data/a.zarr.`);
  }
  const scheme = normalizeScheme(parsed.protocol);
  const factory = registryState().stores.get(scheme);
  if (!factory) {
    const known = registeredStoreSchemes();
    throw new StoreError(
      `No store is registered for "${scheme}://". Registered schemes: ${known.length ? known.map((s) => `${s}://`).join(", ") : "none"}.`,
    );
  }
  return factory(parsed, options);
}

function normalizeScheme(scheme: string): string {
  return scheme.replace(/:(\/\/)?$/, "").toLowerCase();
}
