import { InvalidMetadataError, UnsupportedError } from "@zarrkit/registry";
import { showValue } from "@zarrkit/registry";
import type { ArrayMetadata } from "../metadata/documents.js";

/** How chunk coordinates become store keys and back. */
export interface ChunkKeyEncoding {
  /** The store key of a chunk, relative to the array's path. */
  encode(coords: readonly number[]): string;
  /**
   * The grid coordinates of a key relative to the array's path, or undefined when it is not a chunk key of that rank.
   */
  decode(key: string, rank: number): number[] | undefined;
  /** The `chunk_key_encoding` metadata. */
  toJSON(): ArrayMetadata["chunk_key_encoding"];
}

/** The encoding a `chunk_key_encoding` document describes (an InvalidMetadataError naming `field` otherwise). */
export function parseChunkKeyEncoding(value: unknown, field = "chunk_key_encoding"): ChunkKeyEncoding {
  const entry = typeof value === "string" ? { name: value } : value;
  if (typeof entry !== "object" || entry === null) {
    throw new InvalidMetadataError(`${field} must be {"name": ..., "configuration": {...}}`, { field });
  }
  const { name, configuration = {} } = entry as { name?: unknown; configuration?: unknown };
  if (name !== "default" && name !== "v2") {
    throw new UnsupportedError(`${field}: unsupported chunk key encoding ${showValue(name)} (known: default, v2)`, {
      field,
    });
  }
  if (typeof configuration !== "object" || configuration === null || Array.isArray(configuration)) {
    const configField = `${field}.configuration`;
    throw new InvalidMetadataError(`${configField} must be an object, got ${showValue(configuration)}`, {
      field: configField,
    });
  }
  // An own property only: "separator" inherited from nowhere, never from Object.prototype.
  const given = Object.hasOwn(configuration, "separator")
    ? (configuration as { separator: unknown }).separator
    : undefined;
  const separator = given ?? (name === "default" ? "/" : ".");
  if (separator !== "/" && separator !== ".") {
    const sepField = `${field}.configuration.separator`;
    throw new InvalidMetadataError(`${sepField} must be "/" or ".", got ${showValue(separator)}`, { field: sepField });
  }
  return chunkKeyEncoding(name, separator);
}

/** The `default` ("c/0/1") or `v2` ("0.1") encoding with `separator`. */
export function chunkKeyEncoding(name: "default" | "v2", separator: "/" | "."): ChunkKeyEncoding {
  const empty = name === "default" ? "c" : "0";
  return {
    encode: (coords) =>
      name === "default" ? ["c", ...coords].join(separator) : coords.length === 0 ? "0" : coords.join(separator),
    decode: (key, rank) => {
      if (rank === 0) return key === empty ? [] : undefined;
      const prefix = name === "default" ? `c${separator}` : "";
      if (!key.startsWith(prefix)) return undefined;
      const parts = key.slice(prefix.length).split(separator);
      return parts.length === rank && parts.every((p) => /^\d+$/.test(p)) ? parts.map(Number) : undefined;
    },
    toJSON: () => ({ name, configuration: { separator } }),
  };
}
