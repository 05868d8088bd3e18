/*
 * liblzma's config.h for the wasm32-wasi build (what configure would find,
 * written by hand: the build runs no configure). Encoders: LZMA1 (alone) and
 * LZMA2 with the match finders the presets use; decoders: LZMA1, LZMA2, delta
 * and the branch filters, so any .xz file Python's lzma writes decodes.
 * No threads, no assembler, every integrity check.
 */
#define HAVE_CHECK_CRC32 1
#define HAVE_CHECK_CRC64 1
#define HAVE_CHECK_SHA256 1
#define HAVE_ENCODERS 1
#define HAVE_ENCODER_LZMA1 1
#define HAVE_ENCODER_LZMA2 1
#define HAVE_DECODERS 1
#define HAVE_DECODER_LZMA1 1
#define HAVE_DECODER_LZMA2 1
#define HAVE_DECODER_DELTA 1
#define HAVE_DECODER_X86 1
#define HAVE_DECODER_POWERPC 1
#define HAVE_DECODER_IA64 1
#define HAVE_DECODER_ARM 1
#define HAVE_DECODER_ARMTHUMB 1
#define HAVE_DECODER_ARM64 1
#define HAVE_DECODER_SPARC 1
#define HAVE_MF_HC3 1
#define HAVE_MF_HC4 1
#define HAVE_MF_BT2 1
#define HAVE_MF_BT3 1
#define HAVE_MF_BT4 1
#define HAVE_INTTYPES_H 1
#define HAVE_STDBOOL_H 1
#define HAVE_STDINT_H 1
#define HAVE_STRING_H 1
#define HAVE_LIMITS_H 1
#define HAVE__BOOL 1
#define SIZEOF_SIZE_T 4
#define TUKLIB_FAST_UNALIGNED_ACCESS 1
#define HAVE_VISIBILITY 0
