// The zarr-extensions `scale_offset` codec: out = (in - offset) * scale, decoded as in / scale + offset.
import {
  type ArrayToArrayCodec,
  type CodecFactory,
  InvalidMetadataError,
  showValue,
  UnsupportedError,
} from "@zarrkit/registry";
import { checkKeys } from "./config.js";

/** A required finite number of the configuration, or an error naming it. */
function readNumber(configuration: Record<string, unknown>, key: string, field: string): number {
  const value = Object.hasOwn(configuration, key) ? configuration[key] : undefined;
  if (typeof value !== "number" || !Number.isFinite(value)) {
    const path = `${field}.configuration.${key}`;
    throw new InvalidMetadataError(`${path} must be a finite number, got ${showValue(value)}`, { field: path });
  }
  return value;
}

/**
 * `scale_offset`: `{"offset", "scale"}` (both required; JSON numbers, as the
 * fill values of the float types they apply to). float32 and float64 arrays,
 * computed in the array's own precision (each float32 step rounded to
 * float32, as numpy computes it); the data type is unchanged, so a
 * `cast_value` after it narrows the values. `scale` must not be 0.
 */
export const scaleOffsetCodecFactory: CodecFactory = (configuration, ctx): ArrayToArrayCodec => {
  const field = ctx.field;
  checkKeys(configuration, ["offset", "scale"], field);
  const offset = readNumber(configuration, "offset", field);
  const scale = readNumber(configuration, "scale", field);
  if (scale === 0)
    throw new InvalidMetadataError(`${field}.configuration.scale must not be 0`, {
      field: `${field}.configuration.scale`,
    });
  const type = ctx.spec.dataType.name;
  if (type !== "float32" && type !== "float64") {
    throw new UnsupportedError(`${field}: scale_offset applies to float32 and float64 arrays here, not ${type}`, {
      field,
    });
  }
  const r = type === "float32" ? Math.fround : (x: number) => x;
  const [o, s] = [r(offset), r(scale)];
  const map = (values: Float32Array | Float64Array, f: (x: number) => number) => values.map(f);
  const encodeOne = (x: number) => r(r(x - o) * s);
  const decodeOne = (x: number) => r(r(x / s) + o);
  return {
    kind: "array_to_array",
    name: "scale_offset",
    encodedSpec: (spec) => ({ ...spec, fillValue: encodeOne(spec.fillValue as number) }),
    encode: (chunk) => ({ data: map(chunk.data as Float32Array, encodeOne), shape: [...chunk.shape] }),
    decode: (chunk) => ({ data: map(chunk.data as Float32Array, decodeOne), shape: [...chunk.shape] }),
    toJSON: () => ({ name: "scale_offset", configuration: { offset, scale } }),
  };
};
