/**
 * The in-memory array `get()` returns for each data type name, for narrowing
 * with `ZarrArray.is(name)` or `openArray(store, path, { dataType: name })`.
 * complex types hold interleaved [re, im] pairs. float16 is left out: its
 * class depends on the runtime (Float16Array where there is one, else Float32Array).
 */
export interface DataTypeArrays {
  /** `bool` elements. */
  bool: Uint8Array;
  /** `int8` elements. */
  int8: Int8Array;
  /** `int16` elements. */
  int16: Int16Array;
  /** `int32` elements. */
  int32: Int32Array;
  /** `int64` elements. */
  int64: BigInt64Array;
  /** `uint8` elements. */
  uint8: Uint8Array;
  /** `uint16` elements. */
  uint16: Uint16Array;
  /** `uint32` elements. */
  uint32: Uint32Array;
  /** `uint64` elements. */
  uint64: BigUint64Array;
  /** `float32` elements. */
  float32: Float32Array;
  /** `float64` elements. */
  float64: Float64Array;
  /** `complex64` elements. */
  complex64: Float32Array;
  /** `complex128` elements. */
  complex128: Float64Array;
  /** `bfloat16` elements (every bfloat16 value is a float32 value). */
  bfloat16: Float32Array;
  /** `float8_e3m4` elements. */
  float8_e3m4: Float32Array;
  /** `float8_e4m3` elements. */
  float8_e4m3: Float32Array;
  /** `float8_e4m3fn` elements. */
  float8_e4m3fn: Float32Array;
  /** `float8_e4m3fnuz` elements. */
  float8_e4m3fnuz: Float32Array;
  /** `float8_e4m3b11fnuz` elements. */
  float8_e4m3b11fnuz: Float32Array;
  /** `float8_e5m2` elements. */
  float8_e5m2: Float32Array;
  /** `float8_e5m2fnuz` elements. */
  float8_e5m2fnuz: Float32Array;
  /** `float8_e8m0fnu` elements. */
  float8_e8m0fnu: Float32Array;
  /** `float6_e2m3fn` elements. */
  float6_e2m3fn: Float32Array;
  /** `float6_e3m2fn` elements. */
  float6_e3m2fn: Float32Array;
  /** `float4_e2m1fn` elements. */
  float4_e2m1fn: Float32Array;
  /** `int2` elements. */
  int2: Int8Array;
  /** `int4` elements. */
  int4: Int8Array;
  /** `uint2` elements. */
  uint2: Uint8Array;
  /** `uint4` elements. */
  uint4: Uint8Array;
  /** `string` elements. */
  string: string[];
  /** `variable_length_bytes` elements. */
  variable_length_bytes: Uint8Array[];
}

/** A data type name with a known in-memory array. */
export type DataTypeName = keyof DataTypeArrays;
