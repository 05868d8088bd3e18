#!/usr/bin/env bash
# Install the system packages the tests need, only those missing:
#  - chromium: the browser tests of @zarrkit/store-idb (vitest browser mode)
#  - radosgw, ceph-mon, ceph-osd, ceph-common: the real S3 server that the
#    @zarrkit/store-s3 tests start (see tooling/rgw and shared/notes/s3-rgw.md)
#  - python3-zarr: Debian's zarr-python 2 for /usr/bin/python3, which the Zarr
#    v2 interop test of zarrkit runs (packages/zarrkit/test/zarr-python-v2-interop.test.ts)
# Safe to run again; runs `apt-get update` once, and only when installing.
set -euo pipefail

browser=()
[ -x /usr/bin/chromium ] || browser=(chromium)

ceph=()
for pair in radosgw:radosgw radosgw-admin:radosgw ceph-mon:ceph-mon ceph-osd:ceph-osd ceph:ceph-common monmaptool:ceph-common; do
  binary="${pair%%:*}" package="${pair##*:}"
  if ! command -v "$binary" >/dev/null 2>&1 && [[ " ${ceph[*]-} " != *" $package "* ]]; then
    ceph+=("$package")
  fi
done

python=()
/usr/bin/python3 -c "import zarr, numcodecs" >/dev/null 2>&1 || python=(python3-zarr)

if [ ${#browser[@]} -eq 0 ] && [ ${#ceph[@]} -eq 0 ] && [ ${#python[@]} -eq 0 ]; then
  echo "install-system-deps: chromium, radosgw and python3-zarr are installed"
  exit 0
fi

sudo=()
[ "$(id -u)" -eq 0 ] || sudo=(sudo)
export DEBIAN_FRONTEND=noninteractive
echo "install-system-deps: installing ${browser[*]-} ${ceph[*]-} ${python[*]-}"
"${sudo[@]}" apt-get update
if [ ${#browser[@]} -gt 0 ]; then
  "${sudo[@]}" apt-get install -y "${browser[@]}"
fi
if [ ${#python[@]} -gt 0 ]; then
  "${sudo[@]}" apt-get install -y "${python[@]}"
fi
if [ ${#ceph[@]} -gt 0 ]; then
  # Without recommends: what a throwaway single-node cluster needs (about 64 MB).
  "${sudo[@]}" apt-get install -y --no-install-recommends "${ceph[@]}"
fi

[ -x /usr/bin/chromium ] || { echo "install-system-deps: /usr/bin/chromium is still missing" >&2; exit 1; }
for binary in radosgw radosgw-admin ceph-mon ceph-osd ceph monmaptool; do
  command -v "$binary" >/dev/null 2>&1 || { echo "install-system-deps: $binary is still missing" >&2; exit 1; }
done
/usr/bin/python3 -c "import zarr, numcodecs" >/dev/null 2>&1 || { echo "install-system-deps: zarr-python (python3-zarr) is still missing" >&2; exit 1; }
echo "install-system-deps: done"
