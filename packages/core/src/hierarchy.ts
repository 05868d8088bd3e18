import { InvalidMetadataError, NodeExistsError, NotFoundError, type Store, StoreError } from "@zarrkit/registry";
import { type ArrayOptions, ZarrArray } from "./array.js";
import { type ConsolidatedView, consolidatedFromV2, consolidatedFromV3, type NodeSource } from "./consolidated.js";
import {
  type ArrayMetadataV2Definition,
  arrayMetadataFromOptions,
  arrayMetadataV2FromOptions,
  type CreateArrayOptions,
  type CreateArrayOptionsV2,
} from "./create-options.js";
import { ZarrGroup } from "./group.js";
import { encodeJson, parseJson, readJson } from "./metadata/json.js";
import type { ArrayMetadata, ArrayMetadataV2 } from "./metadata/documents.js";
import {
  checkNodeHeader,
  type ParsedArrayMetadata,
  parseArrayMetadata,
  parseGroupMetadata,
} from "./metadata/node-metadata.js";
import { parseArrayMetadataV2, parseAttributesV2, parseGroupMetadataV2 } from "./metadata/v2.js";
import { ancestors, metadataKey, normalizeNodePath, quotedPath, v2Key } from "./node-path.js";
import type { DataTypeArrays, DataTypeName } from "./data-type-arrays.js";

/** An array or a group. */
export type ZarrNode = ZarrArray | ZarrGroup<ZarrNode>;

/** How a node is found. */
export interface FindOptions {
  /**
   * The Zarr format to read, skipping the probe: 3 reads zarr.json only, 2
   * reads .zarray / .zgroup / .zattrs only. Default: zarr.json first, then the
   * v2 documents; a path holding both opens as v3.
   */
  format?: 2 | 3;
  /**
   * Use consolidated metadata when the group opened has it (default true):
   * zarr.json's `consolidated_metadata` (v3), or `.zmetadata` (v2, read
   * first when opening a group). `false` ignores it and reads every node's
   * own metadata.
   */
  consolidated?: boolean;
}

/** How a node is found and, for arrays, opened. */
export type OpenOptions = ArrayOptions & FindOptions;

type Want = "array" | "group" | "any";

/**
 * The node's metadata, from zarr.json first, then the v2 documents (see `FindOptions`), and the consolidated metadata
 * it holds.
 */
async function findNode(
  store: Store,
  path: string,
  want: Want,
  options: FindOptions,
): Promise<{ source: NodeSource; view?: ConsolidatedView }> {
  const useConsolidated = options.consolidated !== false;
  if (options.format !== 2) {
    const key = metadataKey(path);
    const doc = await readJson(store, key);
    if (doc !== undefined) {
      const kind = checkNodeHeader(doc, key);
      const view =
        kind === "group" && useConsolidated ? consolidatedFromV3(doc as Record<string, unknown>, path, key) : undefined;
      return { source: { format: 3, kind, doc, key }, ...(view && { view }) };
    }
    if (options.format === 3)
      throw new NotFoundError(`No Zarr v3 node at ${quotedPath(path)}: ${key} is missing`, { key });
  }
  let view: ConsolidatedView | undefined;
  if (want === "group" && useConsolidated) {
    const key = v2Key(path, ".zmetadata");
    const doc = await readJson(store, key);
    if (doc !== undefined) {
      view = consolidatedFromV2(doc, path, key);
      const self = view.node(path);
      if (self?.kind === "group") return { source: self, view };
    }
  }
  const names = [
    ...(want !== "group" ? [".zarray" as const] : []),
    ...(want !== "array" ? [".zgroup" as const] : []),
    ".zattrs" as const,
    ...(want === "any" && useConsolidated ? [".zmetadata" as const] : []),
  ];
  const docs = new Map(
    await Promise.all(names.map(async (name) => [name, await readJson(store, v2Key(path, name))] as const)),
  );
  const zarray = docs.get(".zarray");
  const zgroup = docs.get(".zgroup");
  if (zarray !== undefined && zgroup !== undefined) {
    throw new InvalidMetadataError(`${quotedPath(path)} holds both .zarray and .zgroup`, {
      key: v2Key(path, ".zarray"),
    });
  }
  const attrsKey = v2Key(path, ".zattrs");
  if (zarray !== undefined || zgroup !== undefined) {
    const attributes = parseAttributesV2(docs.get(".zattrs"), attrsKey);
    const zmetadata = docs.get(".zmetadata");
    if (zgroup !== undefined && zmetadata !== undefined)
      view = consolidatedFromV2(zmetadata, path, v2Key(path, ".zmetadata"));
    const source: NodeSource =
      zarray !== undefined
        ? { format: 2, kind: "array", doc: zarray, key: v2Key(path, ".zarray"), attributes }
        : { format: 2, kind: "group", doc: zgroup, key: v2Key(path, ".zgroup"), attributes };
    return { source, ...(view && { view }) };
  }
  const tried = [
    ...(options.format === 2 ? [] : ["zarr.json"]),
    ...names.filter((n) => n !== ".zattrs" && n !== ".zmetadata"),
  ].join(", ");
  throw new NotFoundError(`No Zarr node at ${quotedPath(path)}: ${tried} missing`, {
    key: options.format === 2 ? v2Key(path, want === "group" ? ".zgroup" : ".zarray") : metadataKey(path),
  });
}

