import { describe, expect, it } from "vitest";
import { InvalidMetadataError } from "../src/index.js";
import { parseJson, stringifyJson } from "../src/internal.js";

describe("lossless JSON", () => {
  it("keeps integers beyond 2^53 exact as bigint and everything else as JSON.parse does", () => {
    const doc = parseJson(
      '{"a": 18446744073709551615, "b": -9223372036854775808, "c": 12, "d": "18446744073709551615", "e": 1.5e300, ' +
        '"f": [9007199254740993]}',
      "k",
    ) as Record<string, unknown>;
    expect(doc.a).toBe(18446744073709551615n);
    expect(doc.b).toBe(-9223372036854775808n);
    expect(doc.c).toBe(12);
    expect(doc.d).toBe("18446744073709551615");
    expect(doc.e).toBe(1.5e300);
    expect(doc.f).toEqual([9007199254740993n]);
  });

  it("ignores digits inside strings, including escaped quotes", () => {
    const doc = parseJson('{"x": "a\\"18446744073709551615", "y": 18446744073709551615}', "k") as Record<
      string,
      unknown
    >;
    expect(doc.x).toBe('a"18446744073709551615');
    expect(doc.y).toBe(18446744073709551615n);
  });

  it("writes bigints back as integer literals", () => {
    const text = stringifyJson({ fill_value: 18446744073709551615n, list: [1n, "2"] }, 0);
    expect(text).toBe('{"fill_value":18446744073709551615,"list":[1,"2"]}');
    expect(parseJson(text, "k")).toEqual({ fill_value: 18446744073709551615n, list: [1, "2"] });
  });

  it("reports malformed JSON with the key", () => {
    expect(() => parseJson("{nope", "a/zarr.json")).toThrow(InvalidMetadataError);
    expect(() => parseJson("{nope", "a/zarr.json")).toThrow(/a\/zarr.json/);
  });
});
