import { InvalidMetadataError, NodeExistsError, NotFoundError, type Store, StoreError } from "@zarrkit/registry";
import { type ArrayOptions, ZarrArray } from "./array.js";
import { type CreateArrayOptions, arrayMetadataFromOptions } from "./create-options.js";
import { ZarrGroup } from "./group.js";
import { encodeJson, parseJson } from "./metadata/json.js";
import { type ArrayMetadata, checkNodeHeader, type GroupMetadata, parseArrayMetadata, parseGroupMetadata } from "./metadata/node-metadata.js";
import { ancestors, metadataKey, normalizeNodePath } from "./node-path.js";

export type ZarrNode = ZarrArray | ZarrGroup<ZarrNode>;

async function readMetadata(store: Store, path: string): Promise<{ doc: unknown; key: string }> {
  const key = metadataKey(path);
  const bytes = await store.get(key);
  if (bytes === undefined) throw new NotFoundError(`No Zarr v3 node at ${JSON.stringify(path || "/")}: ${key} is missing`, { key });
  return { doc: parseJson(bytes, key), key };
}

function groupFrom(store: Store, path: string, metadata: GroupMetadata): ZarrGroup<ZarrNode> {
  return new ZarrGroup<ZarrNode>(store, path, metadata, (s, p) => open(s, p));
}

/** The array or group at `path` ("" or "/" for the root). */
export async function open(store: Store, path = "", options: ArrayOptions = {}): Promise<ZarrNode> {
  const nodePath = normalizeNodePath(path);
  const { doc, key } = await readMetadata(store, nodePath);
  return checkNodeHeader(doc, key) === "array"
    ? ZarrArray.create(store, nodePath, parseArrayMetadata(doc, key), options)
    : groupFrom(store, nodePath, parseGroupMetadata(doc, key));
}

export async function openArray(store: Store, path = "", options: ArrayOptions = {}): Promise<ZarrArray> {
  const node = await open(store, path, options);
  if (!(node instanceof ZarrArray)) {
    throw new InvalidMetadataError(`${metadataKey(node.path)} describes a group, not an array`, { key: metadataKey(node.path) });
  }
  return node;
}

export async function openGroup(store: Store, path = ""): Promise<ZarrGroup<ZarrNode>> {
  const nodePath = normalizeNodePath(path);
  const { doc, key } = await readMetadata(store, nodePath);
  return groupFrom(store, nodePath, parseGroupMetadata(doc, key));
}

export interface CreateNodeOptions {
  /** Replace an existing node at the path, deleting its keys (default false: NodeExistsError). */
  overwrite?: boolean;
}

function writableStore(store: Store, path: string): Required<Pick<Store, "set">> & Store {
  if (typeof store.set !== "function") {
    throw new StoreError(`Cannot create a node at ${JSON.stringify(path || "/")}: the store is read-only`);
  }
  return store as Required<Pick<Store, "set">> & Store;
}

/** Make room for a node: refuse an existing one unless overwriting, then write any missing parent groups. */
async function prepareNode(store: Store, path: string, options: CreateNodeOptions): Promise<void> {
  const writable = writableStore(store, path);
  const key = metadataKey(path);
  if ((await store.get(key)) !== undefined) {
    if (!options.overwrite) {
      throw new NodeExistsError(`A node already exists at ${JSON.stringify(path || "/")}; pass { overwrite: true } to replace it`, {
        key,
      });
    }
    if (!writable.delete) {
      throw new StoreError(`Cannot overwrite the node at ${JSON.stringify(path || "/")}: the store cannot delete its old keys`, { key });
    }
    const remove = writable.delete.bind(writable);
    if (store.list) {
      const prefix = path === "" ? "" : `${path}/`;
      const keys: string[] = [];
      for await (const k of store.list(prefix)) keys.push(k);
      await Promise.all(keys.map((k) => remove(k)));
    } else {
      await remove(key);
    }
  }
  for (const parent of ancestors(path)) {
    const parentKey = metadataKey(parent);
    const existing = await store.get(parentKey);
    if (existing === undefined) {
      await writable.set(parentKey, encodeJson({ zarr_format: 3, node_type: "group", attributes: {} }));
    } else if (checkNodeHeader(parseJson(existing, parentKey), parentKey) === "array") {
      throw new NodeExistsError(`Cannot create ${JSON.stringify(path)} inside array ${JSON.stringify(parent)}`, { key: parentKey });
    }
  }
}

/**
 * Create an array from a complete zarr.json document or from the convenience
 * form `{ shape, dataType, chunkShape, shardShape?, codecs?, fillValue?, ... }`.
 * The metadata is validated (codecs included) before anything is written.
 */
export async function createArray(
  store: Store,
  path: string,
  definition: ArrayMetadata | CreateArrayOptions,
  options: CreateNodeOptions & ArrayOptions = {},
): Promise<ZarrArray> {
  const nodePath = normalizeNodePath(path);
  const key = metadataKey(nodePath);
  const doc = "zarr_format" in definition ? definition : arrayMetadataFromOptions(definition);
  const array = await ZarrArray.create(store, nodePath, parseArrayMetadata(doc, key), options);
  await prepareNode(store, nodePath, options);
  await writableStore(store, nodePath).set(key, encodeJson(array.metadata));
  return array;
}

export async function createGroup(
  store: Store,
  path: string,
  definition: { attributes?: Record<string, unknown> } = {},
  options: CreateNodeOptions = {},
): Promise<ZarrGroup<ZarrNode>> {
  const nodePath = normalizeNodePath(path);
  const key = metadataKey(nodePath);
  const metadata = parseGroupMetadata({ zarr_format: 3, node_type: "group", attributes: definition.attributes ?? {} }, key);
  await prepareNode(store, nodePath, options);
  await writableStore(store, nodePath).set(key, encodeJson(metadata));
  return groupFrom(store, nodePath, metadata);
}
