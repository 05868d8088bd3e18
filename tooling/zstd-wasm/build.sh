#!/usr/bin/env bash
# Builds @zarrkit/codecs' WebAssembly from the vendored sources:
#   zstd-decode.wasm  zstd's decoder (vendor/zstd: Debian's libzstd 1.5.4 source package;
#                     src/bitstream64.patch, src/decode.c)
#   zstd-encode.wasm  zstd's encoder (vendor/zstd-encoder: zstd 1.5.7; src/encode.c)
#   blosc-decode.wasm c-blosc's decoder with BloscLZ and LZ4 streams (vendor/c-blosc,
#                     vendor/lz4: Debian's c-blosc and lz4 source packages; src/blosc-decode.c)
#   bz2-decode.wasm, bz2-encode.wasm  libbzip2 (vendor/bzip2: Debian's bzip2 source package;
#                     src/bz2-decode.c, src/bz2-encode.c)
#   xz-decode.wasm, xz-encode.wasm    liblzma's xz and alone coders (vendor/xz: Debian's xz-utils
#                     source package; src/xz-decode.c, src/xz-encode.c, src/liblzma-config/config.h)
# and, for each, a TypeScript module holding it in base64, which bundlers
# split into its own lazily loaded chunk with no configuration.
#
#   build.sh            writes into packages/codecs/{wasm,src/zstd,src/blosc,src/numcodecs}
#   build.sh --out DIR  writes into DIR instead (the reproducibility check)
#
# The output is byte-for-byte reproducible with the pinned Debian packages
# below; another compiler version gives other bytes, so the build refuses it.
set -euo pipefail

PINNED=(clang-14=1:14.0.6-12 lld-14=1:14.0.6-12 wasi-libc=0.0~git20220510.9886d3d-2 libclang-rt-14-dev-wasm32=1:14.0.6-12)

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
codecs="$here/../../packages/codecs"
wasm_out="$codecs/wasm"
ts_out="$codecs/src/zstd"
blosc_ts_out="$codecs/src/blosc"
numcodecs_ts_out="$codecs/src/numcodecs"
case "${1-}" in
  --out) wasm_out="$2" ts_out="$2" blosc_ts_out="$2" numcodecs_ts_out="$2" ;;
esac

for pin in "${PINNED[@]}"; do
  package="${pin%%=*}" version="${pin#*=}"
  installed="$(dpkg-query -W -f='${Version}' "$package" 2>/dev/null || true)"
  if [ "$installed" != "$version" ]; then
    echo "zstd-wasm: needs $package $version (installed: ${installed:-none}); run tooling/ci/install-system-deps.sh" >&2
    exit 1
  fi
done

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# clang runs any wasm-opt found on PATH after linking (binaryen's rejects bulk memory):
# give it a PATH holding only the linker.
mkdir "$work/bin"
ln -s /usr/bin/wasm-ld-14 "$work/bin/wasm-ld"

# The vendored sources stay as released: the patch (src/bitstream64.patch, which lets the
# decoder keep a 64-bit bit container on wasm32 and take the fast Huffman loop) goes into a copy.
zstd="$work/zstd/lib"
mkdir -p "$work/zstd"
cp -r "$here/vendor/zstd/lib" "$zstd"
(cd "$zstd" && git apply -p1 "$here/src/bitstream64.patch")
CFLAGS=(
  --target=wasm32-wasi -mexec-model=reactor -O3 -flto
  -mbulk-memory -msign-ext -mnontrapping-fptoint
  -DNDEBUG -DZSTD_LEGACY_SUPPORT=0 -DZSTD_DISABLE_ASM=1 -DZSTD_STRIP_ERROR_STRINGS
  -DXXH_NAMESPACE=ZSTD_ -DZSTD_TRACE=0
  "-ffile-prefix-map=$here=." "-ffile-prefix-map=$work=."
)
LDFLAGS=(-Wl,--gc-sections,--strip-all,--lto-O3,-z,stack-size=65536)
COMMON=(common/debug.c common/entropy_common.c common/error_private.c common/fse_decompress.c common/xxhash.c common/zstd_common.c)

build() {
  local name="$1" shift_flags=("${@:2}")
  TMPDIR="$work" PATH="$work/bin" /usr/bin/clang-14 "${CFLAGS[@]}" "${shift_flags[@]}" "${LDFLAGS[@]}" -o "$work/$name.wasm"
}

cd "$zstd"
# Sequences decoded by the short loop only, Huffman by the X1 tables only: with -flto the
# generic choice between the long and short loops costs about 30%. ZSTD_BITSTREAM_64: the
# 64-bit bit container of src/bitstream64.patch (18-22% faster on 64^3 and 32^3 chunks), and with
# it the fast Huffman loop (9-10% faster again).
DECODER=(-DZSTD_FORCE_DECOMPRESS_SEQUENCES_SHORT -DHUF_FORCE_DECOMPRESS_X1 -I "$zstd" -I "$zstd/common"
  "${COMMON[@]}" decompress/huf_decompress.c decompress/zstd_ddict.c decompress/zstd_decompress.c
  decompress/zstd_decompress_block.c "$here/src/decode.c")
