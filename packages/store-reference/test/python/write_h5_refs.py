"""Write an HDF5 file with h5py and its kerchunk references (version 1 JSON).

Usage: write_h5_refs.py OUT_DIR H5_URL

The references come from h5py's own chunk index (get_chunk_info for chunked
datasets, get_offset for contiguous ones), not from zarrkit. Writes:
  OUT_DIR/data.h5        the HDF5 file
  OUT_DIR/refs.json      kerchunk v1 references, the file's URL as the template "h5" (= H5_URL)
  OUT_DIR/expected.json  every dataset's values as h5py reads them
"""
import base64
import json
import sys

import h5py
import numpy as np

out, h5_url = sys.argv[1], sys.argv[2]
h5_path = f"{out}/data.h5"

with h5py.File(h5_path, "w") as f:
    # gzip + shuffle chunks, with partial edge chunks
    f.create_dataset("gzshuffle", data=(np.arange(23 * 31, dtype="<i4").reshape(23, 31) * 7919 - 10**6),
                     chunks=(8, 12), compression="gzip", compression_opts=6, shuffle=True)
    # big-endian floats, gzip without shuffle
    f.create_dataset("gzfloat", data=np.linspace(-5, 5, 40, dtype=">f8").reshape(5, 8), chunks=(2, 3),
                     compression="gzip")
    # contiguous (one reference for the whole dataset)
    f.create_dataset("contiguous", data=(np.arange(6 * 7, dtype="<f4").reshape(6, 7) / 4 - 3), chunks=None)
    # chunked, some chunks never written: they read as the fill value
    sparse = f.create_dataset("sparse", shape=(10, 10), dtype="<u2", chunks=(5, 5), fillvalue=77)
    sparse[0:5, 5:10] = np.arange(25, dtype="<u2").reshape(5, 5) + 1000
    sparse[5:10, 0:5] = 3
    # small: its one chunk goes inline as base64
    f.create_dataset("small", data=np.array([-3, 1, 4, -1, 5], dtype="<i2"), chunks=(5,))
    f["gzshuffle"].attrs["units"] = "counts"

refs = {".zgroup": json.dumps({"zarr_format": 2})}
expected = {}
with h5py.File(h5_path, "r") as f:
    for name, ds in f.items():
        dtype = ds.dtype.str
        chunks = list(ds.chunks or ds.shape)
        filters, compressor = None, None
        if ds.compression == "gzip":
            compressor = {"id": "zlib", "level": ds.compression_opts}
            if ds.shuffle:
                filters = [{"id": "shuffle", "elementsize": ds.dtype.itemsize}]
        fill = ds.fillvalue.item() if ds.fillvalue is not None else None
        refs[f"{name}/.zarray"] = json.dumps({
            "zarr_format": 2, "shape": list(ds.shape), "chunks": chunks, "dtype": dtype, "fill_value": fill,
            "order": "C", "filters": filters, "compressor": compressor,
        })
        attrs = {k: (v.decode() if isinstance(v, bytes) else str(v)) for k, v in ds.attrs.items()}
        refs[f"{name}/.zattrs"] = json.dumps(attrs)
        expected[name] = {"shape": list(ds.shape), "dtype": dtype, "values": ds[()].ravel().tolist()}
        if ds.chunks is None:
            key = f"{name}/" + ".".join("0" for _ in ds.shape)
            refs[key] = ["{{h5}}", ds.id.get_offset(), ds.id.get_storage_size()]
            continue
        for i in range(ds.id.get_num_chunks()):
            info = ds.id.get_chunk_info(i)
            key = f"{name}/" + ".".join(str(o // c) for o, c in zip(info.chunk_offset, ds.chunks))
            if name == "small":
                with open(h5_path, "rb") as raw:
                    raw.seek(info.byte_offset)
                    refs[key] = "base64:" + base64.b64encode(raw.read(info.size)).decode()
            else:
                refs[key] = ["{{h5}}", info.byte_offset, info.size]

with open(f"{out}/refs.json", "w") as fh:
    json.dump({"version": 1, "templates": {"h5": h5_url}, "refs": refs}, fh)
with open(f"{out}/expected.json", "w") as fh:
    json.dump(expected, fh)
