"""Write the cases of the RFC-9 (single-file OME-Zarr) compatibility kit with
Python's zipfile, from a Zarr v3 hierarchy on disk: the way clbarnes/ozx-tck
builds them (metadata first, breadth first; ZIP64; STORED), and each departure
from it. Usage: python3 rfc9_kit.py <hierarchy dir> <output dir> <ome version>
"""
import json
import random
import subprocess
import sys
import zipfile
from collections import deque
from pathlib import Path

source, out, version = Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[3]


def breadth_first(root):
    """Every file below root, breadth first, each directory's files sorted."""
    queue = deque([root])
    while queue:
        directory = queue.popleft()
        children = sorted(directory.iterdir(), key=lambda p: p.name)
        for child in children:
            if child.is_file():
                yield child
        queue.extend(child for child in children if child.is_dir())


def kit_order(root):
    files = list(breadth_first(root))
    metadata = [f for f in files if f.name == "zarr.json"]
    return metadata + [f for f in files if f.name != "zarr.json"]


def comment(json_first):
    ome = {"version": version}
    if json_first is not None:
        ome["zipFile"] = {"centralDirectory": {"jsonFirst": json_first}}
    return json.dumps({"ome": ome}).encode()


def write(path, files, prefix="", zip64=True, compression=zipfile.ZIP_STORED, note=None, extra=()):
    with zipfile.ZipFile(path, "x", compression=compression) as z:
        for f in files:
            with z.open(prefix + f.relative_to(source).as_posix(), "w", force_zip64=zip64) as dest:
                dest.write(f.read_bytes())
        for name, data in extra:
            with z.open(name, "w", force_zip64=True) as dest:
                dest.write(data)
        if note is not None:
            z.comment = note


out.mkdir(parents=True, exist_ok=True)
ordered = kit_order(source)
shuffled = list(ordered)
random.Random(1991).shuffle(shuffled)

write(out / "valid.ozx", ordered, note=comment(True))
write(out / "no-comment.ozx", ordered)
write(out / "unsorted.ozx", shuffled, note=comment(False))
write(out / "deflated.ozx", ordered, compression=zipfile.ZIP_DEFLATED, note=comment(True))
write(out / "not-zip64.ozx", ordered, zip64=False, note=comment(True))
write(out / "named.zip", ordered, note=comment(True))
write(out / "misleading-sort.ozx", shuffled, note=comment(True))
write(out / "root-not-zarr.ozx", ordered, prefix="somedirectory/", note=comment(True))

inner = out / "inner.ozx"
with zipfile.ZipFile(inner, "x") as z:
    with z.open("zarr.json", "w", force_zip64=True) as f:
        f.write(json.dumps({"zarr_format": 3, "node_type": "group", "attributes": {"ome": {"version": version}}}).encode())
    z.comment = comment(True)
write(out / "ozx-in-ozx.ozx", ordered, note=comment(True), extra=[("inner.ozx", inner.read_bytes())])
inner.unlink()

# Multi-part: Info-ZIP's zip splits a whole archive into parts of 64 KiB (its smallest; the archive must be larger).
whole = out / "whole.zip"
write(whole, ordered, note=comment(True))
parts = out / "multipart"
parts.mkdir()
assert whole.stat().st_size > 64 * 1024, "the hierarchy is too small to split"
subprocess.run(["zip", "-q", str(whole), "--out", str(parts / "multipart.zip"), "-s", "64k"], check=True)
whole.unlink()