function parsedArray(source: NodeSource): ParsedArrayMetadata {
  return source.format === 3
    ? parseArrayMetadata(source.doc, source.key)
    : parseArrayMetadataV2(source.doc, source.key, source.attributes);
}

/** A node object from its metadata; `view` describes the nodes below it (opened from it without requests). */
async function nodeFrom(
  store: Store,
  path: string,
  source: NodeSource,
  options: OpenOptions,
  view?: ConsolidatedView,
): Promise<ZarrNode> {
  if (source.kind === "array") return ZarrArray.create(store, path, parsedArray(source), arrayOptions(options));
  const metadata =
    source.format === 3 ? parseGroupMetadata(source.doc, source.key) : parseGroupMetadataV2(source.doc, source.key);
  const childOptions: OpenOptions = {
    ...options,
    format: source.format,
    // v3 children's own consolidated metadata comes free with their zarr.json; a v2 child's would cost a request more.
    consolidated: source.format === 3 && options.consolidated !== false,
  };
  return new ZarrGroup<ZarrNode>(store, path, metadata, (s, p) => openWith(s, p, "any", childOptions, view), {
    format: source.format,
    ...(source.format === 2 && { attributes: source.attributes }),
    ...(view && { consolidated: view }),
  });
}

function arrayOptions(options: OpenOptions): ArrayOptions {
  const { format: _format, consolidated: _consolidated, ...rest } = options;
  return rest;
}

/** Open from `view` when it describes the node, otherwise from the store. */
async function openWith(
  store: Store,
  path: string,
  want: Want,
  options: OpenOptions,
  view?: ConsolidatedView,
): Promise<ZarrNode> {
  const known = view?.node(path);
  if (known) return nodeFrom(store, path, known, options, view);
  const found = await findNode(store, path, want, options);
  return nodeFrom(store, path, found.source, options, found.view);
}

/**
 * The array or group at `path` ("" or "/" for the root): zarr.json first, then .zarray / .zgroup (see `FindOptions`).
 */
export async function open(store: Store, path = "", options: OpenOptions = {}): Promise<ZarrNode> {
  return openWith(store, normalizeNodePath(path), "any", options);
}

/**
 * Open the array at `path`. With `dataType`, the array must have that data
 * type (else an InvalidMetadataError naming it and the metadata key), and
 * `get()` is typed accordingly: `openArray(store, "raw", { dataType: "uint16" })`
 * reads Uint16Arrays.
 */
export function openArray<N extends DataTypeName>(
  store: Store,
  path: string,
  options: OpenOptions & { dataType: N },
): Promise<ZarrArray<DataTypeArrays[N]>>;
export function openArray(
  store: Store,
  path?: string,
  options?: OpenOptions & { dataType?: string },
): Promise<ZarrArray>;
export async function openArray(
  store: Store,
  path = "",
  options: OpenOptions & { dataType?: string } = {},
): Promise<ZarrArray> {
  const { dataType: expected, ...openOptions } = options;
  const nodePath = normalizeNodePath(path);
  const node = await openWith(store, nodePath, "array", openOptions);
  if (!(node instanceof ZarrArray)) {
    const key = node.format === 3 ? metadataKey(nodePath) : v2Key(nodePath, ".zgroup");
    throw new InvalidMetadataError(`${key} describes a group, not an array`, { key });
  }
  if (expected !== undefined && node.dataType !== expected) {
    const key = node.format === 3 ? metadataKey(nodePath) : v2Key(nodePath, ".zarray");
    throw new InvalidMetadataError(
      `${key}: the array's data type is ${JSON.stringify(node.dataType)},` +
        ` not the ${JSON.stringify(expected)} asked for`,
      {
        key,
        field: "data_type",
      },
    );
  }
  return node;
}

