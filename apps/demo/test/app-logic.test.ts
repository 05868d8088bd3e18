import { describe, expect, it } from "vitest";
import { annotationLayout, annotationPrefix, brushDab } from "../src/annotations.js";
import { grayLut, labelColor, viridisLut } from "../src/colormap.js";
import { autoContrast, grayLevel } from "../src/contrast.js";
import { planeRgba } from "../src/render.js";
import { formatUrlState, parseUrlState } from "../src/url-state.js";
import { groupTiles, levelForZoom, tilesCovering, visibleRect, zoomAround } from "../src/view-plan.js";
import { omeDatasets } from "../src/zarr-volume.js";
import { absoluteSource, childSource, s3Source } from "../src/open-source.js";

describe("URL state", () => {
  it("reads the contract's parameters", () => {
    const state = parseUrlState("?source=http%3A%2F%2Fh%2Fa.zarr&at=3,4&contrast=100,2000&colormap=gray&zoom=1");
    expect(state).toEqual({ source: "http://h/a.zarr", at: [3, 4], contrast: [100, 2000], colormap: "gray", zoom: 1 });
  });

  it("leaves out what is malformed, so the app picks its defaults", () => {
    expect(parseUrlState("?at=1,x&contrast=5,1&colormap=jet&zoom=-2&axes=1,1&pan=a,b")).toEqual({});
    expect(parseUrlState("?at=-1")).toEqual({});
    expect(parseUrlState("?contrast=1,2,3")).toEqual({});
  });

  it("round-trips through formatUrlState", () => {
    const state = {
      source: "precomputed://https://example.org/em",
      at: [10],
      contrast: [0.5, 1.25] as [number, number],
      colormap: "viridis" as const,
      zoom: 0.25,
      axes: [2, 0] as [number, number],
      pan: [12.5, -3] as [number, number],
    };
    const text = formatUrlState(state);
    expect(text).toContain("source=precomputed%3A%2F%2Fhttps%3A%2F%2Fexample.org%2Fem");
    expect(parseUrlState(text)).toEqual(state);
    expect(formatUrlState({})).toBe("");
  });
});

describe("contrast", () => {
  it("maps the window to 0..255 as the contract says", () => {
    expect(grayLevel(100, 100, 200)).toBe(0);
    expect(grayLevel(150, 100, 200)).toBe(128); // 127.5 rounds up
    expect(grayLevel(200, 100, 200)).toBe(255);
    expect(grayLevel(-5, 100, 200)).toBe(0);
    expect(grayLevel(1e9, 100, 200)).toBe(255);
    expect(grayLevel(101, 100, 200)).toBe(Math.round(2.55));
  });

  it("picks a window between the 0.5th and 99.5th percentiles, ignoring outliers", () => {
    const values = Float64Array.from({ length: 1000 }, (_, i) => i);
    values[0] = -1e9;
    values[999] = 1e9;
    expect(autoContrast([values.subarray(0, 500), values.subarray(500)])).toEqual([5, 995]);
    expect(autoContrast([new Uint8Array([7, 7, 7])])).toEqual([7, 8]);
    expect(autoContrast([])).toBeUndefined();
    expect(autoContrast([new Float32Array([Number.NaN])])).toBeUndefined();
  });

  it("samples evenly across blocks when there are many values", () => {
    const block = Uint16Array.from({ length: 10_000 }, (_, i) => i);
    const [lo, hi] = autoContrast([block, block], 1000)!;
    expect(lo).toBeLessThan(200);
    expect(hi).toBeGreaterThan(9800);
  });
});

describe("colour", () => {
  it("gray is the identity, viridis runs from dark purple to yellow", () => {
    const gray = grayLut();
    expect([...gray.subarray(128 * 4, 129 * 4)]).toEqual([128, 128, 128, 255]);
    const viridis = viridisLut();
    const near = (a: number[], b: number[]) => a.every((v, i) => Math.abs(v - b[i]!) <= 4);
    expect(near([...viridis.subarray(0, 3)], [68, 1, 84])).toBe(true);
    expect(near([...viridis.subarray(255 * 4, 255 * 4 + 3)], [253, 231, 37])).toBe(true);
  });

  it("labels get stable colours, 0 is transparent, and bigints beyond 2^53 are told apart", () => {
    expect(labelColor(0n)).toEqual([0, 0, 0, 0]);
    expect(labelColor(5n)).toEqual(labelColor(5));
    expect(labelColor(2n ** 60n + 1n)).not.toEqual(labelColor(2n ** 60n + 2n));
  });

  it("renders a strided (transposed) plane row by row", () => {
    // values in [col][row] order: element (r, c) = values[r + 2c].
    const plane = { rows: 2, cols: 3, values: Uint16Array.from([0, 10, 20, 30, 40, 50]), rowStride: 1, colStride: 2 };
    const rgba = planeRgba(plane, { kind: "window", lo: 0, hi: 50, lut: grayLut() });
    const grays = Array.from({ length: 6 }, (_, i) => rgba[i * 4]);
    expect(grays).toEqual([0, 20, 40, 10, 30, 50].map((v) => Math.round((255 * v) / 50)));
  });
});

