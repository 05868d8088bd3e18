import { ConvertOptionError } from "./errors.js";

/** An OME-NGFF axis; `type` is left out for names that are not space, time or channel (custom axes). */
export interface OmeAxis {
  /** The axis name, as the array's dimension name. */
  name: string;
  /** Its kind; absent for custom axes. */
  type?: "space" | "time" | "channel";
  /** Its physical unit (space axes of a source with a voxel size). */
  unit?: string;
}

const TYPES: ReadonlyMap<string, OmeAxis["type"]> = new Map([
  ["x", "space"],
  ["y", "space"],
  ["z", "space"],
  ["t", "time"],
  ["time", "time"],
  ["c", "channel"],
  ["ch", "channel"],
  ["channel", "channel"],
]);

/** Default axes by rank when the array has no dimension names: the last 2 or 3 are spatial. */
const DEFAULT_NAMES: Record<number, string[]> = {
  2: ["y", "x"],
  3: ["z", "y", "x"],
  4: ["c", "z", "y", "x"],
  5: ["t", "c", "z", "y", "x"],
};

const ORDER = { time: 0, channel: 1, custom: 1, space: 2 } as const;

/**
 * The axes of an OME-Zarr 0.5 image for an array of `rank` dimensions: from
 * its dimension names (x, y, z: space; t, time: time; c, ch, channel:
 * channel; others: custom, no type), else the defaults (y x, z y x, c z y x,
 * t c z y x). Refused unless the NGFF 0.5 rules hold: 2 to 5 axes, unique
 * names, 2 or 3 space axes, at most one time axis, and the order time,
 * then channel or custom, then space (a `ConvertOptionError` on `multiscale`).
 */
export function omeAxes(
  rank: number,
  dimensionNames: readonly (string | null)[] | undefined,
  label: string,
): OmeAxis[] {
  const refuse = (why: string) =>
    new ConvertOptionError("multiscale", (n) => `${n("multiscale")}: ${label} cannot be an OME-Zarr 0.5 image: ${why}`);
  if (rank < 2 || rank > 5) throw refuse(`OME-Zarr images have 2 to 5 dimensions, the array has ${rank}`);
  const given = dimensionNames?.every((n) => n !== null && n !== "") ? (dimensionNames as string[]) : undefined;
  const names = given ?? DEFAULT_NAMES[rank]!;
  const axes = names.map((name): OmeAxis => {
    const type = TYPES.get(name.toLowerCase());
    return type ? { name, type } : { name };
  });
  if (new Set(names).size !== names.length) throw refuse(`axis names ${JSON.stringify(names)} are not unique`);
  const spaces = axes.filter((a) => a.type === "space").length;
  if (spaces < 2 || spaces > 3)
    throw refuse(`it needs 2 or 3 space axes (x, y, z), dimension names ${JSON.stringify(names)} give ${spaces}`);
  if (axes.filter((a) => a.type === "time").length > 1)
    throw refuse(`more than one time axis in ${JSON.stringify(names)}`);
  const ranks = axes.map((a) => ORDER[a.type ?? "custom"]);
  if (ranks.some((r, i) => i > 0 && r < ranks[i - 1]!))
    throw refuse(`axes ${JSON.stringify(names)} are not in the order time, channel, space`);
  return axes;
}

/**
 * The group attributes of an OME-Zarr 0.5 multiscale image of `levels + 1`
 * arrays "0", "1", ...: level k's scale is 2^k on space axes, times the
 * source's voxel size (and its unit on the space axes) when it has one.
 * `method` is how each level was computed from level 0 (`downsampledSource`).
 */
export function multiscaleAttributes(
  name: string,
  axes: readonly OmeAxis[],
  levels: number,
  method: "mean" | "mode",
  voxelSize?: { size: readonly number[]; unit: string },
): Record<string, unknown> {
  const base = axes.map((a, d) => (a.type === "space" && voxelSize ? voxelSize.size[d]! : 1));
  const datasets = Array.from({ length: levels + 1 }, (_, k) => ({
    path: String(k),
    coordinateTransformations: [
      { type: "scale", scale: axes.map((a, d) => base[d]! * (a.type === "space" ? 2 ** k : 1)) },
    ],
  }));
  return {
    ome: {
      version: "0.5",
      multiscales: [
        {
          name,
          axes: axes.map((a) => (a.type === "space" && voxelSize ? { ...a, unit: voxelSize.unit } : a)),
          datasets,
          type: method,
          metadata: {
            description: `2x ${method} of the spatial axes per level, each level computed from level 0`,
            method: "zarrkit convert --multiscale",
          },
        },
      ],
    },
  };
}
