/*
 * The encoder module of @zarrkit/codecs' zstd: libzstd's one-shot encoder
 * over one reused context, with the parameters Zarr's zstd codec can ask
 * for: any level (negative ones too), a content checksum, long-distance
 * matching (1: on, with a 128 MiB window as the CLI's --long; 0: zstd's
 * default, as the CLI without --long). Every frame records its content size.
 */
#include <stdlib.h>
#include "zstd.h"
#include "zstd_errors.h"

#define EXPORT(name) __attribute__((export_name(name)))

static ZSTD_CCtx *cctx;

EXPORT("malloc") void *zk_malloc(size_t size) { return malloc(size); }

EXPORT("free") void zk_free(void *pointer) { free(pointer); }

/* The most bytes one frame of `size` input bytes can take. */
EXPORT("compress_bound") size_t zk_compress_bound(size_t size) { return ZSTD_compressBound(size); }

/* zstd's level range: ZSTD_minCLevel() .. ZSTD_maxCLevel(). */
EXPORT("min_level") int zk_min_level(void) { return ZSTD_minCLevel(); }
EXPORT("max_level") int zk_max_level(void) { return ZSTD_maxCLevel(); }

static size_t set(ZSTD_cParameter parameter, int value) { return ZSTD_CCtx_setParameter(cctx, parameter, value); }

/*
 * One frame of src[0, size) into dst[0, capacity). Returns the frame's size,
 * or a zstd error: (size_t)-code, which JavaScript reads as the i32 -code.
 */
EXPORT("compress")
size_t zk_compress(void *dst, size_t capacity, const void *src, size_t size, int level, int checksum, int long_distance) {
  if (cctx == NULL) cctx = ZSTD_createCCtx();
  if (cctx == NULL) return (size_t)-ZSTD_error_memory_allocation;
  size_t result = ZSTD_CCtx_reset(cctx, ZSTD_reset_session_and_parameters);
  if (!ZSTD_isError(result)) result = set(ZSTD_c_compressionLevel, level);
  if (!ZSTD_isError(result)) result = set(ZSTD_c_checksumFlag, checksum != 0);
  if (!ZSTD_isError(result)) result = set(ZSTD_c_enableLongDistanceMatching, long_distance != 0);
  if (ZSTD_isError(result)) return result;
  return ZSTD_compress2(cctx, dst, capacity, src, size);
}
