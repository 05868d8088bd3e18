import type { CodecMetadata } from "./codec.js";

/** What `createArray`'s convenience form hands the hook of an option a package registered (e.g. `shardShape`). */
export interface CreateOptionRequest {
  /** The option's value. */
  value: unknown;
  /** The `chunkShape` option as given. */
  chunkShape: unknown;
  /** Codecs of each chunk: the `codecs` option, or the data type's default. */
  codecs: CodecMetadata[];
  /** Every option given, for the hook's own (e.g. `indexCodecs`). */
  options: Readonly<Record<string, unknown>>;
}

/** The grid and codecs a registered `createArray` option makes of an array. */
export interface GridAndCodecs {
  /**
   * What the chunk grid divides the array into: integers, or lists of edges for a rectilinear grid (e.g. the shard
   * shape).
   */
  gridShape: unknown[];
  /** The array's codecs. */
  codecs: CodecMetadata[];
  /** Options the hook consumed besides its own (e.g. `indexCodecs`), so they are not reported as unknown. */
  consumed: string[];
}

/** Makes an array's grid and codecs of one of `createArray`'s convenience options (see `registerCreateOption`). */
export type CreateOptionHook = (request: CreateOptionRequest) => GridAndCodecs;

/** @deprecated Use CreateOptionRequest. */
export type LayoutRequest = CreateOptionRequest;
/** @deprecated Use GridAndCodecs. */
export type Layout = GridAndCodecs;
/** @deprecated Use CreateOptionHook. */
export type LayoutHook = CreateOptionHook;
