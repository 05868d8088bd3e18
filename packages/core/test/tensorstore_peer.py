"""tensorstore 0.1.85 as a peer for the narrow data type tests (tensorstore-interop.test.ts).

Reads a JSON list of requests on stdin, answers a JSON list on stdout. Values travel as bit patterns (unsigned integers of the
stored width), so NaN encodings and negative zero arrive unchanged.
- {"op": "write", "path", "dtype", "shape", "chunk", "fill_value", "bits"}: creates a Zarr v3 array with tensorstore
  (codec `bytes`, little endian) and writes `bits` into its first len(bits) elements (the rest stays fill value).
- {"op": "read", "path"}: tensorstore opens the array and reads it; answers {"dtype", "fill_bits", "bits"}.
- {"op": "convert", "dtype", "float32_bits"}: tensorstore's own conversion of float32 values to dtype (a write through
  ts.cast), answered as bit patterns.
- {"op": "ml_dtypes", "dtype", "float32_bits"}: ml_dtypes' conversion (numpy astype), for float8_e8m0fnu, whose
  conversions tensorstore 0.1.85 gets wrong (2.0 becomes 0x40, 0x7f reads as 2^64).
"""
import json
import sys

import ml_dtypes
import numpy as np
import tensorstore as ts


def unsigned(dtype):
    return np.uint16 if np.dtype(dtype).itemsize == 2 else np.uint8


def spec(path):
    return {"driver": "zarr3", "kvstore": {"driver": "file", "path": path}}


def write(request):
    dtype = ts.dtype(request["dtype"]).numpy_dtype
    metadata = {
        "data_type": request["dtype"],
        "shape": request["shape"],
        "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": request["chunk"]}},
        "fill_value": request["fill_value"],
        # Named: left to itself, tensorstore may choose sharding_indexed, which core's tests cannot read.
        "codecs": [{"name": "bytes", "configuration": {"endian": "little"}} if dtype.itemsize > 1 else {"name": "bytes"}],
    }
    store = ts.open({**spec(request["path"]), "metadata": metadata}, create=True, delete_existing=True).result()
    bits = np.array(request["bits"], dtype=unsigned(dtype))
    store[0 : len(bits)].write(bits.view(dtype)).result()
    return {"written": len(bits)}


def read(request):
    store = ts.open(spec(request["path"])).result()
    dtype = store.dtype.numpy_dtype
    values = store.read().result()
    fill = np.asarray(store.fill_value, dtype=dtype).reshape(1)
    return {
        "dtype": store.dtype.name,
        "fill_bits": fill.view(unsigned(dtype)).tolist()[0],
        "bits": values.reshape(-1).view(unsigned(dtype)).tolist(),
    }


def convert(request):
    floats = np.array(request["float32_bits"], dtype=np.uint32).view(np.float32)
    dtype = ts.dtype(request["dtype"])
    store = ts.array(np.zeros(len(floats), dtype=dtype.numpy_dtype), dtype=dtype)
    ts.cast(store, ts.float32).write(floats).result()
    out = store.read().result()
    return {"bits": out.view(unsigned(out.dtype)).tolist()}


def ml_dtypes_convert(request):
    out = np.array(request["float32_bits"], dtype=np.uint32).view(np.float32).astype(getattr(ml_dtypes, request["dtype"]))
    return {"bits": out.view(unsigned(out.dtype)).tolist()}


def main():
    ops = {"write": write, "read": read, "convert": convert, "ml_dtypes": ml_dtypes_convert}
    json.dump([ops[request["op"]](request) for request in json.load(sys.stdin)], sys.stdout)


if __name__ == "__main__":
    main()
