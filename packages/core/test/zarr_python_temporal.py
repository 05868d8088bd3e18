"""zarr-python 2.13 (Debian's python3-zarr) as a peer for the datetime64 / timedelta64 tests (temporal-types.test.ts).

Reads a JSON list of requests on stdin, answers a JSON list on stdout. Values travel as int64 counts in decimal text
(NaT is -9223372036854775808), so nothing passes through a float.
- {"op": "write", "path", "dtype", "shape", "chunks", "fill": "NaT" or decimal text, "counts"}: zarr.open(mode "w"),
  then writes `counts` into the first elements (the rest stays fill value).
- {"op": "read", "path"}: answers {"dtype": the numpy dtype string, "fill": text, "counts": [text, ...]}.
"""
import json
import sys

import numpy as np
import zarr


def counts_of(dtype):
    """int64 in the byte order of `dtype`, so that viewing one as the other keeps every count."""
    return np.dtype("i8").newbyteorder(dtype.byteorder)


def write(request):
    dtype = np.dtype(request["dtype"])
    fill = dtype.type("NaT") if request["fill"] == "NaT" else np.array(int(request["fill"]), dtype=counts_of(dtype)).view(dtype)[()]
    array = zarr.open(
        request["path"], mode="w", shape=request["shape"], chunks=request["chunks"], dtype=dtype, fill_value=fill,
        compressor=None,
    )
    counts = np.array([int(c) for c in request["counts"]], dtype=counts_of(dtype))
    array[: len(counts)] = counts.view(dtype)
    return {"written": len(counts)}


def read(request):
    array = zarr.open(request["path"], mode="r")
    return {
        "dtype": array.dtype.str,
        "fill": str(np.array(array.fill_value, dtype=array.dtype).view(counts_of(array.dtype))[()]),
        "counts": [str(c) for c in array[...].view(counts_of(array.dtype)).reshape(-1).tolist()],
    }


def main():
    ops = {"write": write, "read": read}
    json.dump([ops[request["op"]](request) for request in json.load(sys.stdin)], sys.stdout)


if __name__ == "__main__":
    main()
