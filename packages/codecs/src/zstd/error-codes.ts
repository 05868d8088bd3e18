// zstd's error codes (zstd_errors.h), for messages: the module is built without zstd's error strings.
const ERROR_NAMES: Record<number, string> = {
  1: "generic error",
  10: "unknown frame magic",
  12: "unsupported frame version",
  14: "unsupported frame parameter",
  16: "window too large",
  20: "corrupted data",
  22: "checksum mismatch",
  24: "bad literals header",
  30: "corrupted dictionary",
  32: "wrong dictionary",
  40: "unsupported parameter",
  42: "parameter out of bounds",
  44: "table log too large",
  46: "max symbol value too large",
  48: "max symbol value too small",
  64: "out of memory",
  70: "destination too small",
  72: "wrong source size (truncated or trailing data)",
};

/** zstd's results are sizes, or errors as (size_t)-code: an i32 in [-120, -1] read from JavaScript. */
const MAX_ERROR_CODE = 120;

/** The zstd error code of a result, or 0 when it is a size. */
export function errorCode(result: number): number {
  return result < 0 && result >= -MAX_ERROR_CODE ? -result : 0;
}

export function errorName(code: number): string {
  return `${ERROR_NAMES[code] ?? "error"} (zstd error ${code})`;
}

/** The DST_SIZE_TOO_SMALL error: the output would pass the capacity given. */
export const DST_SIZE_TOO_SMALL = 70;

/** A frame's window is above ZSTD_WINDOWLOG_MAX_32 (1 GiB): valid zstd, beyond what a 32-bit build reads. */
export const WINDOW_TOO_LARGE = 16;
