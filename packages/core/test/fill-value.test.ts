import { describe, expect, it } from "vitest";
import { dataType, InvalidMetadataError, parseScalar, serializeScalar, UnsupportedError } from "../src/index.js";
import { isAllFill } from "../src/internal.js";

const parse = (value: unknown, type: string) => parseScalar(value, dataType(type));

describe("fill values", () => {
  it("decodes every encoding the spec allows", () => {
    expect(parse(true, "bool")).toBe(true);
    expect(parse(-128, "int8")).toBe(-128);
    expect(parse(18446744073709551615n, "uint64")).toBe(18446744073709551615n);
    expect(parse(5, "int64")).toBe(5n);
    expect(parse("NaN", "float32")).toBeNaN();
    expect(parse("Infinity", "float64")).toBe(Number.POSITIVE_INFINITY);
    expect(parse("-Infinity", "float16")).toBe(Number.NEGATIVE_INFINITY);
    expect(parse("0x7fc00000", "float32")).toBeNaN();
    expect(parse("0x3f800000", "float32")).toBe(1);
    expect(parse("0x3c00", "float16")).toBe(1);
    expect(parse("0x4000000000000000", "float64")).toBe(2);
    expect(parse([1.5, "NaN"], "complex64")).toEqual([1.5, Number.NaN]);
    expect(parse([1, 2, 3], "r24")).toEqual(Uint8Array.from([1, 2, 3]));
    expect(parse("", "string")).toBe("");
  });

  it("refuses values that do not fit the type, naming the field", () => {
    expect(() => parse(256, "uint8")).toThrow(InvalidMetadataError);
    expect(() => parse(-1, "uint64")).toThrow(/fill_value/);
    expect(() => parse(1.5, "int32")).toThrow(/integer/);
    expect(() => parse(1, "bool")).toThrow(InvalidMetadataError);
    expect(() => parse("0x123456789", "float32")).toThrow(/wider/);
    expect(() => parse([1, 2], "r24")).toThrow(/3 byte/);
    expect(() => parse("abc", "float64")).toThrow(InvalidMetadataError);
    expect(() => parse(null, "int16")).toThrow(InvalidMetadataError);
  });

  it("serializes non-finite floats as strings and raw bytes as arrays", () => {
    expect(serializeScalar(Number.NaN, dataType("float32"))).toBe("NaN");
    expect(serializeScalar([Number.POSITIVE_INFINITY, 0], dataType("complex128"))).toEqual(["Infinity", 0]);
    expect(serializeScalar(Uint8Array.from([9, 8]), dataType("r16"))).toEqual([9, 8]);
    expect(serializeScalar(2n ** 64n - 1n, dataType("uint64"))).toBe(2n ** 64n - 1n);
  });

  it("treats NaN as equal to a NaN fill value", () => {
    expect(isAllFill(Float32Array.of(Number.NaN, Number.NaN), Number.NaN, dataType("float32"))).toBe(true);
    expect(isAllFill(Float32Array.of(Number.NaN, 0), Number.NaN, dataType("float32"))).toBe(false);
    expect(isAllFill(Float64Array.of(1, 2, 1, 2), [1, 2], dataType("complex128"))).toBe(true);
  });

  it("rejects unknown data types and malformed raw types", () => {
    expect(() => dataType("int128")).toThrow(UnsupportedError);
    expect(() => dataType("r12")).toThrow(InvalidMetadataError);
    expect(dataType({ name: "r8" }).byteSize).toBe(1);
  });
});
