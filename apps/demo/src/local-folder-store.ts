// A read-only store over a folder picked on this computer: keys are paths
// relative to the folder (below `root`), ranged reads are `Blob.slice`s, so a
// view reads only the bytes it shows. Files on disk carry no versions here.
import type { ListDirResult, RangeQuery, RequestOptions, SizedValue, Store } from "zarrkit";
import { checkRange, rangeBounds } from "@zarrkit/registry";
import type { FolderFiles } from "./folder-files.js";

export class LocalFolderStore implements Store {
  private readonly prefix: string;

  /** `root`: the folder inside the picked one the store starts at ("" for the picked folder). */
  constructor(
    readonly folder: FolderFiles,
    root = "",
  ) {
    this.prefix = root === "" ? "" : `${root.replace(/\/+$/, "")}/`;
  }

  async get(key: string, options: RequestOptions = {}): Promise<Uint8Array | undefined> {
    return (await this.getRangeWithSize(key, { offset: 0, length: Number.MAX_SAFE_INTEGER }, options))?.value;
  }

  async getRange(key: string, range: RangeQuery, options: RequestOptions = {}): Promise<Uint8Array | undefined> {
    return (await this.getRangeWithSize(key, range, options))?.value;
  }

  async getRangeWithSize(
    key: string,
    range: RangeQuery,
    options: RequestOptions = {},
  ): Promise<SizedValue | undefined> {
    checkRange(key, range);
    options.signal?.throwIfAborted();
    const file = await this.folder.file(this.prefix + key);
    if (!file) return undefined;
    const [start, end] = rangeBounds(range, file.size);
    return { value: new Uint8Array(await file.slice(start, end).arrayBuffer()), size: file.size };
  }

  async size(key: string): Promise<number | undefined> {
    return (await this.folder.file(this.prefix + key))?.size;
  }

  async *list(prefix: string): AsyncIterable<string> {
    for await (const key of this.folder.keys(this.prefix + prefix)) yield key.slice(this.prefix.length);
  }

  async listDir(prefix: string): Promise<ListDirResult> {
    const keys: string[] = [];
    const prefixes = new Set<string>();
    for await (const key of this.list(prefix)) {
      const rest = key.slice(prefix.length);
      const slash = rest.indexOf("/");
      if (slash < 0) keys.push(key);
      else prefixes.add(prefix + rest.slice(0, slash + 1));
    }
    return { keys, prefixes: [...prefixes] };
  }
}
