import { showValue } from "@zarrkit/registry";
import {
  type ArrayToBytesCodec,
  type Chunk,
  type ChunkSpec,
  type CodecContext,
  type CodecFactory,
  CorruptDataError,
  InvalidMetadataError,
  UnsupportedError,
} from "@zarrkit/registry";
import { type DataType, dataType } from "../data-types.js";
import { float16BitsToNumber, numberToFloat16Bits } from "../float16.js";
import { product } from "../selection.js";

type Endian = "little" | "big";

const HOST_LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/** Reverse the byte order of each `slotSize`-byte slot, in place. */
function swapBytes(bytes: Uint8Array, slotSize: number): void {
  for (let i = 0; i < bytes.length; i += slotSize) {
    for (let a = i, b = i + slotSize - 1; a < b; a++, b--) {
      const t = bytes[a]!;
      bytes[a] = bytes[b]!;
      bytes[b] = t;
    }
  }
}

/**
 * A copy in a fresh buffer of its own (offset 0, so aligned for any type).
 * Not `bytes.slice()`: on a Node Buffer that is a view sharing the same offset.
 */
function copyOf(bytes: Uint8Array): Uint8Array {
  return Uint8Array.prototype.slice.call(bytes);
}

function encodeChunk(chunk: Chunk, type: DataType, endian: Endian): Uint8Array {
  const data = chunk.data;
  if (Array.isArray(data)) throw new UnsupportedError(`The bytes codec cannot encode ${type.name}; use vlen-utf8`);
  let bytes: Uint8Array;
  if (type.widenedFloat16) {
    const bits = new Uint16Array(data.length);
    for (let i = 0; i < data.length; i++) bits[i] = numberToFloat16Bits((data as Float32Array)[i]!);
    bytes = new Uint8Array(bits.buffer);
  } else {
    bytes = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  }
  if (type.storedSlotSize > 1 && (endian === "little") !== HOST_LITTLE_ENDIAN) {
    bytes = copyOf(bytes);
    swapBytes(bytes, type.storedSlotSize);
  }
  return bytes;
}

function decodeChunk(bytes: Uint8Array, spec: ChunkSpec, type: DataType, endian: Endian, key: string): Chunk {
  const elements = product(spec.shape);
  const expected = elements * type.byteSize!;
  if (bytes.length !== expected) {
    throw new CorruptDataError(
      `Chunk ${key} has ${bytes.length} bytes where shape [${spec.shape.join(", ")}] of ${type.name} needs ${expected}`,
      { key },
    );
  }
  const slot = type.storedSlotSize;
  const swap = slot > 1 && (endian === "little") !== HOST_LITTLE_ENDIAN;
  // Typed arrays need aligned views: a Node Buffer at an odd offset of its pool (Buffer#slice is a view) is copied.
  if (swap || bytes.byteOffset % slot !== 0) {
    bytes = copyOf(bytes);
    if (swap) swapBytes(bytes, slot);
  }
  const shape = [...spec.shape];
  if (type.widenedFloat16) {
    const bits = new Uint16Array(bytes.buffer, bytes.byteOffset, elements);
    const data = new Float32Array(elements);
    for (let i = 0; i < elements; i++) data[i] = float16BitsToNumber(bits[i]!);
    return { data, shape };
  }
  const ArrayType = type.arrayType!;
  return { data: new ArrayType(bytes.buffer as ArrayBuffer, bytes.byteOffset, elements * type.lanes), shape };
}

class BytesCodec implements ArrayToBytesCodec {
  readonly kind = "array_to_bytes";
  readonly name = "bytes";
  constructor(private readonly endian: Endian | undefined) {}

  encode(chunk: Chunk, spec: ChunkSpec): Uint8Array {
    return encodeChunk(chunk, dataType(spec.dataType.name), this.endian ?? "little");
  }

  decode(bytes: Uint8Array, spec: ChunkSpec, ctx: CodecContext): Chunk {
    return decodeChunk(bytes, spec, dataType(spec.dataType.name), this.endian ?? "little", ctx.key);
  }

  encodedSize(spec: ChunkSpec): number | undefined {
    return spec.dataType.byteSize === undefined ? undefined : product(spec.shape) * spec.dataType.byteSize;
  }

  toJSON() {
    return this.endian ? { name: "bytes", configuration: { endian: this.endian } } : { name: "bytes" };
  }
}

export const bytesCodecFactory: CodecFactory = (configuration, ctx) => {
  const endian = configuration.endian;
  const field = `${ctx.field}.configuration.endian`;
  if (endian !== undefined && endian !== "little" && endian !== "big") {
    throw new InvalidMetadataError(`${field} must be "little" or "big", got ${showValue(endian)}`, { field });
  }
  const type = ctx.spec.dataType;
  if (type.byteSize === undefined) {
    throw new InvalidMetadataError(`${ctx.field}: the bytes codec cannot store data type ${type.name}; use vlen-utf8`, {
      field: ctx.field,
    });
  }
  if (endian === undefined && type.byteSize / type.lanes > 1) {
    throw new InvalidMetadataError(`${field} is required for data type ${type.name}`, { field });
  }
  return new BytesCodec(endian);
};
