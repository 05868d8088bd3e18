import { type Store, StoreError } from "@zarrkit/registry";
import type { ConsolidatedView } from "./consolidated.js";
import type { GroupMetadata, GroupMetadataV2 } from "./metadata/documents.js";
import { childPath, normalizeNodePath } from "./node-path.js";

/** Opens the node at a path; supplied by the hierarchy module to avoid a cycle. */
export type NodeOpener<Node> = (store: Store, path: string) => Promise<Node>;

/** What a group is built with beside its metadata. */
export interface GroupExtras {
  /** The Zarr format (default 3). */
  format?: 2 | 3;
  /** A v2 group's attributes (from .zattrs); v3 groups keep them in `metadata`. */
  attributes?: Record<string, unknown>;
  /** Consolidated metadata describing this group's children, when the group was opened with it. */
  consolidated?: ConsolidatedView;
}

/** A Zarr group: attributes, and its children opened by path. */
export class ZarrGroup<Node = unknown> {
  /** The Zarr format the group is stored in. */
  readonly format: 2 | 3;
  /**
   * Consolidated metadata describing the group's children (opening and listing them then reads no metadata), if any.
   */
  readonly consolidated: ConsolidatedView | undefined;
  private readonly v2Attributes: Record<string, unknown> | undefined;

  constructor(
    /** The store the group lives in. */
    readonly store: Store,
    /** Path of the group in the store ("" for the root). */
    readonly path: string,
    /** The parsed zarr.json (v3) or .zgroup (v2), as stored. */
    readonly metadata: GroupMetadata | GroupMetadataV2,
    private readonly openNode: NodeOpener<Node>,
    extras: GroupExtras = {},
  ) {
    this.format = extras.format ?? 3;
    this.consolidated = extras.consolidated;
    this.v2Attributes = extras.attributes;
  }

  /** The user attributes. */
  get attributes(): Record<string, unknown> {
    return this.v2Attributes ?? (this.metadata.attributes as Record<string, unknown>);
  }

  /**
   * Names of the direct children, sorted: from consolidated metadata when the
   * group was opened with some, otherwise from a listing. (zarr-python 3.1
   * writes empty consolidated metadata into nested groups; an empty one is
   * checked against a listing where the store can list.)
   */
  async childNames(): Promise<string[]> {
    const prefix = this.path === "" ? "" : `${this.path}/`;
    const store = this.store;
    const fromConsolidated = this.consolidated?.childNames(this.path);
    if (fromConsolidated && (fromConsolidated.length > 0 || (!store.listDir && !store.list))) return fromConsolidated;
    const metadataNames = this.format === 3 ? ["zarr.json"] : [".zarray", ".zgroup"];
    if (store.listDir) {
      const { prefixes } = await store.listDir(prefix);
      const names = prefixes.map((p) => p.slice(prefix.length, -1));
      // Folders without node metadata (stray files, foreign data) are not nodes.
      const present = await Promise.all(
        names.map((name) =>
          existsAny(
            store,
            metadataNames.map((m) => `${prefix}${name}/${m}`),
          ),
        ),
      );
      return names.filter((_, i) => present[i]).sort();
    }
    if (store.list) {
      const names = new Set<string>();
      for await (const key of store.list(prefix)) {
        const rest = key.slice(prefix.length).split("/");
        if (rest.length === 2 && metadataNames.includes(rest[1]!)) names.add(rest[0]!);
      }
      return [...names].sort();
    }
    const consolidated = (this.metadata.consolidated_metadata as { metadata?: Record<string, unknown> } | undefined)
      ?.metadata;
    if (consolidated)
      return Object.keys(consolidated)
        .filter((name) => !name.includes("/"))
        .sort();
    throw new StoreError(
      `Cannot list the children of group ${JSON.stringify(this.path)}: the store cannot list and the group has no ` +
        `consolidated metadata`,
    );
  }

  /** The direct children (arrays and groups), in name order. */
  async *children(): AsyncGenerator<Node> {
    for (const name of await this.childNames()) yield await this.openNode(this.store, childPath(this.path, name));
  }

  /** The node at `path` below this group ("a/b"), from consolidated metadata when the group has it. */
  open(path: string): Promise<Node> {
    const relative = normalizeNodePath(path);
    return this.openNode(this.store, relative === "" ? this.path : childPath(this.path, relative));
  }
}

async function exists(store: Store, key: string): Promise<boolean> {
  return (store.size ? await store.size(key) : (await store.get(key))?.length) !== undefined;
}

async function existsAny(store: Store, keys: string[]): Promise<boolean> {
  for (const key of keys) if (await exists(store, key)) return true;
  return false;
}
