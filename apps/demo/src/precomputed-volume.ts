// Neuroglancer precomputed images (sharded or not) as volumes: dimensions x, y, z.
import {
  compressedMortonCode,
  openPrecomputedImage,
  type PrecomputedImage,
  type PrecomputedScale,
  shardLocation,
} from "@zarrkit/neuroglancer";
import type { Store } from "zarrkit";
import type { Level, Plane, PlaneRequest, Volume } from "./volume.js";

function scaleLevel(image: PrecomputedImage, index: number): Level {
  const scale = image.info.scales[index]!;
  const base = image.info.scales[0]!;
  const chunk = scale.chunk_sizes[0]!;
  const grid = scale.size.map((n, d) => Math.ceil(n / chunk[d]!));
  return {
    path: scale.key,
    shape: scale.size,
    factors: (scale.resolution ?? [1, 1, 1]).map((r, d) =>
      Math.max(1, Math.round(r / (base.resolution ?? [1, 1, 1])[d]!)),
    ),
    chunkShape: chunk,
    groupShape: chunk,
    keyAt: (position) =>
      keyOf(
        scale,
        grid,
        position.map((p, d) => Math.floor(p / chunk[d]!)),
      ),
    readPlane: (request) => readScalePlane(image, index, request),
  };
}

function keyOf(scale: PrecomputedScale, grid: number[], chunk: number[]): string {
  if (scale.sharding) return `${scale.key}/${shardLocation(scale.sharding, compressedMortonCode(chunk, grid)).key}`;
  const size = scale.chunk_sizes[0]!;
  const bounds = chunk.map((g, d) => {
    const start = g * size[d]! + scale.voxel_offset[d]!;
    return `${start}-${Math.min(start + size[d]!, scale.voxel_offset[d]! + scale.size[d]!)}`;
  });
  return `${scale.key}/${bounds.join("_")}`;
}

async function readScalePlane(
  image: PrecomputedImage,
  index: number,
  { axes, at, rect, signal }: PlaneRequest,
): Promise<Plane> {
  const scale = image.info.scales[index]!;
  const lo = [0, 1, 2].map((d) => (d === axes[0] ? rect.r0 : d === axes[1] ? rect.c0 : at[d]!));
  const hi = [0, 1, 2].map((d) => (d === axes[0] ? rect.r1 : d === axes[1] ? rect.c1 : at[d]! + 1));
  const offset = scale.voxel_offset;
  const region = await image.read(
    {
      min: [lo[0]! + offset[0], lo[1]! + offset[1], lo[2]! + offset[2]],
      max: [hi[0]! + offset[0], hi[1]! + offset[1], hi[2]! + offset[2]],
    },
    { scale: index, ...(signal ? { signal } : {}) },
  );
  // [channel][z][y][x]: x fastest. Channel 0 is shown.
  const extent = [0, 1, 2].map((d) => hi[d]! - lo[d]!);
  const strides = [1, extent[0]!, extent[0]! * extent[1]!];
  return {
    rows: rect.r1 - rect.r0,
    cols: rect.c1 - rect.c0,
    values: region.data as Plane["values"],
    rowStride: strides[axes[0]]!,
    colStride: strides[axes[1]]!,
  };
}

export async function precomputedVolume(source: string, store: Store): Promise<Volume> {
  const image = await openPrecomputedImage(store);
  const info = image.info;
  return {
    kind: "precomputed",
    source,
    dataType: info.data_type,
    dimensionNames: ["x", "y", "z"],
    levels: info.scales.map((_, i) => scaleLevel(image, i)),
    // x across, y down.
    defaultAxes: [1, 0],
    isLabels: info.type === "segmentation",
    metadata: info,
  };
}
