// How requests read in the log.
import type { RangeQuery, StoreRequest } from "zarrkit";

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 ** 2) return `${(n / 1024).toFixed(1)} KiB`;
  if (n < 1024 ** 3) return `${(n / 1024 ** 2).toFixed(1)} MiB`;
  return `${(n / 1024 ** 3).toFixed(2)} GiB`;
}

export function rangeText(range: RangeQuery | undefined): string {
  if (!range) return "whole";
  if ("suffixLength" in range) return `last ${range.suffixLength}`;
  return `${range.offset}-${range.offset + range.length - 1}`;
}

/** A read of a shard index at the end of its shard: a suffix range. */
export function isIndexRead(request: StoreRequest): boolean {
  return request.range !== undefined && "suffixLength" in request.range;
}
