// Minimal stand-ins for what @zarrkit/core provides (data types, chunk specs),
// so these tests do not depend on core, plus fixture readers.
import { readFileSync } from "node:fs";
import type {
  ArrayData,
  ChunkSpec,
  Codec,
  CodecContext,
  CodecFactory,
  DataTypeInfo,
  DataTypeKind,
  Scalar,
} from "@zarrkit/registry";
import { fixturePath } from "@zarrkit/test-utils/fixtures";

type Ctor = { new (length: number): ArrayData & { length: number } };

const NUMERIC: Record<string, [DataTypeKind, Ctor]> = {
  bool: ["bool", Uint8Array],
  int8: ["int", Int8Array],
  int16: ["int", Int16Array],
  int32: ["int", Int32Array],
  int64: ["int", BigInt64Array],
  uint8: ["uint", Uint8Array],
  uint16: ["uint", Uint16Array],
  uint32: ["uint", Uint32Array],
  uint64: ["uint", BigUint64Array],
  float32: ["float", Float32Array],
  float64: ["float", Float64Array],
};

export function dataType(name: string): DataTypeInfo {
  if (name === "string") {
    return { name, kind: "string", byteSize: undefined, lanes: 1, allocate: (n) => new Array<string>(n).fill("") };
  }
  if (name === "variable_length_bytes") {
    return {
      name,
      kind: "bytes",
      byteSize: undefined,
      lanes: 1,
      allocate: (n) => new Array<Uint8Array>(n).fill(new Uint8Array(0)),
    };
  }
  if (name === "float16") {
    return { name, kind: "float", byteSize: 2, lanes: 1, allocate: (n) => new Float32Array(n) };
  }
  const [kind, ArrayType] = NUMERIC[name]!;
  const byteSize = (ArrayType as unknown as { BYTES_PER_ELEMENT: number }).BYTES_PER_ELEMENT;
  return { name, kind, byteSize, lanes: 1, allocate: (n) => new ArrayType(n) };
}

export function chunkSpec(shape: number[], type: string, fillValue?: Scalar): ChunkSpec {
  const dt = dataType(type);
  const fill =
    fillValue ??
    (type === "string"
      ? ""
      : dt.kind === "bytes"
        ? new Uint8Array(0)
        : type.endsWith("64") && dt.kind !== "float"
          ? 0n
          : 0);
  return { shape, dataType: dt, fillValue: fill };
}

export const FIELD = "codecs[1]";

export async function create<C extends Codec>(
  factory: CodecFactory,
  configuration: Record<string, unknown>,
  spec: ChunkSpec = chunkSpec([16], "uint8"),
): Promise<C> {
  return (await factory(configuration, { spec, field: FIELD, options: {}, pipeline: { codecOptions: {} } })) as C;
}

export const ctx: CodecContext = { key: "arr/c/0" };

/** Byte equality without vitest's slow deep diff on large arrays. */
export function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && Buffer.compare(a, b) === 0;
}

/** Deterministic test bytes: smooth (compressible), noisy, or constant. */
export function sampleBytes(length: number, kind: "smooth" | "noise" | "zeros" = "smooth", seed = 1): Uint8Array {
  const out = new Uint8Array(length);
  if (kind === "zeros") return out;
  let state = seed >>> 0 || 1;
  for (let i = 0; i < length; i++) {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    out[i] = kind === "noise" ? state : (Math.round(100 * Math.sin(i / 500) + ((i >> 6) % 7)) + (state & 1)) & 0xff;
  }
  return out;
}

/** A stored value of the zarr-python v3 fixture, or undefined (after a warning) when the fixtures are absent. */
export function fixtureBytes(relative: string): Uint8Array | undefined {
  const path = fixturePath(`zarr-python-v3.zarr/${relative}`);
  return path === undefined ? undefined : new Uint8Array(readFileSync(path));
}

export function fixtureBytesV2(relative: string): Uint8Array | undefined {
  const path = fixturePath(`zarr-python-v2.zarr/${relative}`);
  return path === undefined ? undefined : new Uint8Array(readFileSync(path));
}

export interface ExpectedArray {
  shape: number[];
  data_type: string;
  data: unknown[];
}

export function expectedArray(name: string): ExpectedArray | undefined {
  const path = fixturePath("zarr-python-v3.expected.json");
  if (path === undefined) return undefined;
  return (JSON.parse(readFileSync(path, "utf8")) as { arrays: Record<string, ExpectedArray> }).arrays[name];
}

/** The codec list of a fixture array's zarr.json. */
export function fixtureCodecs(array: string): { name: string; configuration?: Record<string, unknown> }[] | undefined {
  const bytes = fixtureBytes(`${array}/zarr.json`);
  return bytes && JSON.parse(new TextDecoder().decode(bytes)).codecs;
}
