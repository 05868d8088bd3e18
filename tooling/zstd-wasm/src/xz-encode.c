/*
 * The xz encoder module of @zarrkit/codecs' numcodecs.lzma: liblzma's
 * encoders as Python's lzma.compress calls them with no filter chain, so the
 * output is Python's byte for byte: format 1 (xz) is lzma_easy_encoder(preset,
 * check), format 2 (alone, .lzma) lzma_alone_encoder with the preset's LZMA1
 * options (unknown size, end marker).
 */
#include <stdlib.h>
#include "lzma.h"

#define EXPORT(name) __attribute__((export_name(name)))

#define ZK_FORMAT_XZ 1
#define ZK_FORMAT_ALONE 2

/* Results beyond liblzma's own errors (negated lzma_ret, -5 to -11). */
#define ZK_OUTPUT_FULL (-20)  /* the stream would pass `capacity` */
#define ZK_BAD_FORMAT (-22)   /* a format other than 1 or 2 */

EXPORT("malloc") void *zk_malloc(size_t size) { return malloc(size); }

EXPORT("free") void zk_free(void *pointer) { free(pointer); }

/*
 * A first capacity for the stream of `size` input bytes: liblzma's bound for
 * xz (one block, whose header the streaming encoder writes no larger); LZMA1
 * has no stored fallback, so alone gets 1/16 more (ZK_OUTPUT_FULL asks for more).
 */
EXPORT("compress_bound") size_t zk_compress_bound(size_t size, int format) {
  size_t bound = lzma_stream_buffer_bound(size);
  return format == ZK_FORMAT_XZ || bound == 0 ? bound : bound + size / 16;
}

static lzma_ret start(lzma_stream *stream, int format, uint32_t preset, int check) {
  if (format == ZK_FORMAT_XZ) return lzma_easy_encoder(stream, preset, (lzma_check)check);
  lzma_options_lzma options;
  if (lzma_lzma_preset(&options, preset)) return LZMA_OPTIONS_ERROR;
  return lzma_alone_encoder(stream, &options);
}

/*
 * One stream of src[0, size) into dst[0, capacity): `format` 1 (xz, with
 * `check`: LZMA_CHECK_*) or 2 (alone), `preset` 0-9, optionally with
 * LZMA_PRESET_EXTREME. Returns the stream's size, or a negative error:
 * -lzma_ret, ZK_OUTPUT_FULL or ZK_BAD_FORMAT.
 */
EXPORT("compress")
int zk_compress(uint8_t *dst, size_t capacity, const uint8_t *src, size_t size, int format, uint32_t preset,
                int check) {
  if (format != ZK_FORMAT_XZ && format != ZK_FORMAT_ALONE) return ZK_BAD_FORMAT;
  lzma_stream stream = LZMA_STREAM_INIT;
  lzma_ret result = start(&stream, format, preset, check);
  if (result == LZMA_OK) {
    stream.next_in = src;
    stream.avail_in = size;
    stream.next_out = dst;
    stream.avail_out = capacity;
    do result = lzma_code(&stream, LZMA_FINISH);
    while (result == LZMA_OK && stream.avail_out > 0);
  }
  size_t written = stream.total_out;
  lzma_end(&stream);
  if (result == LZMA_STREAM_END) return (int)written;
  return result == LZMA_OK || result == LZMA_BUF_ERROR ? ZK_OUTPUT_FULL : -(int)result;
}
