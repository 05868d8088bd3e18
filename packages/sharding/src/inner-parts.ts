import { cartesian, dimensionParts, regularChunkGrid } from "@zarrkit/core/internal";
import type { ArrayRegion, DimSlice } from "@zarrkit/registry";
import type { ShardingConfig } from "./config.js";

/** One inner chunk a selection of a shard touches. */
export interface InnerPart {
  /** Index of the inner chunk in C order of the shard's inner chunk grid. */
  linear: number;
  coords: number[];
  /** The selection inside the inner chunk. */
  local: DimSlice[];
  /** Position of the part in the selection's output (relative to the selection's origin). */
  outOffset: number[];
  counts: number[];
  /** The selection covers the whole inner chunk. */
  full: boolean;
}

/** The geometry of a shard's inner chunk grid: which inner chunks a selection touches, and where. */
export class InnerGrid {
  private readonly dims;
  private readonly strides: number[];

  constructor(private readonly config: ShardingConfig) {
    this.dims = regularChunkGrid(config.chunkShape, config.chunkShape).dims;
    this.strides = config.gridShape.map((_, d) => config.gridShape.slice(d + 1).reduce((a, b) => a * b, 1));
  }

  /** The inner chunks `selection` touches, one at a time: a shard may hold millions. */
  *parts(selection: readonly DimSlice[]): Generator<InnerPart> {
    const perDim = selection.map((s, d) => dimensionParts(s, this.dims[d]!));
    const chunkShape = this.config.chunkShape;
    for (const dims of cartesian(perDim)) {
      const coords = dims.map((p) => p.chunkIndex);
      const local = dims.map((p) => p.local);
      yield {
        linear: coords.reduce((n, c, d) => n + c * this.strides[d]!, 0),
        coords,
        local,
        outOffset: dims.map((p) => p.outOffset),
        counts: dims.map((p) => p.count),
        full: local.every((s, d) => s.start === 0 && s.step === 1 && s.stop === chunkShape[d]),
      };
    }
  }
}

export function coversShard(selection: readonly DimSlice[], shape: readonly number[]): boolean {
  return selection.every((s, d) => s.start === 0 && s.step === 1 && s.stop === shape[d]);
}

/** Where a part lands in (or comes from) the caller's array. */
export function partTarget(part: InnerPart, out: ArrayRegion): ArrayRegion {
  return { chunk: out.chunk, offset: part.outOffset.map((o, d) => out.offset[d]! + o) };
}

/** The key an inner chunk is known by in errors and caches: the shard's key and the chunk's coordinates. */
export function innerKey(shardKey: string, part: InnerPart): string {
  return `${shardKey}[${part.coords.join(",")}]`;
}
