import { showValue } from "@zarrkit/registry";
import {
  type ArrayToBytesCodec,
  type Chunk,
  type ChunkSpec,
  type CodecContext,
  type CodecFactory,
  CorruptDataError,
  InvalidMetadataError,
  InvalidSelectionError,
  UnsupportedError,
} from "@zarrkit/registry";
import { type DataType, dataType, fixedStringParts } from "../data-types.js";
import { float16BitsToNumber, numberToFloat16Bits } from "../float16.js";
import { decodeNarrow, encodeNarrow } from "../narrow-storage.js";
import { product } from "../selection.js";
import { swapStructBytes } from "../struct-type.js";

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

/**
 * Fixed-width strings (numpy `U n`, `S n`): each element in `byteSize` bytes,
 * UTF-32 code units in the codec's byte order or Latin-1 bytes, padded with
 * NULs. Strings too long or with characters the type cannot hold are refused,
 * never truncated.
 */
function encodeFixedStrings(data: string[], type: DataType, endian: Endian): Uint8Array {
  const width = type.byteSize!;
  const out = new Uint8Array(data.length * width);
  const view = new DataView(out.buffer);
  const utf32 = type.storedSlotSize === 4;
  const little = endian === "little";
  const refuse = (i: number, why: string): never => {
    throw new InvalidSelectionError(
      `Element ${i} (${showValue(data[i])}) does not fit data type ${type.name}: ${why}`,
      { field: "value" },
    );
  };
  for (let i = 0; i < data.length; i++) {
    const s = data[i]!;
    if (typeof s !== "string") refuse(i, "not a string");
    let at = i * width;
    const end = at + width;
    if (utf32) {
      for (const ch of s) {
        if (at >= end) refuse(i, `longer than ${width / 4} characters`);
        view.setUint32(at, ch.codePointAt(0)!, little);
        at += 4;
      }
    } else {
      if (s.length > width) refuse(i, `longer than ${width} bytes`);
      for (let c = 0; c < s.length; c++) {
        const code = s.charCodeAt(c);
        if (code > 0xff)
          refuse(i, `character ${c} is beyond Latin-1 (U+${code.toString(16).toUpperCase().padStart(4, "0")})`);
        out[at++] = code;
      }
    }
  }
  return out;
}

/** `make(...codes)` for any number of codes (spreading a long list would overflow the stack). */
function inPieces(codes: ArrayLike<number>, make: (...codes: number[]) => string): string {
  let out = "";
  for (let i = 0; i < codes.length; i += 8192)
    out += make(...Array.from({ length: Math.min(8192, codes.length - i) }, (_, j) => codes[i + j]!));
  return out;
}

function decodeFixedStrings(bytes: Uint8Array, spec: ChunkSpec, type: DataType, endian: Endian, key: string): Chunk {
  const width = type.byteSize!;
  const elements = product(spec.shape);
  if (bytes.length !== elements * width) {
    throw new CorruptDataError(
      `Chunk ${key} has ${bytes.length} bytes where shape [${spec.shape.join(", ")}] of ${type.name} ` +
        `needs ${elements * width}`,
      { key },
    );
  }
  const data = new Array<string>(elements);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const little = endian === "little";
  const utf32 = type.storedSlotSize === 4;
  for (let i = 0; i < elements; i++) {
    const start = i * width;
    let end = start + width;
    if (utf32) {
      // Trailing NUL code points are padding (numpy strips them too).
      while (end > start && view.getUint32(end - 4, little) === 0) end -= 4;
      const codes: number[] = [];
      for (let at = start; at < end; at += 4) {
        const code = view.getUint32(at, little);
        if (code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) {
          throw new CorruptDataError(`Chunk ${key}: element ${i} holds ${code}, not a Unicode scalar value`, { key });
        }
        codes.push(code);
      }
      data[i] = inPieces(codes, String.fromCodePoint);
    } else {
      while (end > start && bytes[end - 1] === 0) end--;
      data[i] = inPieces(bytes.subarray(start, end), String.fromCharCode);
    }
  }
  return { data, shape: [...spec.shape] };
}

function encodeChunk(chunk: Chunk, type: DataType, endian: Endian): Uint8Array {
  const data = chunk.data;
  if (Array.isArray(data)) {
    if (fixedStringParts(type)) return encodeFixedStrings(data as string[], type, endian);
    throw new UnsupportedError(`The bytes codec cannot encode ${type.name}; use ${type.objectCodecId ?? "vlen-utf8"}`);
  }
  let bytes: Uint8Array;
  if (type.narrow) {
    bytes = encodeNarrow(type.narrow, data, type.name);
  } else if (type.widenedFloat16) {
    const bits = new Uint16Array(data.length);
    for (let i = 0; i < data.length; i++) bits[i] = numberToFloat16Bits((data as Float32Array)[i]!);
    bytes = new Uint8Array(bits.buffer);
  } else {
    bytes = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  }
  if (type.storedSlotSize > 1 && (endian === "little") !== HOST_LITTLE_ENDIAN) {
    bytes = copyOf(bytes);
    if (type.struct) swapStructBytes(bytes, type.struct, bytes.length / type.struct.size);
    else swapBytes(bytes, type.storedSlotSize);
  }
  return bytes;
}

function decodeChunk(bytes: Uint8Array, spec: ChunkSpec, type: DataType, endian: Endian, key: string): Chunk {
  if (fixedStringParts(type)) return decodeFixedStrings(bytes, spec, type, endian, key);
  const elements = product(spec.shape);
  const expected = elements * type.byteSize!;
  if (bytes.length !== expected) {
    throw new CorruptDataError(
      `Chunk ${key} has ${bytes.length} bytes where shape [${spec.shape.join(", ")}] of ${type.name} needs ${expected}`,
      { key },
    );
  }
  // A struct's records are bytes (Uint8Array), whatever its widest field: no alignment needed.
  const slot = type.struct ? 1 : type.storedSlotSize;
  const swap = type.storedSlotSize > 1 && (endian === "little") !== HOST_LITTLE_ENDIAN;
  // Typed arrays need aligned views: a Node Buffer at an odd offset of its pool (Buffer#slice is a view) is copied.
  if (swap || bytes.byteOffset % slot !== 0) {
    bytes = copyOf(bytes);
    if (swap && type.struct) swapStructBytes(bytes, type.struct, elements);
    else if (swap) swapBytes(bytes, slot);
  }
  const shape = [...spec.shape];
  if (type.narrow) return { data: decodeNarrow(type.narrow, bytes, elements), shape };
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

/** Whether `codec` is the `bytes` codec, whose decoding is synchronous and views its input where it can. */
export function isBytesCodec(codec: ArrayToBytesCodec): codec is BytesCodec {
  return codec instanceof BytesCodec;
}

export const bytesCodecFactory: CodecFactory = (configuration, ctx) => {
  const endian = configuration.endian;
  const field = `${ctx.field}.configuration.endian`;
  if (endian !== undefined && endian !== "little" && endian !== "big") {
    throw new InvalidMetadataError(`${field} must be "little" or "big", got ${showValue(endian)}`, { field });
  }
  const type = ctx.spec.dataType;
  if (type.byteSize === undefined) {
    throw new InvalidMetadataError(
      `${ctx.field}: the bytes codec cannot store data type ${type.name}; ` +
        `use ${dataType(type.name).objectCodecId ?? "vlen-utf8"}`,
      {
        field: ctx.field,
      },
    );
  }
  if (endian === undefined && dataType(type.name).storedSlotSize > 1) {
    throw new InvalidMetadataError(`${field} is required for data type ${type.name}`, { field });
  }
  return new BytesCodec(endian);
};
