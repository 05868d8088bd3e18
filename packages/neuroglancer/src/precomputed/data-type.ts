/** Voxel types of precomputed volumes (neuroglancer's set), with their typed arrays. */
export const DATA_TYPES = {
  uint8: Uint8Array,
  int8: Int8Array,
  uint16: Uint16Array,
  int16: Int16Array,
  uint32: Uint32Array,
  int32: Int32Array,
  uint64: BigUint64Array,
  float32: Float32Array,
} as const;

export type PrecomputedDataType = keyof typeof DATA_TYPES;

export type PrecomputedTypedArray = InstanceType<(typeof DATA_TYPES)[PrecomputedDataType]>;

export function bytesPerVoxel(dataType: PrecomputedDataType): number {
  return DATA_TYPES[dataType].BYTES_PER_ELEMENT;
}

/** View little-endian voxel bytes (a fresh, aligned buffer) as the data type's typed array. */
export function typedArrayOf(dataType: PrecomputedDataType, bytes: Uint8Array<ArrayBuffer>): PrecomputedTypedArray {
  const Ctor = DATA_TYPES[dataType];
  return new Ctor(bytes.buffer, bytes.byteOffset, bytes.byteLength / Ctor.BYTES_PER_ELEMENT);
}