build zstd-decode -DZSTD_BITSTREAM_64 "${DECODER[@]}"
# The encoder from its own sources, as released (13-28% faster than 1.5.4's on 32^3 and 64^3 uint16 chunks).
zstd_encoder="$here/vendor/zstd-encoder/lib"
cd "$zstd_encoder"
build zstd-encode -I "$zstd_encoder" -I "$zstd_encoder/common" \
  "${COMMON[@]}" compress/fse_compress.c compress/hist.c compress/huf_compress.c compress/zstd_compress.c \
  compress/zstd_compress_literals.c compress/zstd_compress_sequences.c compress/zstd_compress_superblock.c \
  compress/zstd_double_fast.c compress/zstd_fast.c compress/zstd_lazy.c compress/zstd_ldm.c compress/zstd_opt.c compress/zstd_preSplit.c \
  "$here/src/encode.c"

# c-blosc on one thread, with the compressors Zarr data uses most (zstd, zlib and snappy
# streams stay with the TypeScript decoder); no SIMD: the wasm has none of x86's.
blosc="$here/vendor/c-blosc/blosc" lz4="$here/vendor/lz4/lib"
cd "$blosc"
build blosc-decode -DHAVE_LZ4 -I "$blosc" -I "$lz4" -I "$here/src/single-thread" -Wno-#warnings \
  blosc.c blosclz.c shuffle.c shuffle-generic.c bitshuffle-generic.c fastcopy.c "$lz4/lz4.c" "$lz4/lz4hc.c" "$here/src/blosc-decode.c"

# libbzip2 without stdio (BZ_NO_STDIO: the modules define its bz_internal_error).
bzip2="$here/vendor/bzip2"
cd "$bzip2"
BZIP2=(-DBZ_NO_STDIO -I "$bzip2" blocksort.c bzlib.c compress.c crctable.c decompress.c huffman.c randtable.c)
build bz2-decode "${BZIP2[@]}" "$here/src/bz2-decode.c"
build bz2-encode "${BZIP2[@]}" "$here/src/bz2-encode.c"

# liblzma with a hand-written config.h (no configure run) and no threads; src/single-thread/signal.h
# stands in for the signals wasi lacks (mythread.h declares a helper only the xz command uses).
xz="$here/vendor/xz/src/liblzma"
cd "$xz"
LIBLZMA=(-DHAVE_CONFIG_H -I "$here/src/liblzma-config" -I "$here/src/single-thread" -I "$here/vendor/xz/src/common"
  -I api -I common -I check -I lz -I rangecoder -I lzma -I delta -I simple
  common/common.c common/block_util.c common/filter_common.c common/index.c common/stream_flags_common.c
  common/vli_size.c check/check.c check/crc32_fast.c check/crc32_table.c check/crc64_fast.c check/crc64_table.c
  check/sha256.c)
build xz-decode "${LIBLZMA[@]}" common/filter_decoder.c common/filter_flags_decoder.c common/stream_decoder.c \
  common/stream_flags_decoder.c common/block_decoder.c common/block_header_decoder.c common/index_hash.c \
  common/vli_decoder.c common/alone_decoder.c lz/lz_decoder.c lzma/lzma_decoder.c lzma/lzma2_decoder.c \
  delta/delta_common.c delta/delta_decoder.c simple/simple_coder.c simple/simple_decoder.c simple/x86.c \
  simple/powerpc.c simple/ia64.c simple/arm.c simple/armthumb.c simple/arm64.c simple/sparc.c "$here/src/xz-decode.c"
build xz-encode "${LIBLZMA[@]}" common/filter_encoder.c common/filter_flags_encoder.c common/stream_encoder.c \
  common/stream_flags_encoder.c common/block_encoder.c common/block_header_encoder.c common/index_encoder.c \
  common/vli_encoder.c common/alone_encoder.c common/easy_preset.c common/easy_encoder.c \
  common/stream_buffer_encoder.c common/block_buffer_encoder.c lz/lz_encoder.c lz/lz_encoder_mf.c \
  lzma/lzma_encoder.c lzma/lzma_encoder_presets.c lzma/lzma_encoder_optimum_fast.c \
  lzma/lzma_encoder_optimum_normal.c lzma/lzma2_encoder.c lzma/fastpos_table.c rangecoder/price_table.c \
  "$here/src/xz-encode.c"

# Each module, the directory of its base64 module, and what it was built from.
emit() {
  local name="$1" dir="$2" sources="$3"
  cp "$work/$name.wasm" "$wasm_out/$name.wasm"
  {
    echo "// Generated by tooling/zstd-wasm/build.sh from packages/codecs/wasm/$name.wasm: do not edit."
    echo "// sha256 $(sha256sum "$work/$name.wasm" | cut -d' ' -f1), $sources"
    printf 'export default "%s";\n' "$(base64 -w0 "$work/$name.wasm")"
  } >"$dir/$name-wasm.ts"
  echo "zstd-wasm: $name.wasm $(stat -c %s "$work/$name.wasm") bytes, sha256 $(sha256sum "$work/$name.wasm" | cut -d' ' -f1)"
}
mkdir -p "$wasm_out" "$ts_out" "$blosc_ts_out" "$numcodecs_ts_out"
emit zstd-decode "$ts_out" "zstd $(cat "$here/vendor/zstd/VERSION")"
emit zstd-encode "$ts_out" "zstd $(cat "$here/vendor/zstd-encoder/VERSION")"
emit blosc-decode "$blosc_ts_out" "c-blosc $(cat "$here/vendor/c-blosc/VERSION"), lz4 $(cat "$here/vendor/lz4/VERSION")"
for name in bz2-decode bz2-encode; do emit "$name" "$numcodecs_ts_out" "bzip2 $(cat "$here/vendor/bzip2/VERSION")"; done
for name in xz-decode xz-encode; do emit "$name" "$numcodecs_ts_out" "xz-utils $(cat "$here/vendor/xz/VERSION")"; done
