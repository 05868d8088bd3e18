/**
 * Consolidated metadata: every node's metadata below a group in one document,
 * so a hierarchy opens and lists without further metadata requests (stores
 * over HTTP cannot list). Two forms: Zarr v2's `.zmetadata`
 * (`{"zarr_consolidated_format": 1, "metadata": {"a/.zarray": ..., ...}}`)
 * and zarr-python 3's `consolidated_metadata` inside a group's zarr.json
 * (`{"kind": "inline", "must_understand": false, "metadata": {"a": ..., "a/b": ...}}`).
 * Both are read (`consolidatedFromV3`, `consolidatedFromV2`: a `ConsolidatedView`) and written
 * (`consolidateMetadata`) here.
 */
import {
  InvalidMetadataError,
  NotFoundError,
  showValue,
  type Store,
  StoreError,
  UnsupportedError,
} from "@zarrkit/registry";
import { forEachConcurrent } from "./concurrency.js";
import type { GroupMetadata } from "./metadata/documents.js";
import { encodeJson, readJson } from "./metadata/json.js";
import { checkNodeHeader, parseGroupMetadata } from "./metadata/node-metadata.js";
import { isRecord, parseAttributesV2, parseGroupMetadataV2 } from "./metadata/v2.js";
import { metadataKey, normalizeNodePath, quotedPath, v2Key } from "./node-path.js";

/** Where a node's metadata was found: its document(s) and the key naming it in errors. */
export type NodeSource =
  | {
      /** Zarr v3. */
      format: 3;
      /** What the node is. */
      kind: "array" | "group";
      /** Its zarr.json document. */
      doc: unknown;
      /** The key of that document. */
      key: string;
    }
  | {
      /** Zarr v2. */
      format: 2;
      /** What the node is. */
      kind: "array" | "group";
      /** Its .zarray or .zgroup document. */
      doc: unknown;
      /** The key of that document. */
      key: string;
      /** Its .zattrs. */
      attributes: Record<string, unknown>;
    };

/** The nodes one consolidated document describes, by path relative to the group holding it. */
export class ConsolidatedView {
  constructor(
    /** Path of the group holding the consolidated metadata. */
    readonly root: string,
    /** The Zarr format of the documents. */
    readonly format: 2 | 3,
    /**
     * Keyed by path relative to `root` ("" is the root itself, for v2). A Map: names from files never meet
     * Object.prototype.
     */
    private readonly nodes: ReadonlyMap<string, NodeSource>,
  ) {}

  /** Nodes described, the root excluded. */
  get size(): number {
    return [...this.nodes.keys()].filter((p) => p !== "").length;
  }

  private relative(path: string): string | undefined {
    if (path === this.root) return "";
    if (this.root === "") return path;
    return path.startsWith(`${this.root}/`) ? path.slice(this.root.length + 1) : undefined;
  }

  /** The metadata of the node at `path` (from the store root), when this document describes it. */
  node(path: string): NodeSource | undefined {
    const rel = this.relative(path);
    return rel === undefined ? undefined : this.nodes.get(rel);
  }

  /** Names of the children of the group at `path`, sorted; undefined when `path` is outside this document. */
  childNames(path: string): string[] | undefined {
    const rel = this.relative(path);
    if (rel === undefined) return undefined;
    const prefix = rel === "" ? "" : `${rel}/`;
    const names = new Set<string>();
    for (const p of this.nodes.keys()) {
      if (p === "" || !p.startsWith(prefix)) continue;
      const rest = p.slice(prefix.length);
      if (rest !== "" && !rest.includes("/")) names.add(rest);
    }
    return [...names].sort();
  }
}

/** A relative node path from a consolidated document, checked as node paths are. */
function relativePath(rel: string, key: string, field: string): string {
  let normalized: string | undefined;
  try {
    normalized = normalizeNodePath(rel);
  } catch {
    normalized = undefined;
  }
  if (normalized !== rel || rel === "") {
    throw new InvalidMetadataError(`${key}: ${field} names an invalid node path ${showValue(rel)}`, { key, field });
  }
  return rel;
}

