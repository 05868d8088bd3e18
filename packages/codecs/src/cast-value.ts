// The zarr-extensions `cast_value` codec: an array->array cast to another data type by value.
import {
  type ArrayToArrayCodec,
  type ChunkSpec,
  type CodecFactory,
  CorruptDataError,
  InvalidMetadataError,
  InvalidSelectionError,
  type NumericArray,
  type Scalar,
  showValue,
  UnsupportedError,
} from "@zarrkit/registry";
import { checkKeys, readChoice } from "./config.js";
import { type NumericType, numericType } from "./numeric-types.js";
import { type CastRules, castValues, OUT_OF_RANGE, ROUNDINGS } from "./value-cast.js";

/** A numeric type this codec casts (int8..uint64, float32, float64), or an error naming `path`. */
function castableType(name: unknown, path: string): NumericType {
  if (typeof name !== "string")
    throw new InvalidMetadataError(`${path} must be a data type name, got ${showValue(name)}`, { field: path });
  const type = /^[a-z]/.test(name) ? numericType(name, path) : undefined;
  if (!type)
    throw new UnsupportedError(`${path}: cast_value casts int8..uint64, float32 and float64, not ${showValue(name)}`, {
      field: path,
    });
  return type;
}

function castScalar(value: Scalar, from: NumericType, to: NumericType, rules: CastRules, field: string): Scalar {
  const one = from.allocate(1) as NumericArray;
  (one as unknown as Scalar[])[0] = from.bigint ? BigInt(value as number | bigint) : Number(value);
  const cast = castValues(one, from, to, rules, (_, why) => {
    throw new InvalidMetadataError(`${field}: the fill value cannot be cast: ${why}`, { field });
  });
  return cast[0]!;
}

/**
 * `cast_value`: `{"data_type", "rounding"?, "out_of_range"?}`. Encoding casts
 * the chunk to `data_type`, decoding casts it back, both by the same rules
 * (see `castValues`); a value the rules refuse is an `InvalidSelectionError`
 * when writing and a `CorruptDataError` naming the key when reading.
 */
export const castValueCodecFactory: CodecFactory = (configuration, ctx): ArrayToArrayCodec => {
  const field = ctx.field;
  checkKeys(configuration, ["data_type", "rounding", "out_of_range"], field);
  const from = castableType(ctx.spec.dataType.name, `${field} (the array's data type)`);
  const to = castableType(configuration.data_type, `${field}.configuration.data_type`);
  const rules: CastRules = {
    rounding: readChoice(configuration, "rounding", field, ROUNDINGS, "nearest-even"),
    outOfRange: readChoice(configuration, "out_of_range", field, OUT_OF_RANGE, "error"),
  };
  if (rules.outOfRange === "wrap" && to.kind === "float") {
    const path = `${field}.configuration.out_of_range`;
    throw new InvalidMetadataError(`${path}: "wrap" is for integer data types, not ${to.name}`, { field: path });
  }
  castScalar(ctx.spec.fillValue, from, to, rules, field); // a fill value the cast refuses refuses the array
  // As given: the optional fields only when present.
  const stored = {
    data_type: to.name,
    ...(Object.hasOwn(configuration, "rounding") && { rounding: rules.rounding }),
    ...(Object.hasOwn(configuration, "out_of_range") && { out_of_range: rules.outOfRange }),
  };
  return {
    kind: "array_to_array",
    name: "cast_value",
    encodedSpec: (spec: ChunkSpec) => ({
      ...spec,
      dataType: to,
      fillValue: castScalar(spec.fillValue, from, to, rules, field),
    }),
    encode: (chunk) => ({
      data: castValues(chunk.data as NumericArray, from, to, rules, (i, why) => {
        throw new InvalidSelectionError(`Element ${i} cannot be cast to ${to.name} (${field}): ${why}`, {
          field: "value",
        });
      }),
      shape: [...chunk.shape],
    }),
    decode: (chunk, _spec, codecCtx) => ({
      data: castValues(chunk.data as NumericArray, to, from, rules, (i, why) => {
        throw new CorruptDataError(`Chunk ${codecCtx.key}: element ${i} cannot be cast back to ${from.name}: ${why}`, {
          key: codecCtx.key,
        });
      }),
      shape: [...chunk.shape],
    }),
    toJSON: () => ({ name: "cast_value", configuration: stored }),
  };
};
