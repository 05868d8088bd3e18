import {
  type ArrayToArrayCodec,
  type CodecFactory,
  InvalidMetadataError,
  type NumericArray,
  type Scalar,
  showValue,
} from "@zarrkit/registry";
import { checkKeys, readString } from "../config.js";
import { readType } from "./dtypes.js";

/**
 * `numcodecs.categorize`: `{"labels": [...], "dtype": "|O" | "<U<n>", "astype": "|u1"}`;
 * strings become 1 + the index of their label (the last one, if labels repeat,
 * as numcodecs assigns them in order), 0 for any other string; 0 and unknown
 * codes decode to "".
 */
export const numcodecsCategorizeCodecFactory: CodecFactory = (configuration, ctx): ArrayToArrayCodec => {
  const field = ctx.field;
  checkKeys(configuration, ["labels", "dtype", "astype"], field);
  if (ctx.spec.dataType.kind !== "string") {
    throw new InvalidMetadataError(
      `${field}: numcodecs.categorize encodes string arrays, not ${ctx.spec.dataType.name}`,
      { field },
    );
  }
  const labels = Object.hasOwn(configuration, "labels") ? configuration.labels : undefined;
  if (!Array.isArray(labels) || !labels.every((l): l is string => typeof l === "string")) {
    const path = `${field}.configuration.labels`;
    throw new InvalidMetadataError(`${path} must be a list of strings, got ${showValue(labels)}`, { field: path });
  }
  const dtype = readString(configuration, "dtype", field) ?? "|O";
  if (!/^(\|O|[<>|=]?U\d+)$/.test(dtype)) {
    const path = `${field}.configuration.dtype`;
    throw new InvalidMetadataError(
      `${path} must be "|O" or a NumPy unicode type such as "<U8", got ${showValue(dtype)}`,
      { field: path },
    );
  }
  const astypeName = readString(configuration, "astype", field) ?? "|u1";
  const astype = readType(configuration, "astype", field, "|u1")!;
  const codes = new Map<string, number>();
  for (const [i, label] of labels.entries()) codes.set(label, i + 1);
  const encode = (items: readonly string[]): NumericArray => {
    const out = astype.allocate(items.length) as NumericArray;
    if (astype.bigint)
      for (let i = 0; i < items.length; i++) (out as BigInt64Array)[i] = BigInt(codes.get(items[i]!) ?? 0);
    else for (let i = 0; i < items.length; i++) (out as Float64Array)[i] = codes.get(items[i]!) ?? 0;
    return out;
  };
  const decode = (values: NumericArray): string[] => {
    const out = new Array<string>(values.length);
    for (let i = 0; i < values.length; i++) {
      const code = Number(values[i]!);
      out[i] = Number.isInteger(code) && code >= 1 && code <= labels.length ? labels[code - 1]! : "";
    }
    return out;
  };
  const encodeScalar = (value: Scalar): Scalar => {
    const code = typeof value === "string" ? (codes.get(value) ?? 0) : 0;
    return astype.bigint ? BigInt(code) : code;
  };
  return {
    kind: "array_to_array",
    name: "numcodecs.categorize",
    encodedSpec: (spec) => ({ ...spec, dataType: astype, fillValue: encodeScalar(spec.fillValue) }),
    encode: (chunk) => ({ data: encode(chunk.data as string[]), shape: [...chunk.shape] }),
    decode: (chunk) => ({ data: decode(chunk.data as NumericArray), shape: [...chunk.shape] }),
    toJSON: () => ({ name: "numcodecs.categorize", configuration: { labels: [...labels], dtype, astype: astypeName } }),
  };
};
