/*
 * The bzip2 encoder module of @zarrkit/codecs' numcodecs.bz2: libbzip2's
 * one-shot encoder, as Python's bz2.compress(data, level) calls it (block
 * size level x 100 kB, work factor 0: bzip2's default), so the streams are
 * Python's byte for byte.
 */
#include <stdlib.h>
#include "bzlib.h"

#define EXPORT(name) __attribute__((export_name(name)))

EXPORT("malloc") void *zk_malloc(size_t size) { return malloc(size); }

EXPORT("free") void zk_free(void *pointer) { free(pointer); }

/* libbzip2's internal consistency checks (BZ_NO_STDIO): a wasm trap, which JavaScript sees as a RuntimeError. */
void bz_internal_error(int code) {
  (void)code;
  __builtin_trap();
}

/* The most bytes the stream of `size` input bytes can take (bzip2's manual: 1% + 600 bytes). */
EXPORT("compress_bound") size_t zk_compress_bound(size_t size) { return size + size / 100 + 601; }

/*
 * One bzip2 stream of src[0, size) into dst[0, capacity), block size level x 100 kB
 * (level 1-9). Returns the stream's size, or a negative libbzip2 error (BZ_*).
 */
EXPORT("compress") int zk_compress(char *dst, unsigned capacity, char *src, unsigned size, int level) {
  unsigned length = capacity;
  int result = BZ2_bzBuffToBuffCompress(dst, &length, src, size, level, 0, 0);
  return result == BZ_OK ? (int)length : result;
}
