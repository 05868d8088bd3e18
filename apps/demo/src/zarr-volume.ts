// Zarr arrays (v3, v2, sharded or not) and OME-Zarr multiscale groups as volumes.
import { slice, type ZarrArray, type ZarrGroup, type ZarrNode } from "zarrkit";
import type { Level, Plane, PlaneRequest, Volume } from "./volume.js";

function isLabelArray(array: ZarrArray): boolean {
  return array.dataType === "uint64" || array.dataType === "int64" || /label|seg/i.test(array.path);
}

/** One level backed by a Zarr array. */
export function arrayLevel(array: ZarrArray, factors: readonly number[]): Level {
  return {
    array,
    path: array.path,
    shape: array.shape,
    factors,
    chunkShape: array.chunkShape,
    groupShape: array.shardShape ?? array.chunkShape,
    keyAt: (position) => {
      const grid = array.shardShape ?? array.chunkShape;
      return array.chunkKey(position.map((p, d) => Math.floor(p / grid[d]!)));
    },
    readPlane: (request) => readArrayPlane(array, request),
  };
}

async function readArrayPlane(array: ZarrArray, { axes, at, rect, signal }: PlaneRequest): Promise<Plane> {
  const selection = array.shape.map((_, d) =>
    d === axes[0] ? slice(rect.r0, rect.r1) : d === axes[1] ? slice(rect.c0, rect.c1) : at[d]!,
  );
  const { data } = await array.get(selection, signal ? { signal } : {});
  const rows = rect.r1 - rect.r0;
  const cols = rect.c1 - rect.c0;
  // The result keeps dimension order: transposed when the row axis comes after the column axis.
  const rowFirst = axes[0] < axes[1];
  return {
    rows,
    cols,
    values: data as Plane["values"],
    rowStride: rowFirst ? cols : 1,
    colStride: rowFirst ? 1 : rows,
  };
}

export function arrayVolume(source: string, array: ZarrArray): Volume {
  const n = array.shape.length;
  return {
    kind: "zarr",
    source,
    dataType: array.dataType,
    dimensionNames: array.shape.map((_, d) => array.dimensionNames?.[d] ?? `dim ${d}`),
    levels: [
      arrayLevel(
        array,
        array.shape.map(() => 1),
      ),
    ],
    defaultAxes: n >= 2 ? [n - 2, n - 1] : [0, 0],
    isLabels: isLabelArray(array),
    metadata: array.metadata,
  };
}

interface OmeDataset {
  path: string;
  coordinateTransformations?: { type: string; scale?: number[] }[];
}

/**
 * The datasets of an OME-Zarr multiscale group (0.4: attributes.multiscales, 0.5: attributes.ome.multiscales), if it is
 * one.
 */
export function omeDatasets(attributes: Record<string, unknown>): OmeDataset[] | undefined {
  const ome = (attributes.ome as Record<string, unknown> | undefined) ?? attributes;
  const multiscales = ome.multiscales;
  if (!Array.isArray(multiscales) || multiscales.length === 0) return undefined;
  const datasets = (multiscales[0] as { datasets?: unknown }).datasets;
  if (!Array.isArray(datasets) || datasets.length === 0) return undefined;
  return datasets.filter(
    (d): d is OmeDataset => typeof d === "object" && d !== null && typeof (d as OmeDataset).path === "string",
  );
}

function datasetScale(dataset: OmeDataset, rank: number): number[] {
  const scale = dataset.coordinateTransformations?.find((t) => t.type === "scale")?.scale;
  return Array.isArray(scale) && scale.length === rank ? scale : new Array(rank).fill(1);
}

export async function multiscaleVolume(
  source: string,
  group: ZarrGroup<ZarrNode>,
  datasets: OmeDataset[],
): Promise<Volume> {
  const arrays: ZarrArray[] = [];
  for (const dataset of datasets) {
    const node = await group.open(dataset.path);
    if (!("shape" in node)) throw new Error(`OME-Zarr dataset ${JSON.stringify(dataset.path)} is not an array`);
    arrays.push(node as ZarrArray);
  }
  const first = arrays[0]!;
  const base = datasetScale(datasets[0]!, first.shape.length);
  const levels = arrays.map((array, i) => {
    const scale = datasetScale(datasets[i]!, array.shape.length);
    return arrayLevel(
      array,
      scale.map((s, d) => Math.max(1, Math.round(s / base[d]!))),
    );
  });
  const volume = arrayVolume(source, first);
  return { ...volume, levels, metadata: { group: group.metadata, levels: arrays.map((a) => a.metadata) } };
}
