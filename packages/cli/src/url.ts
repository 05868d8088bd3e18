import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { isWritable, openStore, type Store, StoreError, type WritableStore } from "zarrkit";
import { UsageError } from "./errors.js";

/** What a store URL on the command line names. */
export interface ResolvedUrl {
  /** The opened store, rooted at the URL. */
  store: Store;
  /** Path of the node inside the store ("" for the store's root). */
  path: string;
  /** `precomputed://...`: a Neuroglancer precomputed volume rather than a Zarr node. */
  precomputed: boolean;
  /** The scheme the store was opened with: "file", "http", "https" or "s3". */
  scheme: string;
  /** The URL as given, for messages. */
  display: string;
}

const PRECOMPUTED = "precomputed://";
const URL_SCHEME = /^([a-zA-Z][a-zA-Z0-9+.-]*):\/\//;

/** Store options for `s3://` from the environment (the S3 store itself reads the keys and the region). */
export function s3OptionsFromEnv(env: NodeJS.ProcessEnv = process.env): Record<string, unknown> {
  const endpoint = env.AWS_ENDPOINT_URL_S3 || env.AWS_ENDPOINT_URL;
  return endpoint ? { endpoint } : {};
}

/**
 * Resolve a command-line store URL: a plain path or `file://`, `http(s)://`
 * (read-only), `s3://bucket/prefix` (credentials, region and endpoint from
 * the AWS_* variables), optionally wrapped in `precomputed://`. The store is
 * rooted at the URL, so the node is at path "".
 */
export async function resolveUrl(input: string, command = ""): Promise<ResolvedUrl> {
  if (input === "") throw new UsageError("empty store URL", command);
  let rest = input;
  let precomputed = false;
  if (rest.toLowerCase().startsWith(PRECOMPUTED)) {
    precomputed = true;
    rest = rest.slice(PRECOMPUTED.length);
    if (rest === "")
      throw new UsageError(`${JSON.stringify(input)}: precomputed:// needs a URL or path after it`, command);
  }
  // A URL pipeline ("a.ozx|zip:path", ZEP 8) applies to the store URL before its first "|".
  const pipeAt = rest.indexOf("|");
  const pipeline = pipeAt < 0 ? "" : rest.slice(pipeAt);
  if (pipeAt >= 0) rest = rest.slice(0, pipeAt);
  const scheme = URL_SCHEME.exec(rest)?.[1]?.toLowerCase();
  let url: string;
  if (scheme === undefined) {
    url = pathToFileURL(resolve(rest)).href;
  } else if (scheme === "file" || scheme === "http" || scheme === "https" || scheme === "s3") {
    url = rest;
    // A FetchStore's base is a folder: without the slash, keys would replace the last segment.
    if (
      (scheme === "http" || scheme === "https") &&
      !url.endsWith("/") &&
      pipeline === "" &&
      !/\.(zip|ozx)$/i.test(url)
    ) {
      const parsed = new URL(url);
      if (!parsed.pathname.endsWith("/")) parsed.pathname += "/";
      url = parsed.href;
    }
  } else {
    throw new UsageError(
      `unsupported store URL scheme "${scheme}://" in ${JSON.stringify(input)} (use a path, file://, http(s)://, ` +
        `s3:// or precomputed://)`,
      command,
    );
  }
  const store = await openStore(url + pipeline, scheme === "s3" ? s3OptionsFromEnv() : {});
  return { store, path: "", precomputed, scheme: scheme ?? "file", display: input };
}

/** The store of a destination URL, refusing read-only ones (http(s)://). */
export function writableStore(resolved: ResolvedUrl): WritableStore {
  if (resolved.scheme === "http" || resolved.scheme === "https" || !isWritable(resolved.store)) {
    throw new StoreError(`${resolved.display} is read-only (${resolved.scheme}:// stores cannot be written)`);
  }
  return resolved.store;
}
