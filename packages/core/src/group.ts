import { type Store, StoreError } from "@zarrkit/registry";
import type { GroupMetadata } from "./metadata/node-metadata.js";
import { childPath } from "./node-path.js";

/** Opens the node at a path; supplied by the hierarchy module to avoid a cycle. */
export type NodeOpener<Node> = (store: Store, path: string) => Promise<Node>;

export class ZarrGroup<Node = unknown> {
  constructor(
    readonly store: Store,
    /** Path of the group in the store ("" for the root). */
    readonly path: string,
    /** The parsed zarr.json, as stored. */
    readonly metadata: GroupMetadata,
    private readonly openNode: NodeOpener<Node>,
  ) {}

  get attributes(): Record<string, unknown> {
    return this.metadata.attributes;
  }

  /** Names of the direct children, from a listing or, on stores that cannot list, consolidated metadata. */
  async childNames(): Promise<string[]> {
    const prefix = this.path === "" ? "" : `${this.path}/`;
    const store = this.store;
    if (store.listDir) {
      const { prefixes } = await store.listDir(prefix);
      const names = prefixes.map((p) => p.slice(prefix.length, -1));
      // Folders without zarr.json (stray files, foreign data) are not nodes.
      const present = await Promise.all(names.map((name) => exists(store, `${prefix}${name}/zarr.json`)));
      return names.filter((_, i) => present[i]).sort();
    }
    if (store.list) {
      const names = new Set<string>();
      for await (const key of store.list(prefix)) {
        const rest = key.slice(prefix.length).split("/");
        if (rest.length === 2 && rest[1] === "zarr.json") names.add(rest[0]!);
      }
      return [...names].sort();
    }
    const consolidated = (this.metadata.consolidated_metadata as { metadata?: Record<string, unknown> } | undefined)?.metadata;
    if (consolidated) return Object.keys(consolidated).filter((name) => !name.includes("/")).sort();
    throw new StoreError(
      `Cannot list the children of group ${JSON.stringify(this.path)}: the store cannot list and the group has no consolidated metadata`,
    );
  }

  /** The direct children (arrays and groups), in name order. */
  async *children(): AsyncGenerator<Node> {
    for (const name of await this.childNames()) yield await this.openNode(this.store, childPath(this.path, name));
  }
}

async function exists(store: Store, key: string): Promise<boolean> {
  return (store.size ? await store.size(key) : (await store.get(key))?.length) !== undefined;
}