/** Open the group at `path` (a NotFoundError or InvalidMetadataError naming the key otherwise). */
export async function openGroup(store: Store, path = "", options: OpenOptions = {}): Promise<ZarrGroup<ZarrNode>> {
  const nodePath = normalizeNodePath(path);
  const found = await findNode(store, nodePath, "group", options);
  if (found.source.kind !== "group") {
    throw new InvalidMetadataError(`${found.source.key} describes an array, not a group`, {
      key: found.source.key,
      field: "node_type",
    });
  }
  return (await nodeFrom(store, nodePath, found.source, options, found.view)) as ZarrGroup<ZarrNode>;
}

/** How a node is created. */
export interface CreateNodeOptions {
  /** Replace an existing node at the path, deleting its keys (default false: NodeExistsError). */
  overwrite?: boolean;
}

function writableStore(store: Store, path: string): Required<Pick<Store, "set">> & Store {
  if (typeof store.set !== "function") {
    throw new StoreError(`Cannot create a node at ${quotedPath(path)}: the store is read-only`);
  }
  return store as Required<Pick<Store, "set">> & Store;
}

async function firstPresent(store: Store, keys: string[]): Promise<string | undefined> {
  const found = await Promise.all(keys.map(async (key) => ((await store.get(key)) === undefined ? undefined : key)));
  return found.find((key) => key !== undefined);
}

/**
 * Make room for a node: refuse an existing one unless overwriting, then write any missing parent groups (of the node's
 * format).
 */
async function prepareNode(store: Store, path: string, options: CreateNodeOptions, format: 2 | 3): Promise<void> {
  const writable = writableStore(store, path);
  // v3 looks at zarr.json only (as before v2 existed); v2 at every document a node of either format has.
  const keys = format === 3 ? [metadataKey(path)] : [v2Key(path, ".zarray"), v2Key(path, ".zgroup"), metadataKey(path)];
  const key = await firstPresent(store, keys);
  if (key !== undefined) {
    if (!options.overwrite) {
      throw new NodeExistsError(
        `A node already exists at ${quotedPath(path)}; pass { overwrite: true } to replace it`,
        {
          key,
        },
      );
    }
    if (!writable.delete) {
      throw new StoreError(`Cannot overwrite the node at ${quotedPath(path)}: the store cannot delete its old keys`, {
        key,
      });
    }
    const remove = writable.delete.bind(writable);
    if (store.list) {
      const prefix = path === "" ? "" : `${path}/`;
      const found: string[] = [];
      for await (const k of store.list(prefix)) found.push(k);
      await Promise.all(found.map((k) => remove(k)));
    } else {
      await Promise.all((format === 3 ? [key] : [...keys, v2Key(path, ".zattrs")]).map((k) => remove(k)));
    }
  }
  for (const parent of ancestors(path)) {
    if (format === 3) {
      const parentKey = metadataKey(parent);
      const existing = await store.get(parentKey);
      if (existing === undefined) {
        await writable.set(parentKey, encodeJson({ zarr_format: 3, node_type: "group", attributes: {} }));
      } else if (checkNodeHeader(parseJson(existing, parentKey), parentKey) === "array") {
        throw new NodeExistsError(`Cannot create ${JSON.stringify(path)} inside array ${JSON.stringify(parent)}`, {
          key: parentKey,
        });
      }
      continue;
    }
    const [zarray, zgroup] = await Promise.all([
      store.get(v2Key(parent, ".zarray")),
      store.get(v2Key(parent, ".zgroup")),
    ]);
    if (zarray !== undefined) {
      throw new NodeExistsError(`Cannot create ${JSON.stringify(path)} inside array ${JSON.stringify(parent)}`, {
        key: v2Key(parent, ".zarray"),
      });
    }
    if (zgroup === undefined) await writable.set(v2Key(parent, ".zgroup"), encodeJson({ zarr_format: 2 }));
  }
}

