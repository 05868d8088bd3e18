import { showValue } from "@zarrkit/registry";
import {
  type ArrayToArrayCodec,
  type Chunk,
  type ChunkSpec,
  type CodecFactory,
  InvalidMetadataError,
} from "@zarrkit/registry";
import { transposeChunk } from "../copy.js";
import { dataType } from "../data-types.js";

class TransposeCodec implements ArrayToArrayCodec {
  readonly kind = "array_to_array";
  readonly name = "transpose";
  private readonly inverse: number[];
  constructor(private readonly order: number[]) {
    this.inverse = new Array<number>(order.length);
    order.forEach((axis, d) => {
      this.inverse[axis] = d;
    });
  }

  encodedSpec(spec: ChunkSpec): ChunkSpec {
    return { ...spec, shape: this.order.map((axis) => spec.shape[axis]!) };
  }

  encode(chunk: Chunk, spec: ChunkSpec): Chunk {
    return transposeChunk(chunk, this.order, dataType(spec.dataType.name));
  }

  decode(chunk: Chunk, spec: ChunkSpec): Chunk {
    return transposeChunk(chunk, this.inverse, dataType(spec.dataType.name));
  }

  toJSON() {
    return { name: "transpose", configuration: { order: [...this.order] } };
  }
}

export const transposeCodecFactory: CodecFactory = (configuration, ctx) => {
  const order = configuration.order;
  const rank = ctx.spec.shape.length;
  const field = `${ctx.field}.configuration.order`;
  const valid =
    Array.isArray(order) &&
    order.length === rank &&
    order.every((a) => Number.isInteger(a) && a >= 0 && a < rank) &&
    new Set(order).size === rank;
  if (!valid) {
    throw new InvalidMetadataError(`${field} must be a permutation of 0..${rank - 1}, got ${showValue(order)}`, {
      field,
    });
  }
  return new TransposeCodec(order as number[]);
};