/** The inline consolidated metadata of a v3 group's zarr.json, or undefined when it has none (absent or null). */
export function consolidatedFromV3(
  doc: Record<string, unknown>,
  root: string,
  key: string,
): ConsolidatedView | undefined {
  const consolidated = Object.hasOwn(doc, "consolidated_metadata") ? doc.consolidated_metadata : undefined;
  if (consolidated === undefined || consolidated === null) return undefined;
  const field = "consolidated_metadata";
  if (!isRecord(consolidated))
    throw new InvalidMetadataError(`${key}: ${field} must be an object or null`, { key, field });
  const kind = Object.hasOwn(consolidated, "kind") ? consolidated.kind : "inline";
  if (kind !== "inline") {
    throw new UnsupportedError(`${key}: ${field}.kind ${showValue(kind)} is not supported (known: "inline")`, {
      key,
      field: `${field}.kind`,
    });
  }
  const metadata = Object.hasOwn(consolidated, "metadata") ? consolidated.metadata : undefined;
  if (!isRecord(metadata))
    throw new InvalidMetadataError(`${key}: ${field}.metadata must be an object`, { key, field: `${field}.metadata` });
  const nodes = new Map<string, NodeSource>();
  for (const [rel, child] of Object.entries(metadata)) {
    const entryField = `${field}.metadata[${JSON.stringify(rel)}]`;
    relativePath(rel, key, entryField);
    const entryKey = `${key} (${entryField})`;
    // Checked when the node is opened (its parser checks the header again and names the entry), so one bad entry spoils
    // only itself.
    const kind = isRecord(child) && child.node_type === "array" ? "array" : "group";
    nodes.set(rel, { format: 3, kind, doc: child, key: entryKey });
  }
  return new ConsolidatedView(root, 3, nodes);
}

const V2_NODE_KEY = /^(?:(.+)\/)?\.(zarray|zgroup)$/;

/** A v2 `.zmetadata` document. */
export function consolidatedFromV2(doc: unknown, root: string, key: string): ConsolidatedView {
  if (!isRecord(doc)) throw new InvalidMetadataError(`${key} must hold a JSON object`, { key });
  if (doc.zarr_consolidated_format !== 1) {
    throw new UnsupportedError(
      `${key}: zarr_consolidated_format must be 1, got ${showValue(doc.zarr_consolidated_format)}`,
      {
        key,
        field: "zarr_consolidated_format",
      },
    );
  }
  const metadata = doc.metadata;
  if (!isRecord(metadata))
    throw new InvalidMetadataError(`${key}: metadata must be an object`, { key, field: "metadata" });
  const docs = new Map(Object.entries(metadata));
  const nodes = new Map<string, NodeSource>();
  for (const [name, value] of docs) {
    const match = V2_NODE_KEY.exec(name);
    if (!match) continue;
    const rel = match[1] === undefined ? "" : relativePath(match[1], key, `metadata[${JSON.stringify(name)}]`);
    const kind = match[2] === "zarray" ? "array" : "group";
    if (nodes.has(rel)) {
      throw new InvalidMetadataError(`${key}: ${showValue(rel || "/")} is described both as an array and as a group`, {
        key,
        field: `metadata[${JSON.stringify(name)}]`,
      });
    }
    const attrsName = rel === "" ? ".zattrs" : `${rel}/.zattrs`;
    const attrsField = `metadata[${JSON.stringify(attrsName)}]`;
    const attributes = parseAttributesV2(docs.get(attrsName), `${key} (${attrsField})`);
    nodes.set(rel, { format: 2, kind, doc: value, key: `${key} (metadata[${JSON.stringify(name)}])`, attributes });
  }
  return new ConsolidatedView(root, 2, nodes);
}

/** Every key below `prefix` ("" for all), from `list`, or walking `listDir`. */
async function allKeys(store: Store, prefix: string, path: string): Promise<string[]> {
  if (store.list) {
    const keys: string[] = [];
    for await (const key of store.list(prefix)) keys.push(key);
    return keys;
  }
  if (store.listDir) {
    const keys: string[] = [];
    const walk = async (dir: string): Promise<void> => {
      const { keys: here, prefixes } = await store.listDir!(dir);
      keys.push(...here);
      for (const sub of prefixes) await walk(sub);
    };
    await walk(prefix);
    return keys;
  }
  throw new StoreError(`Cannot consolidate the metadata of ${quotedPath(path)}: the store cannot list`);
}

