import { writeFile } from "node:fs/promises";
import type { PrecomputedImage } from "@zarrkit/neuroglancer";
import { type DataType, dataType, InvalidSelectionError, type NdArray, type Selection, StoreError } from "zarrkit";
import { normalizeSelection } from "@zarrkit/core/internal";
import { parseCommand } from "../args.js";
import { formatValues } from "../format.js";
import { npyFile, rawBytes } from "../npy.js";
import type { Output } from "../output.js";
import { parseSelection } from "../select.js";
import { dataTypeOf, openSource, storedByteOrder } from "../source.js";
import { resolveUrl } from "../url.js";
import { UsageError } from "../errors.js";

export const GET_HELP = `Usage: zarrkit get <url> [--select SEL] [--out FILE]

Read values of the array at <url> and print them as nested lists, or write
them to FILE: as a NumPy .npy file when FILE ends in .npy, else as raw bytes
in C order (byte order as stored).

SEL is numpy-style, one item per dimension separated by commas: an index
(negative counts from the end), start:stop:step with any part omitted, or ":"
for all. Fewer items than dimensions select all of the trailing ones.
A precomputed volume reads as an array of shape [x, y, z, channels]
(indices relative to the scale's voxel_offset, scale 0).

Options:
  --select SEL    the selection (default: everything)
  --out FILE      write to FILE instead of printing
  --debug         print stack traces of errors
  -h, --help      show this help

Examples:
  zarrkit get data/image.zarr --select "0:10,5,:"
  zarrkit get data/image.zarr --select "-1,::2" --out last.npy
  zarrkit get precomputed://https://example.org/volume --select "0:64,0:64,10,0" --out slice.raw`;

const OPTIONS = { select: { type: "string" }, out: { type: "string" } } as const;

export async function getCommand(args: readonly string[], out: Output): Promise<number> {
  const { values, positionals } = parseCommand("get", args, OPTIONS, { min: 1, max: 1, names: "<url>" });
  if (values.help) return out.help(GET_HELP);
  if (values.out === "") throw new UsageError("--out needs a file name", "get");
  const source = await openSource(await resolveUrl(positionals[0]!, "get"));
  let result: NdArray;
  let type: DataType;
  let order: "little" | "big" = "little";
  if (source.kind === "group") {
    throw new UsageError(`${positionals[0]} is a group, not an array (see zarrkit tree)`, "get");
  } else if (source.kind === "array") {
    const array = source.array;
    const selection = parseSelection(values.select ?? "", array.shape.length);
    result = await badSelectionIsUsage(() => array.get(selection));
    type = dataTypeOf(array);
    order = storedByteOrder(array);
  } else {
    const { info } = source.image;
    const shape = [...info.scales[0].size, info.num_channels];
    const selection = parseSelection(values.select ?? "", shape.length);
    type = dataType(info.data_type);
    result = await badSelectionIsUsage(() => readVolume(source.image, shape, selection));
  }
  if (values.out === undefined) {
    out.write(formatValues(result, type));
    return 0;
  }
  const { bytes, descr } = rawBytes(result, type, order);
  const file = values.out.toLowerCase().endsWith(".npy") ? npyFile(bytes, descr, result.shape) : bytes;
  try {
    await writeFile(values.out, file);
  } catch (cause) {
    throw new StoreError(`cannot write ${values.out}: ${(cause as Error).message}`, { cause });
  }
  out.error(
    `wrote ${result.shape.length ? result.shape.join(" x ") : "1"} ${descr} values to ${values.out} ` +
      `(${file.length} bytes)`,
  );
  return 0;
}

/** A selection of scale 0 of a precomputed volume, as an [x, y, z, c] array in C order. */
async function readVolume(image: PrecomputedImage, shape: number[], selection: Selection): Promise<NdArray> {
  const { slices, counts, dropped } = normalizeSelection(selection, shape);
  const outShape = counts.filter((_, d) => !dropped[d]);
  const total = counts.reduce((a, b) => a * b, 1);
  const offset = image.info.scales[0].voxel_offset;
  const type = dataType(image.info.data_type);
  if (total === 0) return { data: type.allocate(0), shape: outShape };
  const lo = slices.map((s) => s.start);
  const hi = slices.map((s, d) => s.start + (counts[d]! - 1) * s.step + 1);
  const region = await image.read({
    min: [0, 1, 2].map((d) => lo[d]! + offset[d]!),
    max: [0, 1, 2].map((d) => hi[d]! + offset[d]!),
  });
  // The region is [c][z][y][x], x fastest: strides of x, y, z and c.
  const [ex, ey, ez] = region.shape;
  const strides = [1, ex, ex * ey, ex * ey * ez];
  const src = region.data as unknown as { [i: number]: number | bigint };
  const data = type.allocate(total) as unknown as { [i: number]: number | bigint };
  const index = [0, 0, 0, 0];
  for (let n = 0; n < total; n++) {
    let at = 0;
    for (let d = 0; d < 4; d++) {
      const pos = d === 3 ? slices[d]!.start + index[d]! * slices[d]!.step : index[d]! * slices[d]!.step;
      at += pos * strides[d]!;
    }
    data[n] = src[at]!;
    for (let d = 3; d >= 0; d--) {
      if (++index[d]! < counts[d]!) break;
      index[d] = 0;
    }
  }
  return { data: data as unknown as NdArray["data"], shape: outShape };
}

/** A selection that does not fit the array (an index out of bounds) is a usage error: exit 2, naming --select. */
async function badSelectionIsUsage<T>(read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    if (error instanceof InvalidSelectionError) throw new UsageError(`bad --select: ${error.message}`, "get");
    throw error;
  }
}
