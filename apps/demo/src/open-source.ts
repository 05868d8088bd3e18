// From a source text (a URL, `precomputed://...`, `idb://...`, or a path on
// this server) to a volume to view or a group's tree to browse.
import { FetchStore, open, openStore, type Store, type ZarrArray, type ZarrGroup, type ZarrNode } from "zarrkit";
import { parseStorePipeline } from "@zarrkit/registry";
import { LOCAL, localName, openLocal } from "./local-sources.js";
import { precomputedVolume } from "./precomputed-volume.js";
import type { Volume } from "./volume.js";
import { arrayVolume, multiscaleVolume, omeDatasets } from "./zarr-volume.js";

export interface TreeEntry {
  path: string;
  kind: "array" | "group";
  description: string;
}

export type Opened =
  | { kind: "volume"; volume: Volume }
  | {
      kind: "group";
      source: string;
      tree: TreeEntry[];
      attributes: Record<string, unknown>;
      metadata: unknown;
      consolidated: boolean;
    };

const PRECOMPUTED = "precomputed://";

/** Thrown for a source text that names nothing this app can open. */
export class SourceError extends Error {
  override name = "SourceError";
}

/** A source text with paths on this server ("/data/...") made absolute. */
export function absoluteSource(source: string, origin: string): string {
  const text = source.trim();
  if (text.startsWith(PRECOMPUTED)) return PRECOMPUTED + absoluteSource(text.slice(PRECOMPUTED.length), origin);
  return text.startsWith("/") ? origin + text : text;
}

/** Keys for s3:// sources, typed into the page: kept in memory only, never in the URL or any storage. */
export interface S3Keys {
  accessKeyId: string;
  secretAccessKey: string;
}

/** The s3:// URL of the form's fields (endpoint and region in its query, as `openStore` reads them). */
export function s3Source(location: string, endpoint: string, region: string): string {
  const params = new URLSearchParams();
  if (endpoint) params.set("endpoint", endpoint);
  if (region) params.set("region", region);
  const query = params.toString();
  return query ? `${location}?${query}` : location;
}

/**
 * The source of a group's member at `path` (relative to the group): a path
 * below a folder's URL, or inside an archive (`a.ozx|zip:path`, ZEP 8's form).
 */
export function childSource(source: string, path: string): string {
  if (source.startsWith(LOCAL)) return `${source.replace(/\/$/, "")}/${path}`;
  const pipeline = source.startsWith(PRECOMPUTED) ? undefined : parseStorePipeline(source);
  if (!pipeline) return `${source.replace(/\/$/, "")}/${path}`;
  // A plain archive URL: the adapter that claims its suffix.
  if (!source.includes("|")) return `${source}|${pipeline.segments[0]!.name}:${path}`;
  return source.endsWith(":") ? source + path : `${source.replace(/\/$/, "")}/${path}`;
}

async function storeFor(url: string, wrap: (store: Store) => Store, s3Keys?: S3Keys): Promise<Store> {
  if (url.startsWith(LOCAL)) {
    const store = await openLocal(url);
    if (!store) {
      throw new SourceError(
        `${localName(url)} was opened from this computer, and this page no longer has it ` +
          "(a reload forgets local files): drop it here or pick it again",
      );
    }
    return wrap(store);
  }
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new SourceError(
      `${JSON.stringify(url)} is not a URL: expected http(s)://..., precomputed://http(s)://..., s3://... or idb://...`,
    );
  }
  if (parsed.protocol === "http:" || parsed.protocol === "https:") {
    // An archive (a .ozx or .zip URL, or a `|zip:` pipeline) opens through the zip adapter, read by ranges.
    if (parseStorePipeline(url)) return wrap(await openStore(url));
    return wrap(new FetchStore(url, { retry: { retries: 1 } }));
  }
  if (parsed.protocol === "idb:") return wrap(await openStore(url));
  if (parsed.protocol === "s3:")
    return wrap(await openStore(url, s3Keys ? { credentials: s3Keys } : { anonymous: true }));
  throw new SourceError(
    `Cannot open ${parsed.protocol}// URLs here: expected http(s)://, precomputed://http(s)://, s3:// or idb://`,
  );
}

/** The store of a source text (not precomputed://), as the viewer reads it but without a request log. */
export const sourceStore = (source: string, s3Keys?: S3Keys): Promise<Store> =>
  storeFor(source, (store) => store, s3Keys);

const isArray = (node: ZarrNode): node is ZarrArray => "shape" in node;

function describe(node: ZarrNode): TreeEntry {
  if (isArray(node))
    return { path: node.path, kind: "array", description: `${node.dataType} [${node.shape.join(", ")}]` };
  return { path: node.path, kind: "group", description: "group" };
}

/** The arrays and groups below a group, depth first, at most `limit` of them. */
async function groupTree(group: ZarrGroup<ZarrNode>, limit = 500): Promise<TreeEntry[]> {
  const entries: TreeEntry[] = [];
  const walk = async (node: ZarrGroup<ZarrNode>): Promise<void> => {
    for await (const child of node.children()) {
      if (entries.length >= limit) return;
      entries.push(describe(child));
      if (!isArray(child)) await walk(child as ZarrGroup<ZarrNode>);
    }
  };
  await walk(group);
  return entries;
}

export async function openSource(source: string, wrap: (store: Store) => Store, s3Keys?: S3Keys): Promise<Opened> {
  if (source.startsWith(PRECOMPUTED)) {
    const store = await storeFor(source.slice(PRECOMPUTED.length), wrap, s3Keys);
    return { kind: "volume", volume: await precomputedVolume(source, store) };
  }
  const store = await storeFor(source, wrap, s3Keys);
  const node = await open(store, "");
  if (isArray(node)) return { kind: "volume", volume: arrayVolume(source, node) };
  const group = node as ZarrGroup<ZarrNode>;
  const datasets = omeDatasets(group.attributes ?? {});
  if (datasets) return { kind: "volume", volume: await multiscaleVolume(source, group, datasets) };
  return {
    kind: "group",
    source,
    tree: await groupTree(group),
    attributes: group.attributes ?? {},
    metadata: group.metadata,
    consolidated: group.consolidated !== undefined,
  };
}
