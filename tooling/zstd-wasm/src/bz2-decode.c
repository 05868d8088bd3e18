/*
 * The bzip2 decoder module of @zarrkit/codecs' numcodecs.bz2: libbzip2's
 * decoder, reading streams one after another as Python's bz2.decompress does
 * (data after the first stream that is not a valid stream is ignored), and
 * never writing past `capacity`.
 */
#include <stdlib.h>
#include <string.h>
#include "bzlib.h"

#define EXPORT(name) __attribute__((export_name(name)))

/* Results beyond libbzip2's own errors (BZ_*, -1 to -9). */
#define ZK_OUTPUT_FULL (-20) /* the decoded bytes would pass `capacity` */
#define ZK_TRUNCATED (-21)   /* the input ends inside a stream */

EXPORT("malloc") void *zk_malloc(size_t size) { return malloc(size); }

EXPORT("free") void zk_free(void *pointer) { free(pointer); }

/* libbzip2's internal consistency checks (BZ_NO_STDIO): a wasm trap, which JavaScript sees as a RuntimeError. */
void bz_internal_error(int code) {
  (void)code;
  __builtin_trap();
}

/*
 * Decodes one stream from stream->next_in. BZ_STREAM_END when it ended
 * (stream->next_in then points past it), else an error.
 */
static int decode_stream(bz_stream *stream) {
  int result = BZ2_bzDecompressInit(stream, 0, 0);
  if (result != BZ_OK) return result;
  for (;;) {
    unsigned in_before = stream->avail_in, out_before = stream->avail_out;
    result = BZ2_bzDecompress(stream);
    if (result != BZ_OK) break;
    if (stream->avail_in == in_before && stream->avail_out == out_before) {
      /* No progress: out of room, or out of input. */
      result = stream->avail_out == 0 ? ZK_OUTPUT_FULL : ZK_TRUNCATED;
      break;
    }
  }
  BZ2_bzDecompressEnd(stream);
  return result;
}

/*
 * Decodes src[0, size) into dst[0, capacity). Returns the decoded size, or a
 * negative error: libbzip2's (BZ_DATA_ERROR, BZ_DATA_ERROR_MAGIC, ...),
 * ZK_OUTPUT_FULL or ZK_TRUNCATED.
 */
EXPORT("decompress") int zk_decompress(char *dst, unsigned capacity, char *src, unsigned size) {
  bz_stream stream;
  memset(&stream, 0, sizeof stream);
  stream.next_in = src;
  stream.avail_in = size;
  stream.next_out = dst;
  stream.avail_out = capacity;
  int streams = 0;
  while (stream.avail_in > 0) {
    unsigned decoded = capacity - stream.avail_out;
    int result = decode_stream(&stream);
    if (result != BZ_STREAM_END) {
      /* As Python: what follows a complete stream and does not decode is not bzip2 data, and is ignored. */
      if (streams > 0 && (result == BZ_DATA_ERROR_MAGIC || result == BZ_DATA_ERROR)) return (int)decoded;
      return result;
    }
    streams++;
  }
  return (int)(capacity - stream.avail_out);
}
