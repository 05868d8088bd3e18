"""The bench's tensorstore contender: a child process kept alive across runs.

One JSON request per line on stdin, one JSON reply per line on stdout
(protocol.ts). Timed work is timed here, in-process, with perf_counter, so
neither Python's start-up nor the pipe is in the figure. tensorstore runs with
its default context: its thread pools use every core, and there is no chunk
cache (cache_pool 0).
"""

import importlib.metadata
import json
import sys
import time

import numpy as np
import tensorstore as ts

# The array opened by "open", read by "read"; the values loaded by "load", written by "write".
opened = None
values = None


def spec(path, metadata=None):
    out = {"driver": "zarr3", "kvstore": {"driver": "file", "path": path}}
    if metadata is not None:
        out["metadata"] = metadata
    return out


def box_of(box):
    return tuple(slice(start, stop) for start, stop in zip(box["start"], box["stop"]))


def handle(request):
    """Runs one request; returns the reply (without its id)."""
    global opened, values
    op = request["op"]
    if op == "version":
        return {"version": importlib.metadata.version("tensorstore")}
    if op == "open":
        opened = ts.open(spec(request["path"]), read=True).result()
        return {}
    if op == "read":
        boxes = request.get("boxes")
        out = request.get("out")
        # With `out` (the checking run, whose time the suite discards), each result is written there as it comes,
        # C order, little-endian, for Node to check; without, each is dropped, as the other contenders' are.
        sink = open(out, "wb") if out is not None else None
        try:
            start = time.perf_counter()
            for part in [opened] if boxes is None else (opened[box_of(box)] for box in boxes):
                result = part.read().result()
                if sink is not None:
                    sink.write(np.ascontiguousarray(result, dtype="<u2").tobytes())
            ms = (time.perf_counter() - start) * 1000
        finally:
            if sink is not None:
                sink.close()
        return {"ms": ms}
    if op == "load":
        values = np.fromfile(request["file"], dtype="<u2").reshape(request["shape"])
        return {}
    if op == "write":
        start = time.perf_counter()
        array = ts.open(spec(request["path"], request["metadata"]), create=True).result()
        array.write(values).result()
        return {"ms": (time.perf_counter() - start) * 1000}
    raise ValueError(f"unknown op {op!r}")


def main():
    for line in sys.stdin:
        request = json.loads(line)
        try:
            reply = handle(request)
        except Exception as error:  # reported to Node, which fails the step: the child stays up
            reply = {"error": f"{type(error).__name__}: {error}"}
        reply["id"] = request.get("id")
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()


main()
