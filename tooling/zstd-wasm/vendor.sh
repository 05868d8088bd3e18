#!/usr/bin/env bash
# Re-creates vendor/zstd from Debian's libzstd source package (bookworm),
# checking the downloaded files against the checksums below, with Debian's
# patches applied (dpkg-source), then rewrites vendor/zstd/SHA256SUMS.
# Uses a private apt configuration: the system's sources are left alone.
set -euo pipefail

VERSION=1.5.4+dfsg2-5
SHA256=(
  "8f602f92b575aa8b5e979196fb6ee82d78f233521dc9636526d3ecba1f63c1b1  libzstd_1.5.4+dfsg2-5.dsc"
  "8cf4bbb65e77ec348d052c8d6230eba66d435bddf64c8b5be2fcb16880c19953  libzstd_1.5.4+dfsg2.orig.tar.xz"
  "82ce911445772861d0838bd4545f93bc50658bc7f3cefdb17a307dfb8ffca5d8  libzstd_1.5.4+dfsg2-5.debian.tar.xz"
)
# The files the build uses: the decoder, the encoder, their headers; no threads, dictionary builder or legacy formats.
KEEP=(LICENSE COPYING lib/zstd.h lib/zstd_errors.h lib/common lib/decompress lib/compress)
DROP=(lib/common/pool.c lib/common/threading.c lib/compress/zstdmt_compress.c lib/decompress/huf_decompress_amd64.S)

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/lists/partial" "$work/cache/archives/partial"
echo "deb-src http://deb.debian.org/debian bookworm main" >"$work/sources.list"
apt=(apt-get -o "Dir::Etc::SourceList=$work/sources.list" -o Dir::Etc::SourceParts=/dev/null
  -o "Dir::State::Lists=$work/lists" -o "Dir::Cache=$work/cache")
"${apt[@]}" update
(cd "$work" && "${apt[@]}" source --download-only "libzstd=$VERSION")
(cd "$work" && printf '%s\n' "${SHA256[@]}" | sha256sum -c -)
dpkg-source -x "$work/libzstd_$VERSION.dsc" "$work/src"

rm -rf "$here/vendor/zstd"
mkdir -p "$here/vendor/zstd/lib"
for path in "${KEEP[@]}"; do cp -r "$work/src/$path" "$here/vendor/zstd/$path"; done
for path in "${DROP[@]}"; do rm "$here/vendor/zstd/$path"; done
echo "$VERSION" >"$here/vendor/zstd/VERSION"
cd "$here/vendor/zstd"
find . -type f ! -name SHA256SUMS | sort | xargs sha256sum >SHA256SUMS
echo "vendor.sh: vendor/zstd holds libzstd $VERSION ($(wc -l <SHA256SUMS) files)"
