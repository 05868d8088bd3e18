/** Voxel types of precomputed volumes (neuroglancer's set), with their typed arrays. */
const CONSTRUCTORS = {
  uint8: Uint8Array,
  int8: Int8Array,
  uint16: Uint16Array,
  int16: Int16Array,
  uint32: Uint32Array,
  int32: Int32Array,
  uint64: BigUint64Array,
  float32: Float32Array,
} as const;

/** A precomputed `data_type`: uint8 ... float64. */
export type PrecomputedDataType = keyof typeof CONSTRUCTORS;

/** The typed array of a `PrecomputedDataType`. */
export type PrecomputedTypedArray = InstanceType<(typeof CONSTRUCTORS)[PrecomputedDataType]>;

type Constructor = (typeof CONSTRUCTORS)[PrecomputedDataType];

/**
 * Looked up in a Map, never by indexing an object: a name read from a file
 * such as "constructor" or "toString" must not find Object.prototype members.
 */
export const DATA_TYPES: ReadonlyMap<string, Constructor> = new Map(Object.entries(CONSTRUCTORS));

export function isPrecomputedDataType(name: unknown): name is PrecomputedDataType {
  return typeof name === "string" && DATA_TYPES.has(name);
}

function constructorOf(dataType: PrecomputedDataType): Constructor {
  const Ctor = DATA_TYPES.get(dataType);
  if (!Ctor) throw new TypeError(`not a precomputed data type: ${String(dataType)}`); // unreachable after parsing
  return Ctor;
}

export function bytesPerVoxel(dataType: PrecomputedDataType): number {
  return constructorOf(dataType).BYTES_PER_ELEMENT;
}

/** View little-endian voxel bytes (a fresh, aligned buffer) as the data type's typed array. */
export function typedArrayOf(dataType: PrecomputedDataType, bytes: Uint8Array<ArrayBuffer>): PrecomputedTypedArray {
  const Ctor = constructorOf(dataType);
  return new Ctor(bytes.buffer, bytes.byteOffset, bytes.byteLength / Ctor.BYTES_PER_ELEMENT);
}
