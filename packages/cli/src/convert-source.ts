import type { PrecomputedImage } from "@zarrkit/neuroglancer";
import { type DataType, dataType, type NdArray, type Scalar, slice, type ZarrArray } from "zarrkit";
import { dataTypeOf } from "./source.js";
import { type SourceCompression, sourceCompression } from "./source-compression.js";

/**
 * What convert reads from: an array-like with a shape, a data type and a
 * reader of boxes [start, stop) in C order. Zarr arrays, precomputed volumes
 * and downsampled levels all look like this.
 */
export interface ConvertSource {
  /** For messages: the array's path or the volume's URL. */
  readonly label: string;
  /** Elements along each dimension. */
  readonly shape: readonly number[];
  /** The Zarr v3 data type name. */
  readonly dataType: string;
  /** The data type object of `dataType`. */
  readonly type: DataType;
  /** The source's own chunk shape: the destination's inner chunks by default. */
  readonly chunkShape: readonly number[];
  /** The fill value, which the destination keeps. */
  readonly fillValue: Scalar;
  /** Attributes, copied to the destination. */
  readonly attributes: Record<string, unknown>;
  /** Dimension names, copied to the destination (and naming OME axes). */
  readonly dimensionNames?: readonly (string | null)[];
  /** Physical size of one element along each dimension, when the source says (precomputed resolutions). */
  readonly voxelSize?: {
    /** Along each dimension. */
    size: readonly number[];
    /** The unit of the sizes, e.g. "nanometer". */
    unit: string;
  };
  /** The source's compression as v3 codecs, which a conversion keeps unless --codec says otherwise. */
  readonly compression?: SourceCompression;
  /** The elements of the box [start, stop), in C order. */
  read(start: readonly number[], stop: readonly number[]): Promise<NdArray>;
}

/** A Zarr array (v2 or v3) as a conversion source; `label` names it in messages. */
export function zarrSource(array: ZarrArray, label: string): ConvertSource {
  const type = dataTypeOf(array);
  return {
    label,
    shape: array.shape,
    dataType: array.dataType,
    type,
    compression: sourceCompression(array, type.byteSize ?? 1),
    chunkShape: array.chunkShape,
    fillValue: array.fillValue,
    attributes: array.attributes,
    ...(array.dimensionNames && { dimensionNames: array.dimensionNames }),
    read: (start, stop) => array.get(start.map((s, d) => slice(s, stop[d]!))),
  };
}

/**
 * Scale 0 of a precomputed volume as an array of shape [c, z, y, x]: the raw
 * chunk layout (x fastest), so no voxel moves, and the axis order OME-Zarr
 * wants. Coordinates are relative to the scale's voxel_offset.
 */
export function precomputedSource(image: PrecomputedImage, label: string): ConvertSource {
  const { info } = image;
  const scale = info.scales[0];
  const [cx, cy, cz] = scale.chunk_sizes[0];
  const type = dataType(info.data_type);
  return {
    label,
    shape: [info.num_channels, scale.size[2], scale.size[1], scale.size[0]],
    dataType: info.data_type,
    type,
    chunkShape: [info.num_channels, cz, cy, cx],
    fillValue: info.data_type === "uint64" ? 0n : 0,
    attributes: {},
    dimensionNames: ["c", "z", "y", "x"],
    // Precomputed resolutions are in nanometres.
    ...(scale.resolution && {
      voxelSize: { size: [1, scale.resolution[2], scale.resolution[1], scale.resolution[0]], unit: "nanometer" },
    }),
    async read(start, stop) {
      const offset = scale.voxel_offset;
      const min = [start[3]! + offset[0], start[2]! + offset[1], start[1]! + offset[2]];
      const max = [stop[3]! + offset[0], stop[2]! + offset[1], stop[1]! + offset[2]];
      const shape = start.map((s, d) => stop[d]! - s);
      if (shape.some((n) => n === 0)) return { data: type.allocate(0), shape };
      const region = await image.read({ min, max });
      // [channel][z][y][x]: the channels asked for are one contiguous run.
      const box = shape[1]! * shape[2]! * shape[3]!;
      const data = region.data.subarray(start[0]! * box, stop[0]! * box);
      return { data: data as NdArray["data"], shape };
    },
  };
}

/** Regions in C order: every box of `block` (clipped) covering [start, stop). */
export function* boxes(
  start: readonly number[],
  stop: readonly number[],
  block: readonly number[],
): Generator<{ start: number[]; stop: number[] }> {
  const at = [...start];
  if (at.some((s, d) => s >= stop[d]!)) return;
  for (;;) {
    yield { start: [...at], stop: at.map((s, d) => Math.min(stop[d]!, s + block[d]!)) };
    let d = at.length - 1;
    for (; d >= 0; d--) {
      at[d]! += block[d]!;
      if (at[d]! < stop[d]!) break;
      at[d] = start[d]!;
    }
    if (d < 0) return;
  }
}
