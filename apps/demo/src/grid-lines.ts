// What the inspector says about an array's layout: the codec chain in one line,
// and where its chunks (shards) start along a dimension, rectilinear grids included.
import type { ZarrArray } from "zarrkit";

interface CodecJson {
  name?: string;
  configuration?: { codecs?: CodecJson[]; index_codecs?: CodecJson[] };
}

function chain(codecs: readonly CodecJson[]): string {
  return codecs
    .map((codec) => {
      const inner = codec.configuration?.codecs;
      if (codec.name !== "sharding_indexed" || !inner) return codec.name ?? "?";
      return `sharding_indexed(${chain(inner)}; index: ${chain(codec.configuration?.index_codecs ?? [])})`;
    })
    .join(" → ");
}

/** The codec chain of an array's metadata (v3 `codecs`; v2 filters, compressor) in one line. */
export function codecChain(metadata: Record<string, unknown>): string {
  if (Array.isArray(metadata.codecs)) return chain(metadata.codecs as CodecJson[]);
  const filters = Array.isArray(metadata.filters)
    ? (metadata.filters as { id?: string }[]).map((f) => f.id ?? "?")
    : [];
  const compressor = (metadata.compressor as { id?: string } | null | undefined)?.id;
  return [...filters, "bytes", ...(compressor ? [compressor] : [])].join(" → ");
}

/**
 * The start of every grid cell (chunk, or shard when sharded) along `dim`, then the end; undefined past `max` cells.
 */
export function cellBoundaries(array: ZarrArray, dim: number, max = 256): number[] | undefined {
  const cells = array.gridShape[dim]!;
  if (cells > max) return undefined;
  const coords = array.shape.map(() => 0);
  const bounds = [0];
  for (let i = 0; i < cells; i++) {
    coords[dim] = i;
    bounds.push(Math.min(array.shape[dim]!, bounds[i]! + array.chunkSpec(coords).shape[dim]!));
  }
  return bounds;
}
