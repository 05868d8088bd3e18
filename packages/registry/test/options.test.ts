import { describe, expect, it } from "vitest";
import {
  type CreateOptionHook,
  createOptionHook,
  InvalidOptionError,
  layoutFor,
  registerCreateOption,
  registerLayout,
  renamedOption,
  unknownOptionError,
  ZarrkitError,
} from "../src/index.js";

describe("renamedOption", () => {
  it("reads an option under its name, else under its deprecated name", () => {
    expect(renamedOption({ coalesceGapBytes: 5 }, "coalesceGapBytes", "maxGapBytes")).toBe(5);
    expect(renamedOption({ maxGapBytes: 7 }, "coalesceGapBytes", "maxGapBytes")).toBe(7);
    expect(renamedOption({}, "coalesceGapBytes", "maxGapBytes")).toBeUndefined();
    expect(renamedOption({ coalesceGapBytes: undefined, maxGapBytes: 0 }, "coalesceGapBytes", "maxGapBytes")).toBe(0);
  });

  it("never finds an option on Object.prototype", () => {
    expect(renamedOption({}, "toString", "valueOf")).toBeUndefined();
  });

  it("refuses both names at once with an InvalidOptionError naming both", () => {
    const both = () => renamedOption({ a: 1, b: 2 }, "a", "b", "codecOptions.x.");
    expect(both).toThrow(InvalidOptionError);
    expect(both).toThrow(/codecOptions\.x\.a and codecOptions\.x\.b/);
    expect(both).toThrow(expect.objectContaining({ code: "INVALID_OPTION", field: "codecOptions.x.a" }));
  });
});

describe("InvalidOptionError", () => {
  it("is the error of an unknown createArray option, a ZarrkitError naming the option", () => {
    const error = unknownOptionError("shardShape");
    expect(error).toBeInstanceOf(InvalidOptionError);
    expect(error).toBeInstanceOf(ZarrkitError);
    expect(error).toMatchObject({ name: "InvalidOptionError", code: "INVALID_OPTION", field: "shardShape" });
    expect(error.message).toMatch(/@zarrkit\/sharding/);
  });
});

describe("createArray option hooks", () => {
  it("are found by createOptionHook, and through the deprecated registerLayout and layoutFor", () => {
    const hook: CreateOptionHook = ({ codecs }) => ({ gridShape: [1], codecs, consumed: [] });
    registerCreateOption("test.current", hook);
    expect(createOptionHook("test.current")).toBe(hook);
    expect(layoutFor("test.current")).toBe(hook);
    registerLayout("test.deprecated", hook);
    expect(createOptionHook("test.deprecated")).toBe(hook);
    expect(createOptionHook("toString")).toBeUndefined();
  });
});
