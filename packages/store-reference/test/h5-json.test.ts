import "@zarrkit/codecs";
import "@zarrkit/store-fs";
import { pathToFileURL } from "node:url";
import { openArray, openStore } from "@zarrkit/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import "../src/index.js";
import { type H5Fixture, h5pyMissing, writeH5References } from "./h5-fixture.js";

const missing = h5pyMissing();
if (missing) console.warn(`[zarrkit] skipping the h5py reference tests: ${missing}`);

describe.skipIf(missing)("kerchunk JSON references to an HDF5 file written by h5py", () => {
  let fixture: H5Fixture;
  beforeAll(() => {
    fixture = writeH5References();
  });
  afterAll(() => fixture?.cleanup());

  it("reads every dataset value for value: gzip+shuffle, gzip, contiguous, unwritten chunks, inline", async () => {
    const store = await openStore(`${pathToFileURL(fixture.dir).href}/refs.json|reference:`);
    for (const [name, expected] of Object.entries(fixture.expected)) {
      const arr = await openArray(store, name);
      expect(arr.shape, name).toEqual(expected.shape);
      const { data } = await arr.get(expected.shape.map(() => null));
      expect(Array.from(data as ArrayLike<number>), name).toEqual(expected.values);
    }
  });
});
