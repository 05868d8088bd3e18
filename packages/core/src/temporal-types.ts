/**
 * numpy's datetime64 and timedelta64 (zarr-extensions `numpy.datetime64`,
 * `numpy.timedelta64`): signed 64-bit counts of `scale_factor` units, -2^63
 * being NaT ("not a time"). Held as a BigInt64Array of the counts; the unit
 * is in the data type's name, numpy-style: `numpy.datetime64[ns]`,
 * `numpy.timedelta64[10s]` (the name resolves again by itself, as codec
 * workers need), and in zarr.json as `{"name", "configuration": {"unit", "scale_factor"}}`.
 */
import { InvalidMetadataError, showValue } from "@zarrkit/registry";

/** numpy's units; "μs" is read as "us", as numpy does. */
export const TEMPORAL_UNITS: ReadonlySet<string> = new Set([
  "Y",
  "M",
  "W",
  "D",
  "h",
  "m",
  "s",
  "ms",
  "us",
  "ns",
  "ps",
  "fs",
  "as",
  "generic",
]);

/** The count that stands for NaT. */
export const NAT = -(2n ** 63n);

/** What a datetime64 / timedelta64 type counts. */
export interface Temporal {
  readonly kind: "datetime64" | "timedelta64";
  readonly unit: string;
  readonly scaleFactor: number;
}

const MAX_SCALE_FACTOR = 2 ** 31 - 1;

/** The in-process name: `numpy.datetime64[10us]`, the scale factor left out when 1. */
export function temporalName(t: Temporal): string {
  return `numpy.${t.kind}[${t.scaleFactor === 1 ? "" : t.scaleFactor}${t.unit}]`;
}

/** A Temporal from an in-process name, or undefined when `name` is not one. */
export function parseTemporalName(name: string, field: string): Temporal | undefined {
  const match = /^numpy\.(datetime64|timedelta64)\[([1-9]\d*)?([A-Za-zμ]+)\]$/.exec(name);
  if (!match) return undefined;
  return checkTemporal(
    match[1] as Temporal["kind"],
    match[3],
    match[2] === undefined ? 1 : Number(match[2]),
    field,
    field,
  );
}

/** A Temporal from zarr.json's configuration, every field checked (the registry allows no others). */
export function parseTemporalConfiguration(kind: Temporal["kind"], configuration: unknown, field: string): Temporal {
  const base = `${field}.configuration`;
  if (typeof configuration !== "object" || configuration === null || Array.isArray(configuration)) {
    throw new InvalidMetadataError(
      `${base} must be an object with unit and scale_factor, got ${showValue(configuration)}`,
      { field: base },
    );
  }
  const extra = Object.keys(configuration).find((k) => k !== "unit" && k !== "scale_factor");
  if (extra !== undefined)
    throw new InvalidMetadataError(`${base}.${extra} is not a field of numpy.${kind}`, { field: `${base}.${extra}` });
  const { unit, scale_factor: scale } = configuration as { unit?: unknown; scale_factor?: unknown };
  return checkTemporal(kind, unit, scale, `${base}.unit`, `${base}.scale_factor`);
}

function checkTemporal(
  kind: Temporal["kind"],
  unit: unknown,
  scale: unknown,
  unitField: string,
  scaleField: string,
): Temporal {
  const normalized = unit === "μs" ? "us" : unit;
  if (typeof normalized !== "string" || !TEMPORAL_UNITS.has(normalized)) {
    throw new InvalidMetadataError(
      `${unitField} must be one of ${[...TEMPORAL_UNITS].join(", ")}, got ${showValue(unit)}`,
      { field: unitField },
    );
  }
  if (!Number.isSafeInteger(scale) || (scale as number) < 1 || (scale as number) > MAX_SCALE_FACTOR) {
    throw new InvalidMetadataError(
      `${scaleField} must be an integer in [1, ${MAX_SCALE_FACTOR}], got ${showValue(scale)}`,
      { field: scaleField },
    );
  }
  return { kind, unit: normalized, scaleFactor: scale as number };
}

/** numpy's dtype string for it: `<M8[ns]`, `>m8[10s]`, `<M8` (generic). */
export function temporalNumpyDtype(t: Temporal, order: "<" | ">"): string {
  const code = t.kind === "datetime64" ? "M8" : "m8";
  return t.unit === "generic"
    ? `${order}${code}`
    : `${order}${code}[${t.scaleFactor === 1 ? "" : t.scaleFactor}${t.unit}]`;
}

/** A Temporal from numpy's kind letter ("M" or "m") and bracketed unit ("[10us]", or undefined for generic). */
export function temporalFromNumpy(letter: "M" | "m", unit: string | undefined, field: string): Temporal {
  const kind = letter === "M" ? "datetime64" : "timedelta64";
  if (unit === undefined) return { kind, unit: "generic", scaleFactor: 1 };
  const match = /^\[([1-9]\d*)?([A-Za-zμ]+)\]$/.exec(unit);
  return checkTemporal(kind, match?.[2] ?? unit, match?.[1] === undefined ? 1 : Number(match[1]), field, field);
}
