"""Write kerchunk references in the Parquet layout (fsspec's LazyReferenceMapper) with pyarrow.

Usage: write_parquet_refs.py REFS_JSON OUT_FOLDER RECORD_SIZE [COMPRESSION]

Reads version 1 JSON references (templates rendered) and writes
OUT_FOLDER/.zmetadata ({"metadata": ..., "record_size": N}) and, per array,
OUT_FOLDER/<var>/refs.<n>.parq with columns path, offset, size, raw: one row
per chunk in C order, N rows per file (fewer in the last); chunks without a
reference have null path and raw. COMPRESSION: pyarrow's (default snappy;
fsspec's own writer uses zstd).
"""
import base64
import json
import math
import os
import sys

import pyarrow as pa
import pyarrow.parquet as pq


def unravel(number, grid):
    """The chunk index of chunk number `number` in C order (numpy's unravel_index)."""
    index = []
    for count in reversed(grid):
        index.append(number % count)
        number //= count
    return reversed(index)


refs_json, out, record_size = sys.argv[1], sys.argv[2], int(sys.argv[3])
compression = sys.argv[4] if len(sys.argv) > 4 else "snappy"
doc = json.load(open(refs_json))
templates, refs = doc.get("templates", {}), doc["refs"]
metadata = {k: json.loads(v) for k, v in refs.items() if k.rsplit("/", 1)[-1].startswith(".z")}
os.makedirs(out, exist_ok=True)
json.dump({"metadata": metadata, "record_size": record_size}, open(f"{out}/.zmetadata", "w"))

for key, zarray in metadata.items():
    if not key.endswith("/.zarray"):
        continue
    var = key[: -len("/.zarray")]
    grid = [math.ceil(s / c) for s, c in zip(zarray["shape"], zarray["chunks"])] or [1]
    count = math.prod(grid)
    os.makedirs(f"{out}/{var}", exist_ok=True)
    for record in range(math.ceil(count / record_size)):
        paths, offsets, sizes, raws = [], [], [], []
        for number in range(record * record_size, min(count, (record + 1) * record_size)):
            chunk = ".".join(str(i) for i in unravel(number, grid))
            ref = refs.get(f"{var}/{chunk}")
            if ref is None:
                paths.append(None), offsets.append(0), sizes.append(0), raws.append(None)
            elif isinstance(ref, str):
                raw = base64.b64decode(ref[7:]) if ref.startswith("base64:") else ref.encode()
                paths.append(None), offsets.append(0), sizes.append(0), raws.append(raw)
            else:
                url = ref[0]
                for name, value in templates.items():
                    url = url.replace("{{" + name + "}}", value)
                paths.append(url), offsets.append(ref[1]), sizes.append(ref[2]), raws.append(None)
        table = pa.table({
            "path": pa.array(paths, pa.string()).dictionary_encode(),
            "offset": pa.array(offsets, pa.int64()),
            "size": pa.array(sizes, pa.int64()),
            "raw": pa.array(raws, pa.binary()),
        })
        pq.write_table(table, f"{out}/{var}/refs.{record}.parq", compression=compression)
