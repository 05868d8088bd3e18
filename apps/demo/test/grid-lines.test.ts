import { describe, expect, it } from "vitest";
import * as zk from "zarrkit";
import { cellBoundaries, codecChain } from "../src/grid-lines.js";

describe("layout in the inspector", () => {
  it("gives the cell boundaries of regular, sharded and rectilinear grids", async () => {
    const store = new zk.MemoryStore();
    const rectilinear = await zk.createArray(store, "t", {
      shape: [1000, 10],
      chunkShape: [[100, 300, 500, 100], 10],
      dataType: "float32",
    });
    expect(cellBoundaries(rectilinear, 0)).toEqual([0, 100, 400, 900, 1000]);
    expect(cellBoundaries(rectilinear, 1)).toEqual([0, 10]);
    const sharded = await zk.createArray(store, "s", {
      shape: [95, 100],
      chunkShape: [10, 10],
      shardShape: [50, 50],
      dataType: "uint8",
    });
    expect(cellBoundaries(sharded, 0)).toEqual([0, 50, 95]);
    expect(cellBoundaries(sharded, 0, 1)).toBeUndefined();
  });

  it(
    "writes the codec chain in one line, sharding's inner and index codecs included, and v2's filters and " +
      "compressor",
    async () => {
      const store = new zk.MemoryStore();
      const sharded = await zk.createArray(store, "s", {
        shape: [100],
        chunkShape: [10],
        shardShape: [50],
        dataType: "uint16",
        codecs: [
          { name: "bytes", configuration: { endian: "little" } },
          { name: "zstd", configuration: { level: 3, checksum: false } },
        ],
      });
      expect(codecChain(sharded.metadata as Record<string, unknown>)).toBe(
        "sharding_indexed(bytes → zstd; index: bytes → crc32c)",
      );
      const v2 = await zk.createArray(store, "v2", {
        format: 2,
        shape: [10],
        chunkShape: [5],
        dataType: "<i2",
        filters: [{ id: "delta", dtype: "<i2" }],
        compressor: { id: "zlib", level: 1 },
      });
      expect(codecChain(v2.metadata as Record<string, unknown>)).toBe("delta → bytes → zlib");
    },
  );
});
