#!/usr/bin/env bash
# Install the system packages the tests need, only those missing:
#  - chromium: the browser tests of @zarrkit/store-idb (vitest browser mode)
#  - radosgw, ceph-mon, ceph-osd, ceph-common: the real S3 server that the
#    @zarrkit/store-s3 tests start (see tooling/rgw and shared/notes/s3-rgw.md)
#  - python3-zarr: Debian's zarr-python 2 for /usr/bin/python3, which the Zarr
#    v2 interop test of zarrkit runs (packages/zarrkit/test/zarr-python-v2-interop.test.ts)
#  - python3-h5py: the HDF5 files (and their chunk index) that the reference
#    tests read through kerchunk references (packages/store-reference/test);
#    python3-venv: the venvs those tests install pyarrow into (the Parquet layout)
#    and the bench and core's interop test install tensorstore into
#    (tooling/bench/src/tensorstore/install.ts, packages/core/test/tensorstore.ts)
#  - zip: Info-ZIP's zip, which writes the multi-part and encrypted archives that
#    the @zarrkit/store-zip tests must refuse
#  - slurm-wlm, munge: the real batch engine (a single-node SLURM cluster) that
#    the job-array tests start (see tooling/slurm and shared/notes/slurm.md)
#  - clang-14, lld-14, wasi-libc, libclang-rt-14-dev-wasm32 at the versions
#    tooling/zstd-wasm/build.sh pins: its test rebuilds the zstd, Blosc, bzip2 and xz wasm and
#    compares bytes, and builds zstd for this machine to compare with (clang-14 brings glibc's
#    headers); zstd: the CLI the zstd interop tests of @zarrkit/codecs run
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
/usr/bin/python3 -c "import h5py" >/dev/null 2>&1 || python+=(python3-h5py)
/usr/bin/python3 -c "import ensurepip, venv" >/dev/null 2>&1 || python+=(python3-venv)
command -v zip >/dev/null 2>&1 || python+=(zip)

slurm=()
for pair in slurmctld:slurm-wlm slurmd:slurm-wlm sbatch:slurm-wlm sinfo:slurm-wlm scancel:slurm-wlm munged:munge munge:munge; do
  binary="${pair%%:*}" package="${pair##*:}"
  if ! PATH="$PATH:/usr/sbin:/sbin" command -v "$binary" >/dev/null 2>&1 && [[ " ${slurm[*]-} " != *" $package "* ]]; then
    slurm+=("$package")
  fi
done

# The zstd wasm build's toolchain, at the exact versions it pins (other versions build other bytes).
wasm=()
for pin in clang-14=1:14.0.6-12 lld-14=1:14.0.6-12 wasi-libc=0.0~git20220510.9886d3d-2 libclang-rt-14-dev-wasm32=1:14.0.6-12; do
  [ "$(dpkg-query -W -f='${Version}' "${pin%%=*}" 2>/dev/null || true)" = "${pin#*=}" ] || wasm+=("$pin")
done
command -v zstd >/dev/null 2>&1 || wasm+=(zstd)

if [ ${#browser[@]} -eq 0 ] && [ ${#ceph[@]} -eq 0 ] && [ ${#python[@]} -eq 0 ] && [ ${#slurm[@]} -eq 0 ] && [ ${#wasm[@]} -eq 0 ]; then
  echo "install-system-deps: chromium, radosgw, python3-zarr, python3-h5py, python3-venv, zip, slurm-wlm, the zstd wasm toolchain and zstd are installed"
  exit 0
fi

sudo=()
[ "$(id -u)" -eq 0 ] || sudo=(sudo)
export DEBIAN_FRONTEND=noninteractive
echo "install-system-deps: installing ${browser[*]-} ${ceph[*]-} ${python[*]-} ${slurm[*]-} ${wasm[*]-}"
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
if [ ${#slurm[@]} -gt 0 ]; then
  # Without recommends: the daemons and clients of a single-node cluster, no mail or docs.
  "${sudo[@]}" apt-get install -y --no-install-recommends "${slurm[@]}"
fi
if [ ${#wasm[@]} -gt 0 ]; then
  "${sudo[@]}" apt-get install -y --no-install-recommends "${wasm[@]}"
fi

[ -x /usr/bin/chromium ] || { echo "install-system-deps: /usr/bin/chromium is still missing" >&2; exit 1; }
for binary in radosgw radosgw-admin ceph-mon ceph-osd ceph monmaptool; do
  command -v "$binary" >/dev/null 2>&1 || { echo "install-system-deps: $binary is still missing" >&2; exit 1; }
done
/usr/bin/python3 -c "import zarr, numcodecs" >/dev/null 2>&1 || { echo "install-system-deps: zarr-python (python3-zarr) is still missing" >&2; exit 1; }
/usr/bin/python3 -c "import h5py" >/dev/null 2>&1 || { echo "install-system-deps: h5py (python3-h5py) is still missing" >&2; exit 1; }
/usr/bin/python3 -c "import ensurepip, venv" >/dev/null 2>&1 || { echo "install-system-deps: python3-venv is still missing" >&2; exit 1; }
command -v zip >/dev/null 2>&1 || { echo "install-system-deps: zip is still missing" >&2; exit 1; }
for binary in slurmctld slurmd sbatch sinfo scancel munged munge; do
  PATH="$PATH:/usr/sbin:/sbin" command -v "$binary" >/dev/null 2>&1 || { echo "install-system-deps: $binary (slurm-wlm, munge) is still missing" >&2; exit 1; }
done
for binary in clang-14 wasm-ld-14 zstd; do
  command -v "$binary" >/dev/null 2>&1 || { echo "install-system-deps: $binary is still missing" >&2; exit 1; }
done
echo "install-system-deps: done"
