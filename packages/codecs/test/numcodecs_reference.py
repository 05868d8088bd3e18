"""Reference encodings from Python's numcodecs for test/numcodecs-python.test.ts.

Reads JSON from stdin: {"encode": [case...], "decode": [item...]}.
A case is {"config": {"id": ..., ...}, "dtype": "<i4" | "|O" | ..., "shape": [...], "values": [...]};
numcodecs encodes np.array(values, dtype).reshape(shape) and decodes the result.
An item is {"config": ..., "data": base64, "dtype"?: str} (bytes, or an array of dtype) to decode.
Writes {"version": ..., "encoded": [...], "decoded": [...]}: bytes as base64, object arrays as lists.
"""
import base64
import json
import sys

import numpy as np
import numcodecs


def b64(data):
    return base64.b64encode(bytes(data)).decode("ascii")


def describe(result):
    if isinstance(result, np.ndarray):
        if result.dtype == object:
            return {"items": [str(x) for x in result.reshape(-1)], "dtype": "|O"}
        return {"data": b64(np.ascontiguousarray(result).tobytes()), "dtype": result.dtype.str}
    return {"data": b64(memoryview(result).cast("B"))}


def main():
    request = json.load(sys.stdin)
    out = {"version": numcodecs.__version__, "encoded": [], "decoded": []}
    for case in request.get("encode", []):
        codec = numcodecs.get_codec(dict(case["config"]))
        arr = np.array(case["values"], dtype=case["dtype"]).reshape(case["shape"])
        enc = codec.encode(arr)
        dec = codec.decode(enc)
        out["encoded"].append({"encoded": describe(enc), "decoded": describe(dec)})
    for item in request.get("decode", []):
        codec = numcodecs.get_codec(dict(item["config"]))
        data = base64.b64decode(item["data"])
        buf = np.frombuffer(data, dtype=item["dtype"]) if "dtype" in item else data
        try:
            out["decoded"].append(describe(codec.decode(buf)))
        except Exception as error:  # reported to the test, which fails on it
            out["decoded"].append({"error": f"{type(error).__name__}: {error}"})
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    main()
