/**
 * The in-memory array `get()` returns for each data type name, for narrowing
 * with `ZarrArray.is(name)` or `openArray(store, path, { dataType: name })`.
 * complex types hold interleaved [re, im] pairs. float16 is left out: its
 * class depends on the runtime (Float16Array where there is one, else Float32Array).
 */
export interface DataTypeArrays {
  bool: Uint8Array;
  int8: Int8Array;
  int16: Int16Array;
  int32: Int32Array;
  int64: BigInt64Array;
  uint8: Uint8Array;
  uint16: Uint16Array;
  uint32: Uint32Array;
  uint64: BigUint64Array;
  float32: Float32Array;
  float64: Float64Array;
  complex64: Float32Array;
  complex128: Float64Array;
  string: string[];
  variable_length_bytes: Uint8Array[];
}

/** A data type name with a known in-memory array. */
export type DataTypeName = keyof DataTypeArrays;
