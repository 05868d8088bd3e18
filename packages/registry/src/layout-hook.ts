import type { CodecMetadata } from "./codec.js";

/** What `createArray`'s convenience form hands a layout option a package registered (e.g. `shardShape`). */
export interface LayoutRequest {
  /** The option's value. */
  value: unknown;
  /** The `chunkShape` option as given. */
  chunkShape: unknown;
  /** Codecs of each chunk: the `codecs` option, or the data type's default. */
  codecs: CodecMetadata[];
  /** Every option given, for the layout's own (e.g. `indexCodecs`). */
  options: Readonly<Record<string, unknown>>;
}

/** The grid and codecs a layout option makes of an array. */
export interface Layout {
  /**
   * What the chunk grid divides the array into: integers, or lists of edges for a rectilinear grid (e.g. the shard
   * shape).
   */
  gridShape: unknown[];
  /** The array's codecs. */
  codecs: CodecMetadata[];
  /** Options the layout consumed besides its own (e.g. `indexCodecs`), so they are not reported as unknown. */
  consumed: string[];
}

/** Makes an array's grid and codecs of one of `createArray`'s convenience options (see `registerLayout`). */
export type LayoutHook = (request: LayoutRequest) => Layout;