/**
 * Create an array from a complete zarr.json document, a .zarray document
 * (`zarr_format: 2`, with `attributes` for .zattrs), or the convenience form
 * `{ shape, dataType, chunkShape, shardShape?, codecs?, fillValue?, ... }`
 * (`{ format: 2, ... }` for v2: see `CreateArrayOptionsV2`). The metadata
 * is validated (codecs included) before anything is written. Consolidated
 * metadata above the array is not updated (see `consolidateMetadata`).
 */
export async function createArray(
  store: Store,
  path: string,
  definition: ArrayMetadata | ArrayMetadataV2Definition | CreateArrayOptions | CreateArrayOptionsV2,
  options: CreateNodeOptions & ArrayOptions = {},
): Promise<ZarrArray> {
  const nodePath = normalizeNodePath(path);
  const v2 =
    "zarr_format" in definition ? definition.zarr_format === 2 : (definition as { format?: unknown }).format === 2;
  if (v2) {
    let doc: ArrayMetadataV2;
    let attributes: Record<string, unknown> | undefined;
    if ("zarr_format" in definition) {
      const { attributes: given, ...rest } = definition as ArrayMetadataV2Definition;
      doc = rest as ArrayMetadataV2;
      attributes = given;
    } else {
      doc = arrayMetadataV2FromOptions(definition as CreateArrayOptionsV2);
      attributes = (definition as CreateArrayOptionsV2).attributes;
    }
    const key = v2Key(nodePath, ".zarray");
    const attrs = attributes === undefined ? undefined : parseAttributesV2(attributes, v2Key(nodePath, ".zattrs"));
    const array = await ZarrArray.create(store, nodePath, parseArrayMetadataV2(doc, key, attrs), options);
    await prepareNode(store, nodePath, options, 2);
    const writable = writableStore(store, nodePath);
    await writable.set(key, encodeJson(array.metadata));
    if (attrs !== undefined) await writable.set(v2Key(nodePath, ".zattrs"), encodeJson(attrs));
    return array;
  }
  const key = metadataKey(nodePath);
  const doc = "zarr_format" in definition ? definition : arrayMetadataFromOptions(definition as CreateArrayOptions);
  const array = await ZarrArray.create(store, nodePath, parseArrayMetadata(doc, key), options);
  await prepareNode(store, nodePath, options, 3);
  await writableStore(store, nodePath).set(key, encodeJson(array.metadata));
  return array;
}

/**
 * Create a group: zarr.json, or with `format: 2` (in the definition or the
 * options) .zgroup and, when attributes are given, .zattrs. Consolidated
 * metadata above the group is not updated (see `consolidateMetadata`).
 */
export async function createGroup(
  store: Store,
  path: string,
  definition: { attributes?: Record<string, unknown>; format?: 2 | 3 } = {},
  options: CreateNodeOptions & { format?: 2 | 3 } = {},
): Promise<ZarrGroup<ZarrNode>> {
  const nodePath = normalizeNodePath(path);
  if (definition.format !== undefined && options.format !== undefined && definition.format !== options.format) {
    throw new InvalidMetadataError(
      `format is ${definition.format} in the definition but ${options.format} in the options: give one`,
      { field: "format" },
    );
  }
  const format = definition.format ?? options.format ?? 3;
  if (format !== 2 && format !== 3)
    throw new InvalidMetadataError(`format must be 2 or 3, got ${String(format)}`, { field: "format" });
  if (format === 2) {
    const key = v2Key(nodePath, ".zgroup");
    const attributes =
      definition.attributes === undefined
        ? undefined
        : parseAttributesV2(definition.attributes, v2Key(nodePath, ".zattrs"));
    await prepareNode(store, nodePath, options, 2);
    const writable = writableStore(store, nodePath);
    await writable.set(key, encodeJson({ zarr_format: 2 }));
    if (attributes !== undefined) await writable.set(v2Key(nodePath, ".zattrs"), encodeJson(attributes));
    return (await nodeFrom(
      store,
      nodePath,
      { format: 2, kind: "group", doc: { zarr_format: 2 }, key, attributes: attributes ?? {} },
      {},
    )) as ZarrGroup<ZarrNode>;
  }
  const key = metadataKey(nodePath);
  const metadata = parseGroupMetadata(
    { zarr_format: 3, node_type: "group", attributes: definition.attributes ?? {} },
    key,
  );
  await prepareNode(store, nodePath, options, 3);
  await writableStore(store, nodePath).set(key, encodeJson(metadata));
  return (await nodeFrom(store, nodePath, { format: 3, kind: "group", doc: metadata, key }, {})) as ZarrGroup<ZarrNode>;
}
