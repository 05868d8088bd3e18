import { InvalidMetadataError, showValue } from "@zarrkit/registry";

/**
 * Readers for codec configuration fields. Each names the offending field
 * (`codecs[1].configuration.level`) and value, so a bad zarr.json is easy to fix.
 */
export type Configuration = Record<string, unknown>;

/** A configuration value: own properties only, so "constructor" or "toString" never reads Object.prototype. */
function own(configuration: Configuration, key: string): unknown {
  return Object.hasOwn(configuration, key) ? configuration[key] : undefined;
}

function invalid(field: string, key: string, expected: string, value: unknown): InvalidMetadataError {
  const path = `${field}.configuration.${key}`;
  return new InvalidMetadataError(`${path} must be ${expected}, got ${showValue(value)}`, {
    field: path,
  });
}

/** Reject keys a codec does not know: a typo such as "levle" must not be silently ignored. */
export function checkKeys(configuration: Configuration, allowed: readonly string[], field: string): void {
  for (const key of Object.keys(configuration)) {
    if (!allowed.includes(key)) {
      const path = `${field}.configuration.${key}`;
      const known = allowed.length ? `; known keys: ${allowed.join(", ")}` : "; this codec takes no configuration";
      throw new InvalidMetadataError(`${path} is not a known configuration key${known}`, { field: path });
    }
  }
}

export function readInt(
  configuration: Configuration,
  key: string,
  field: string,
  range: { min: number; max: number; default?: number },
): number {
  const value = own(configuration, key) === undefined ? range.default : own(configuration, key);
  if (typeof value !== "number" || !Number.isInteger(value) || value < range.min || value > range.max) {
    const bounds = range.max === Number.MAX_SAFE_INTEGER ? `>= ${range.min}` : `from ${range.min} to ${range.max}`;
    throw invalid(field, key, `an integer ${bounds}`, own(configuration, key));
  }
  return value;
}

export function readBoolean(configuration: Configuration, key: string, field: string, fallback: boolean): boolean {
  const value = own(configuration, key) === undefined ? fallback : own(configuration, key);
  if (typeof value !== "boolean") throw invalid(field, key, "true or false", value);
  return value;
}

export function readChoice<T extends string>(
  configuration: Configuration,
  key: string,
  field: string,
  choices: readonly T[],
  fallback: T | undefined,
): T {
  const value = own(configuration, key) === undefined ? fallback : own(configuration, key);
  if (typeof value !== "string" || !(choices as readonly string[]).includes(value)) {
    throw invalid(field, key, `one of ${choices.map((c) => JSON.stringify(c)).join(", ")}`, own(configuration, key));
  }
  return value as T;
}

export function readString(configuration: Configuration, key: string, field: string): string | undefined {
  const value = own(configuration, key);
  if (value !== undefined && typeof value !== "string") throw invalid(field, key, "a string", value);
  return value;
}
