/*
 * The decoder module's C (src/decode.c) over libzstd as released, built for
 * this machine, where size_t is 64 bits: what the patched wasm decoder must
 * match. Reads records from standard input, each
 *   u32 capacity, u32 size, then size bytes of frames (little-endian),
 * and writes for each the i32 result (decoded size, or -code) and, when it
 * decoded, the bytes.
 */
#include <stdint.h>
#include <stdio.h>
#include "../src/decode.c"

static int read_u32(uint32_t *value) {
  unsigned char b[4];
  if (fread(b, 1, 4, stdin) != 4) return 0;
  *value = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
  return 1;
}

int main(void) {
  uint32_t capacity, size;
  while (read_u32(&capacity) && read_u32(&size)) {
    void *src = malloc(size ? size : 1), *dst = malloc(capacity ? capacity : 1);
    if (src == NULL || dst == NULL || fread(src, 1, size, stdin) != size) return 2;
    size_t result = zk_decompress(dst, capacity, src, size);
    int32_t code = ZSTD_isError(result) ? -(int32_t)ZSTD_getErrorCode(result) : (int32_t)result;
    unsigned char b[4] = {code & 0xff, (code >> 8) & 0xff, (code >> 16) & 0xff, (uint32_t)code >> 24};
    if (fwrite(b, 1, 4, stdout) != 4 || (code > 0 && fwrite(dst, 1, (size_t)code, stdout) != (size_t)code)) return 3;
    free(src);
    free(dst);
  }
  return 0;
}
