#!/usr/bin/env bash
# Install the system packages the tests need, only those missing:
#  - chromium: the browser tests of @zarrkit/store-idb (vitest browser mode)
#  - radosgw, ceph-mon, ceph-osd, ceph-common: the real S3 server that the
#    @zarrkit/store-s3 tests start (see tooling/rgw and shared/notes/s3-rgw.md)
#  - python3-zarr: Debian's zarr-python 2 for /usr/bin/python3, which the Zarr
#    v2 interop test of zarrkit runs (packages/zarrkit/test/zarr-python-v2-interop.test.ts)
#  - slurm-wlm, munge: the real batch engine (a single-node SLURM cluster) that
#    the job-array tests start (see tooling/slurm and shared/notes/slurm.md)
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

slurm=()
for pair in slurmctld:slurm-wlm slurmd:slurm-wlm sbatch:slurm-wlm sinfo:slurm-wlm scancel:slurm-wlm munged:munge munge:munge; do
  binary="${pair%%:*}" package="${pair##*:}"
  if ! PATH="$PATH:/usr/sbin:/sbin" command -v "$binary" >/dev/null 2>&1 && [[ " ${slurm[*]-} " != *" $package "* ]]; then
    slurm+=("$package")
  fi
done

if [ ${#browser[@]} -eq 0 ] && [ ${#ceph[@]} -eq 0 ] && [ ${#python[@]} -eq 0 ] && [ ${#slurm[@]} -eq 0 ]; then
  echo "install-system-deps: chromium, radosgw, python3-zarr and slurm-wlm are installed"
  exit 0
fi

sudo=()
[ "$(id -u)" -eq 0 ] || sudo=(sudo)
export DEBIAN_FRONTEND=noninteractive
echo "install-system-deps: installing ${browser[*]-} ${ceph[*]-} ${python[*]-} ${slurm[*]-}"
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

[ -x /usr/bin/chromium ] || { echo "install-system-deps: /usr/bin/chromium is still missing" >&2; exit 1; }
for binary in radosgw radosgw-admin ceph-mon ceph-osd ceph monmaptool; do
  command -v "$binary" >/dev/null 2>&1 || { echo "install-system-deps: $binary is still missing" >&2; exit 1; }
done
/usr/bin/python3 -c "import zarr, numcodecs" >/dev/null 2>&1 || { echo "install-system-deps: zarr-python (python3-zarr) is still missing" >&2; exit 1; }
for binary in slurmctld slurmd sbatch sinfo scancel munged munge; do
  PATH="$PATH:/usr/sbin:/sbin" command -v "$binary" >/dev/null 2>&1 || { echo "install-system-deps: $binary (slurm-wlm, munge) is still missing" >&2; exit 1; }
done
echo "install-system-deps: done"
