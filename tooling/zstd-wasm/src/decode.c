/*
 * The decoder module of @zarrkit/codecs' zstd: libzstd's single-pass
 * decoder over one reused context, writing into memory the caller allocated
 * in this module. Never writes past `capacity`: output that would not fit is
 * error 70 (dstSize_tooSmall), whatever the frames declare.
 */
#include <stdlib.h>
#include "zstd.h"
#include "zstd_errors.h"

#define EXPORT(name) __attribute__((export_name(name)))

static ZSTD_DCtx *dctx;

EXPORT("malloc") void *zk_malloc(size_t size) { return malloc(size); }

EXPORT("free") void zk_free(void *pointer) { free(pointer); }

/*
 * Decodes every frame of src[0, size) (skippable frames skipped, checksums
 * checked) into dst[0, capacity). Returns the decoded size, or a zstd error:
 * (size_t)-code, which JavaScript reads as the i32 -code.
 */
EXPORT("decompress") size_t zk_decompress(void *dst, size_t capacity, const void *src, size_t size) {
  if (dctx == NULL) dctx = ZSTD_createDCtx();
  if (dctx == NULL) return (size_t)-ZSTD_error_memory_allocation;
  return ZSTD_decompressDCtx(dctx, dst, capacity, src, size);
}
