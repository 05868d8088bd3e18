// What the viewer shows, whatever it came from: an N-dimensional volume with
// one or more resolution levels, each read as 2D planes.
import type { ZarrArray } from "zarrkit";
import type { Rect } from "./view-plan.js";

export type Values = ArrayLike<number> | BigInt64Array | BigUint64Array;

/** A 2D plane of a level: element (r, c) is values[r * rowStride + c * colStride]. */
export interface Plane {
  rows: number;
  cols: number;
  values: Values;
  rowStride: number;
  colStride: number;
}

export interface PlaneRequest {
  /** The displayed dimensions: [down, across]. */
  axes: readonly [number, number];
  /** Per dimension, the index (in this level) for the non-displayed ones; ignored for the displayed two. */
  at: readonly number[];
  rect: Rect;
  signal?: AbortSignal;
}

export interface Level {
  /** Where the level lives, e.g. "0" or "s0". */
  path: string;
  shape: readonly number[];
  /** Level-0 elements per element of this level, per dimension. */
  factors: readonly number[];
  /** The unit of reading per dimension (inner chunk, chunk). */
  chunkShape: readonly number[];
  /** What one request serves per dimension: the shard when sharded, else the chunk. */
  groupShape: readonly number[];
  /** The store key of the group (shard or chunk) holding a level element, for messages and the inspector. */
  keyAt(position: readonly number[]): string;
  readPlane(request: PlaneRequest): Promise<Plane>;
  /** The Zarr array behind the level, for the inspector (none for precomputed volumes). */
  array?: ZarrArray;
}

export interface Volume {
  kind: "zarr" | "precomputed";
  source: string;
  dataType: string;
  dimensionNames: readonly string[];
  levels: readonly Level[];
  defaultAxes: readonly [number, number];
  /** Label volumes are drawn with a colour per label. */
  isLabels: boolean;
  /** For the inspector: the metadata document(s) as stored. */
  metadata: unknown;
}

/** The value at (r, c) of a plane as a number (bigints converted). */
export function planeValue(plane: Plane, r: number, c: number): number | bigint {
  return plane.values[r * plane.rowStride + c * plane.colStride]!;
}
