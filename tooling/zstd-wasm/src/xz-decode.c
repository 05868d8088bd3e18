/*
 * The xz decoder module of @zarrkit/codecs' numcodecs.lzma: liblzma's xz and
 * alone (.lzma) decoders, reading streams one after another as Python's
 * lzma.decompress does (data after a complete stream that does not decode is
 * ignored), every integrity check verified (CRC32, CRC64, SHA-256), never
 * writing past `capacity` and never taking more than `memlimit` bytes of
 * memory (the dictionary a header asks for is allocated before any data).
 */
#include <stdlib.h>
#include "lzma.h"

#define EXPORT(name) __attribute__((export_name(name)))

#define ZK_FORMAT_XZ 1
#define ZK_FORMAT_ALONE 2

/* Results beyond liblzma's own errors (negated lzma_ret, -5 to -11). */
#define ZK_OUTPUT_FULL (-20) /* the decoded bytes would pass `capacity` */
#define ZK_TRUNCATED (-21)   /* the input ends inside a stream */
#define ZK_BAD_FORMAT (-22)  /* a format other than 1 or 2 */

EXPORT("malloc") void *zk_malloc(size_t size) { return malloc(size); }

EXPORT("free") void zk_free(void *pointer) { free(pointer); }

/* Decodes one stream from stream->next_in: LZMA_STREAM_END when it ended, else an error (negative). */
static int decode_stream(lzma_stream *stream, int format, uint64_t memlimit) {
  lzma_ret result =
      format == ZK_FORMAT_XZ ? lzma_stream_decoder(stream, memlimit, 0) : lzma_alone_decoder(stream, memlimit);
  if (result != LZMA_OK) return -(int)result;
  for (;;) {
    size_t in_before = stream->avail_in, out_before = stream->avail_out;
    result = lzma_code(stream, LZMA_FINISH);
    if (result == LZMA_STREAM_END) return LZMA_STREAM_END;
    if (result != LZMA_OK && result != LZMA_BUF_ERROR) return -(int)result;
    /* No progress: out of room, or out of input. */
    if (stream->avail_in == in_before && stream->avail_out == out_before) {
      return stream->avail_out == 0 ? ZK_OUTPUT_FULL : ZK_TRUNCATED;
    }
  }
}

/*
 * Decodes src[0, size), `format` 1 (xz) or 2 (alone), into dst[0, capacity).
 * Returns the decoded size, or a negative error: -lzma_ret (LZMA_DATA_ERROR,
 * LZMA_FORMAT_ERROR, LZMA_MEMLIMIT_ERROR, ...), ZK_OUTPUT_FULL, ZK_TRUNCATED
 * or ZK_BAD_FORMAT.
 */
EXPORT("decompress")
int zk_decompress(uint8_t *dst, size_t capacity, const uint8_t *src, size_t size, int format, double memlimit) {
  if (format != ZK_FORMAT_XZ && format != ZK_FORMAT_ALONE) return ZK_BAD_FORMAT;
  lzma_stream stream = LZMA_STREAM_INIT;
  stream.next_in = src;
  stream.avail_in = size;
  stream.next_out = dst;
  stream.avail_out = capacity;
  int streams = 0, result;
  size_t decoded;
  do { /* at least one stream: no input is a truncated stream, as in Python */
    decoded = capacity - stream.avail_out;
    result = decode_stream(&stream, format, (uint64_t)memlimit);
    if (result != LZMA_STREAM_END) break;
    streams++;
  } while (stream.avail_in > 0);
  lzma_end(&stream);
  if (result == LZMA_STREAM_END) return (int)(capacity - stream.avail_out);
  /* As Python: what follows a complete stream and does not decode is not xz data, and is ignored. */
  if (streams > 0 && result != ZK_OUTPUT_FULL && result != ZK_TRUNCATED) return (int)decoded;
  return result;
}
