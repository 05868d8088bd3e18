// The zarr-extensions `reshape` codec: the same elements in C order, in another shape.
import {
  type ArrayToArrayCodec,
  type ChunkSpec,
  type CodecFactory,
  InvalidMetadataError,
  showValue,
} from "@zarrkit/registry";
import { checkKeys } from "./config.js";

/** One entry of `shape`: a size, the input dimensions whose product it is, or -1 (whatever makes the sizes add up). */
type ShapeEntry = number | readonly number[];

const product = (values: readonly number[]) => values.reduce((a, b) => a * b, 1);

/**
 * The entries of `shape`, checked for form: positive integers, lists of dimension indices in increasing
 * order, at most one -1.
 */
function parseShape(value: unknown, rank: number, path: string): ShapeEntry[] {
  const bad = (why: string): never => {
    throw new InvalidMetadataError(`${path} ${why}, got ${showValue(value)}`, { field: path });
  };
  if (!Array.isArray(value) || value.length === 0) return bad("must be a non-empty list");
  let last = -1;
  let autos = 0;
  for (const entry of value as unknown[]) {
    if (Array.isArray(entry)) {
      for (const d of entry) {
        if (!Number.isInteger(d) || d < 0 || d >= rank) bad(`lists input dimensions, each an integer in [0, ${rank})`);
        if (d <= last)
          bad("must list input dimensions in increasing order over all entries (reshape never transposes)");
        last = d;
      }
    } else if (entry === -1) {
      autos++;
    } else if (!Number.isSafeInteger(entry) || (entry as number) < 1) {
      bad("entries must be positive integers, lists of input dimensions or -1");
    }
  }
  if (autos > 1) bad("may hold -1 only once");
  return value as ShapeEntry[];
}

/** The output shape for an input of `input`, or an error naming `path` when the entries cannot produce it. */
function outputShape(entries: readonly ShapeEntry[], input: readonly number[], path: string): number[] {
  const fail = (why: string): never => {
    throw new InvalidMetadataError(`${path}: ${why} (input shape [${input.join(", ")}])`, { field: path });
  };
  const sizes = entries.map((e) =>
    e === -1 ? -1 : Array.isArray(e) ? product(e.map((d) => input[d]!)) : (e as number),
  );
  const total = product(input);
  const auto = sizes.indexOf(-1);
  if (auto >= 0) {
    const known = product(sizes.filter((s) => s !== -1));
    if (known === 0 ? total !== 0 : total % known !== 0) fail(`no size for -1 makes ${total} elements`);
    sizes[auto] = known === 0 ? 0 : total / known;
  }
  if (product(sizes) !== total) fail(`the output shape [${sizes.join(", ")}] does not hold the ${total} elements`);
  entries.forEach((e, i) => {
    if (!Array.isArray(e) || e.length === 0) return;
    // The output dimension must be the raveled index over exactly those input dimensions.
    const before = product(sizes.slice(0, i)) === product(input.slice(0, e[0]!));
    const after = product(sizes.slice(i + 1)) === product(input.slice(e.at(-1)! + 1));
    if (!before || !after) fail(`entry ${i} ([${e.join(", ")}]) is not the raveled index over those input dimensions`);
  });
  return sizes;
}

/**
 * `reshape`: `{"shape": [...]}`. The chunk's data is shared, not copied: only
 * its shape changes (C order is kept). The decode cap is unchanged, as the
 * element count is.
 */
export const reshapeCodecFactory: CodecFactory = (configuration, ctx): ArrayToArrayCodec => {
  const field = ctx.field;
  checkKeys(configuration, ["shape"], field);
  const path = `${field}.configuration.shape`;
  const entries = parseShape(configuration.shape, ctx.spec.shape.length, path);
  outputShape(entries, ctx.spec.shape, path); // refuse at open what no chunk could be reshaped by
  return {
    kind: "array_to_array",
    name: "reshape",
    encodedSpec: (spec: ChunkSpec) => ({ ...spec, shape: outputShape(entries, spec.shape, path) }),
    encode: (chunk) => ({ data: chunk.data, shape: outputShape(entries, chunk.shape, path) }),
    decode: (chunk, spec) => ({ data: chunk.data, shape: [...spec.shape] }),
    toJSON: () => ({ name: "reshape", configuration: { shape: entries.map((e) => (Array.isArray(e) ? [...e] : e)) } }),
  };
};