describe("view planning", () => {
  const view = { panRow: 0, panCol: 0, zoom: 1, width: 300, height: 200 };

  it("clips the visible rectangle to the array", () => {
    expect(visibleRect(view, 256, 256)).toEqual({ r0: 0, c0: 0, r1: 200, c1: 256 });
    expect(visibleRect({ ...view, panRow: 100.5, panCol: -20, zoom: 2 }, 256, 256)).toEqual({
      r0: 100,
      c0: 0,
      r1: 201,
      c1: 130,
    });
    expect(visibleRect({ ...view, panRow: 300 }, 256, 256)).toBeUndefined();
    // A level with 4x fewer elements: a quarter of the level-0 extent.
    expect(visibleRect({ ...view, zoom: 0.25 }, 64, 64, [4, 4])).toEqual({ r0: 0, c0: 0, r1: 64, c1: 64 });
  });

  it("lists the tiles (inner chunks) a view touches and groups them by shard", () => {
    const tiles = tilesCovering({ r0: 60, c0: 0, r1: 130, c1: 70 }, [64, 64], 256, 256);
    expect(tiles.map((t) => [t.row, t.col])).toEqual([
      [0, 0],
      [0, 1],
      [1, 0],
      [1, 1],
      [2, 0],
      [2, 1],
    ]);
    const edge = tilesCovering({ r0: 0, c0: 250, r1: 10, c1: 256 }, [64, 100], 256, 256);
    expect(edge).toEqual([{ row: 0, col: 2, rect: { r0: 0, c0: 200, r1: 64, c1: 256 } }]);
    const groups = groupTiles(tiles, [128, 128]);
    expect(groups.map((g) => [g.row, g.col, g.tiles.length, g.rect])).toEqual([
      [0, 0, 4, { r0: 0, c0: 0, r1: 128, c1: 128 }],
      [1, 0, 2, { r0: 128, c0: 0, r1: 192, c1: 128 }],
    ]);
  });

  it("picks the pyramid level from the zoom", () => {
    expect(levelForZoom([1, 2, 4, 8], 1)).toBe(0);
    expect(levelForZoom([1, 2, 4, 8], 4)).toBe(0);
    expect(levelForZoom([1, 2, 4, 8], 0.5)).toBe(1);
    expect(levelForZoom([1, 2, 4, 8], 0.3)).toBe(1);
    expect(levelForZoom([1, 2, 4, 8], 0.01)).toBe(3);
  });

  it("zooms around the pointer", () => {
    const pan = zoomAround({ ...view, panRow: 10, panCol: 20 }, 100, 50, 2);
    // The element under (100, 50) was (60, 120); at zoom 2 it is still there.
    expect(pan).toEqual({ panRow: 60 - 25, panCol: 120 - 50 });
  });
});

describe("annotations", () => {
  it("lays the paint array out in small chunks, a few per shard, dividing evenly", () => {
    expect(annotationLayout([128, 256, 256])).toEqual({ chunkShape: [32, 32, 32], shardShape: [128, 128, 128] });
    expect(annotationLayout([3, 40])).toEqual({ chunkShape: [3, 32], shardShape: [3, 64] });
  });

  it("paints a clipped disc", () => {
    const dab = brushDab(0, 5, 10, 10, 1);
    expect([dab.r0, dab.c0, dab.r1, dab.c1]).toEqual([0, 4, 2, 7]);
    expect(dab.mask).toEqual([true, true, true, false, true, false]);
  });

  it("names each source's annotations apart", () => {
    expect(annotationPrefix("http://a/x.zarr")).toMatch(/^annotations\/[0-9a-f]{8}$/);
    expect(annotationPrefix("http://a/x.zarr")).toBe(annotationPrefix("http://a/x.zarr"));
    expect(annotationPrefix("http://a/x.zarr")).not.toBe(annotationPrefix("http://a/y.zarr"));
  });
});

describe("OME-Zarr multiscales", () => {
  it("finds the datasets of 0.5 (attributes.ome) and 0.4 (attributes) images, and nothing in other groups", () => {
    const datasets = [{ path: "0" }, { path: "1", coordinateTransformations: [{ type: "scale", scale: [2, 2] }] }];
    expect(omeDatasets({ ome: { version: "0.5", multiscales: [{ datasets }] } })).toEqual(datasets);
    expect(omeDatasets({ multiscales: [{ datasets }] })).toEqual(datasets);
    expect(omeDatasets({ description: "a group" })).toBeUndefined();
    expect(omeDatasets({ ome: { multiscales: [{ datasets: [] }] } })).toBeUndefined();
  });
});

describe("sources", () => {
  it("makes paths on this server absolute, inside precomputed:// too", () => {
    expect(absoluteSource("/data/a.zarr", "http://127.0.0.1:4173")).toBe("http://127.0.0.1:4173/data/a.zarr");
    expect(absoluteSource("precomputed:///data/p", "http://h")).toBe("precomputed://http://h/data/p");
    expect(absoluteSource(" https://x/a.zarr ", "http://h")).toBe("https://x/a.zarr");
  });

  it("puts the S3 form's endpoint and region in the URL, never the keys", () => {
    expect(s3Source("s3://b/p.zarr", "http://127.0.0.1:7480", "us-east-1")).toBe(
      "s3://b/p.zarr?endpoint=http%3A%2F%2F127.0.0.1%3A7480&region=us-east-1",
    );
    expect(s3Source("s3://b/p.zarr", "", "")).toBe("s3://b/p.zarr");
  });

  it("names a group member below a folder, inside an archive (ZEP 8's |zip:path) or inside a local source", () => {
    expect(childSource("https://h/g.zarr/", "a/b")).toBe("https://h/g.zarr/a/b");
    expect(childSource("/data/volume.ozx", "sharded")).toBe("/data/volume.ozx|zip:sharded");
    expect(childSource("https://h/x.ZIP", "a")).toBe("https://h/x.ZIP|zip:a");
    expect(childSource("https://h/x.zip|zip:", "a")).toBe("https://h/x.zip|zip:a");
    expect(childSource("https://h/x.zip|zip:g", "a")).toBe("https://h/x.zip|zip:g/a");
    expect(childSource("local:volume.ozx", "sharded")).toBe("local:volume.ozx/sharded");
    expect(childSource("local:data.zarr/g", "a")).toBe("local:data.zarr/g/a");
  });
});
