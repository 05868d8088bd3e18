/*
 * The encoder module's C (src/encode.c) built for this machine: one frame of
 * standard input to standard output, with the module's parameters.
 *   native-encode LEVEL CHECKSUM LONG_DISTANCE < data > frame
 * The test compares the shipped WebAssembly with it byte for byte.
 */
#include <stdio.h>
#include <stdlib.h>
#include "../src/encode.c"

int main(int argc, char **argv) {
  if (argc != 4) return 2;
  size_t size = 0, capacity = 1 << 20;
  char *src = malloc(capacity);
  for (size_t n; src && (n = fread(src + size, 1, capacity - size, stdin)) > 0;) {
    size += n;
    if (size == capacity) src = realloc(src, capacity *= 2);
  }
  if (src == NULL) return 3;
  size_t bound = zk_compress_bound(size);
  void *dst = malloc(bound);
  if (dst == NULL) return 3;
  size_t result = zk_compress(dst, bound, src, size, atoi(argv[1]), atoi(argv[2]), atoi(argv[3]));
  if (ZSTD_isError(result)) return 1;
  return fwrite(dst, 1, result, stdout) == result ? 0 : 4;
}