/** Metadata documents read at once while consolidating: a hierarchy over HTTP or S3 has thousands. */
const METADATA_READS_IN_FLIGHT = 16;

/**
 * The JSON documents at `prefix + rel` for each of `rels` (sorted), read a few at a time, keyed by `rel` in that order.
 */
async function readAll(store: Store, prefix: string, rels: string[]): Promise<Record<string, unknown>> {
  const docs = new Map<string, unknown>();
  await forEachConcurrent(rels, METADATA_READS_IN_FLIGHT, async (rel) => {
    docs.set(rel, await readJson(store, `${prefix}${rel}`));
  });
  return Object.fromEntries(rels.map((rel) => [rel, docs.get(rel)]));
}

/**
 * The group whose hierarchy is consolidated, found as `openGroup(store, path, { consolidated: false })` finds it
 * (zarr.json first, then .zgroup), with its zarr.json for v3: consolidated metadata it already holds is replaced.
 */
async function groupToConsolidate(
  store: Store,
  path: string,
): Promise<{ format: 3; metadata: GroupMetadata } | { format: 2 }> {
  const key = metadataKey(path);
  const doc = await readJson(store, key);
  if (doc !== undefined) return { format: 3, metadata: parseGroupMetadata(doc, key) };
  const zgroupKey = v2Key(path, ".zgroup");
  const zgroup = await readJson(store, zgroupKey);
  if (zgroup === undefined) {
    throw new NotFoundError(`No Zarr node at ${quotedPath(path)}: zarr.json, .zgroup missing`, { key });
  }
  parseGroupMetadataV2(zgroup, zgroupKey);
  return { format: 2 };
}

/**
 * Write consolidated metadata for the group at `path` (default the root) and
 * everything below it, in the group's format: `.zmetadata` for v2, the
 * `consolidated_metadata` field of its zarr.json for v3 (as zarr-python 3
 * writes them). Needs a store that can list. Returns the number of nodes
 * described.
 *
 * Consolidated metadata is a snapshot: nothing zarrkit writes updates it.
 * Rewrite it after any `createArray`, `createGroup` (including the parent
 * groups they create), `resize`, overwrite or attribute change below the
 * group; until then readers that use it (the default) see the old
 * hierarchy. Chunk writes (`set`) do not change metadata and need nothing.
 */
export async function consolidateMetadata(store: Store, path = ""): Promise<number> {
  const nodePath = normalizeNodePath(path);
  const group = await groupToConsolidate(store, nodePath);
  if (typeof store.set !== "function") {
    throw new StoreError(`Cannot consolidate the metadata of ${quotedPath(nodePath)}: the store is read-only`);
  }
  const writable = store as Required<Pick<Store, "set">> & Store;
  const prefix = nodePath === "" ? "" : `${nodePath}/`;
  const keys = (await allKeys(store, prefix, nodePath)).map((k) => k.slice(prefix.length)).sort();
  if (group.format === 2) {
    const metadata = await readAll(
      store,
      prefix,
      keys.filter((rel) => /(^|\/)\.(zarray|zgroup|zattrs)$/.test(rel)),
    );
    const doc = { metadata, zarr_consolidated_format: 1 };
    consolidatedFromV2(doc, nodePath, v2Key(nodePath, ".zmetadata"));
    await writable.set(v2Key(nodePath, ".zmetadata"), encodeJson(doc));
    return Object.keys(metadata).filter((k) => !k.endsWith(".zattrs") && k !== ".zgroup").length;
  }
  const metadata: Record<string, unknown> = {};
  const docs = await readAll(
    store,
    prefix,
    keys.filter((rel) => rel.endsWith("/zarr.json")),
  );
  for (const [rel, doc] of Object.entries(docs)) {
    checkNodeHeader(doc as Record<string, unknown>, `${prefix}${rel}`);
    const { consolidated_metadata: _nested, ...entry } = doc as Record<string, unknown>;
    metadata[rel.slice(0, -"/zarr.json".length)] = entry;
  }
  const rootKey = metadataKey(nodePath);
  const root = {
    ...group.metadata,
    consolidated_metadata: { kind: "inline", must_understand: false, metadata },
  };
  consolidatedFromV3(root, nodePath, rootKey);
  await writable.set(rootKey, encodeJson(root));
  return Object.keys(metadata).length;
}
