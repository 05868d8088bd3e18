/**
 * Options of reference stores, with their defaults, checked: a bad option is
 * an InvalidOptionError naming it.
 */
import { InvalidOptionError, renamedOption, showValue } from "@zarrkit/registry";
import type { Compressors } from "hyparquet";

/** How a reference store reads its reference file and its targets. */
export interface ReferenceStoreOptions {
  /**
   * Largest JSON reference file, `.zmetadata` or Parquet record file read, and
   * largest decoded Parquet page, in bytes. Default 256 MiB.
   */
  maxFileBytes?: number;
  /** Decoded Parquet record files kept, costed by their file size, in bytes. Default 64 MiB. */
  recordCacheBytes?: number;
  /** Target stores (and target files) kept open. Default 64. */
  maxOpenTargets?: number;
  /**
   * Largest request coalesced from several references to one target, in bytes (the sharding codec's option of the
   * same name). Default 16 MiB.
   */
  maxRequestBytes?: number;
  /** @deprecated Use maxRequestBytes. */
  maxCoalescedBytes?: number;
  /** Values replacing the file's `templates` (kerchunk's `template_overrides`), e.g. to move the targets elsewhere. */
  templates?: Readonly<Record<string, string>>;
  /**
   * Options for `openStore` of target folders (headers, credentials). The
   * options of the reference file's own store are not passed on: a reference
   * file may point anywhere. Default none.
   */
  targetOptions?: Readonly<Record<string, unknown>>;
  /** Whether an absolute target URL may be read (relative ones, beside the reference file, always may); default all. */
  allowTarget?: (url: string) => boolean;
  /**
   * hyparquet decompressors for Parquet record files beyond the built-in
   * snappy, zstd and gzip (e.g. BROTLI, LZ4 from hyparquet-compressors).
   */
  compressors?: Compressors;
}

/** The options with their defaults, once checked. */
export type ResolvedOptions = Required<Omit<ReferenceStoreOptions, "maxCoalescedBytes">>;

const MiB = 2 ** 20;

export function resolveOptions(options: ReferenceStoreOptions): ResolvedOptions {
  const renamed = { maxRequestBytes: renamedOption(options, "maxRequestBytes", "maxCoalescedBytes") };
  const count = (name: keyof ReferenceStoreOptions, fallback: number, minimum: number): number => {
    const value = (name === "maxRequestBytes" ? renamed.maxRequestBytes : options[name]) ?? fallback;
    if (!Number.isSafeInteger(value) || (value as number) < minimum) {
      throw new InvalidOptionError(
        `Reference store option ${name} must be an integer of at least ${minimum}, got ${showValue(value, 80)}`,
        { field: name },
      );
    }
    return value as number;
  };
  if (options.allowTarget !== undefined && typeof options.allowTarget !== "function") {
    throw new InvalidOptionError(
      `Reference store option allowTarget must be a function, got ${showValue(options.allowTarget, 80)}`,
      { field: "allowTarget" },
    );
  }
  for (const name of ["templates", "targetOptions", "compressors"] as const) {
    const value = options[name];
    if (value !== undefined && (typeof value !== "object" || value === null || Array.isArray(value))) {
      throw new InvalidOptionError(`Reference store option ${name} must be an object, got ${showValue(value, 80)}`, {
        field: name,
      });
    }
  }
  return {
    maxFileBytes: count("maxFileBytes", 256 * MiB, 1),
    recordCacheBytes: count("recordCacheBytes", 64 * MiB, 0),
    maxOpenTargets: count("maxOpenTargets", 64, 1),
    maxRequestBytes: count("maxRequestBytes", 16 * MiB, 0),
    templates: options.templates ?? {},
    targetOptions: options.targetOptions ?? {},
    allowTarget: options.allowTarget ?? (() => true),
    compressors: options.compressors ?? {},
  };
}
