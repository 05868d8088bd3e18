// Both entry points export the same names, so the types of every export
// condition (TypeScript reads the default one under "bundler" resolution) match.
import { UnsupportedError } from "@zarrkit/registry";
import { describe, expect, it } from "vitest";
import * as browser from "../src/index.js";
import * as node from "../src/node.js";

describe("entry points", () => {
  it("export the same names", () => {
    expect(Object.keys(browser).sort()).toEqual(Object.keys(node).sort());
  });

  it("the browser entry's FileSystemStore says it needs Node", () => {
    expect(() => new browser.FileSystemStore("/data/x.zarr")).toThrow(UnsupportedError);
    expect(() => new browser.FileSystemStore("/data/x.zarr")).toThrow(/needs Node.*FetchStore/);
  });

  it("the node entry's FileSystemStore is the real one", () => {
    expect(new node.FileSystemStore("/tmp/zarrkit-entry-test")).toBeInstanceOf(node.FileSystemStore);
  });
});
