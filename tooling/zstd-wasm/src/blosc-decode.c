/*
 * The Blosc decoder module of @zarrkit/codecs: c-blosc 1.21.3's decoder with
 * its BloscLZ and LZ4 streams, on one thread. The caller has checked the
 * header (the chunk's cbytes is the input's length; every block and stream
 * lies inside it) before calling; c-blosc checks the stream offsets again.
 */
#include <stdlib.h>
#include "blosc.h"

#define EXPORT(name) __attribute__((export_name(name)))

EXPORT("malloc") void *zk_malloc(size_t size) { return malloc(size); }

EXPORT("free") void zk_free(void *pointer) { free(pointer); }

/* Decodes the chunk at src into dst[0, capacity): the decoded size, or a negative c-blosc error. */
EXPORT("decompress") int zk_decompress(const void *src, void *dst, size_t capacity) {
  return blosc_decompress_ctx(src, dst, capacity, 1);
}
