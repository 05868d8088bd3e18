import {
  type ChunkGrid,
  chunkGridParser,
  InvalidMetadataError,
  registeredChunkGrids,
  showValue,
  UnsupportedError,
} from "@zarrkit/registry";

/**
 * The chunk grid a `chunk_grid` document describes for an array of `shape` (an InvalidMetadataError naming `field`
 * otherwise).
 */
export function parseChunkGrid(value: unknown, shape: readonly number[], field = "chunk_grid"): ChunkGrid {
  const entry = typeof value === "string" ? { name: value } : value;
  if (typeof entry !== "object" || entry === null || typeof (entry as { name?: unknown }).name !== "string") {
    throw new InvalidMetadataError(`${field} must be {"name": ..., "configuration": {...}}`, { field });
  }
  const { name, configuration = {} } = entry as { name: string; configuration?: unknown };
  if (typeof configuration !== "object" || configuration === null || Array.isArray(configuration)) {
    const configField = `${field}.configuration`;
    throw new InvalidMetadataError(`${configField} must be an object, got ${showValue(configuration)}`, {
      field: configField,
    });
  }
  const parser = chunkGridParser(name);
  if (!parser) {
    throw new UnsupportedError(
      `${field}: unsupported chunk grid ${showValue(name)} (known: ${registeredChunkGrids().join(", ")})`,
      {
        field,
      },
    );
  }
  return parser(configuration as Record<string, unknown>, shape, `${field}.configuration`);
}

/** Validate a list of positive safe integers of the array's rank. */
export function positiveIntegers(value: unknown, rank: number, field: string): number[] {
  if (!Array.isArray(value) || value.length !== rank || !value.every((v) => Number.isSafeInteger(v) && v > 0)) {
    throw new InvalidMetadataError(
      `${field} must be ${rank} positive integers (one per dimension), got ${showValue(value)}`,
      { field },
    );
  }
  return value as number[];
}
