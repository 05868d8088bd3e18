// The narrow data types (bfloat16, float8/float6/float4 families, int2/int4/uint2/uint4) against the reference in
// narrow-reference.ts: every encoding decoded (all 256 for 8-bit formats, all 65536 for bfloat16), every rounding
// decision probed from both sides, through zarr.json and the bytes codec as a reader and writer meet them.
import { describe, expect, it } from "vitest";
import {
  createArray,
  dataType,
  InvalidMetadataError,
  InvalidSelectionError,
  MemoryStore,
  openArray,
  parseScalar,
  serializeScalar,
} from "../src/index.js";
import { numberToMinifloat } from "../src/minifloat.js";
import { MINIFLOAT_FORMATS } from "../src/minifloat.js";
import {
  e8m0Probes,
  e8m0Reference,
  finiteValues,
  REFERENCE_FORMATS,
  referenceDecode,
  referenceEncode,
  roundingProbes,
  width,
} from "./narrow-reference.js";

/** The chunk's stored bytes as one unsigned value per element (2-byte little-endian slots for bfloat16). */
function storedBits(bytes: Uint8Array, slot: number): number[] {
  if (slot === 1) return Array.from(bytes);
  return Array.from({ length: bytes.length / 2 }, (_, i) => bytes[2 * i]! | (bytes[2 * i + 1]! << 8));
}

function slotBytes(bits: number[], slot: number, endian: "little" | "big" = "little"): Uint8Array {
  const out = new Uint8Array(bits.length * slot);
  bits.forEach((b, i) => {
    if (slot === 1) out[i] = b;
    else if (endian === "little") out.set([b & 0xff, b >> 8], 2 * i);
    else out.set([b >> 8, b & 0xff], 2 * i);
  });
  return out;
}

/** Whether two numbers are the same value, telling -0 from 0 and taking NaN as equal to NaN. */
const same = (a: number, b: number) => Object.is(a, b);

async function readStored(type: string, bytes: Uint8Array, elements: number, endian: "little" | "big" = "little") {
  const store = new MemoryStore();
  await createArray(store, "a", {
    shape: [elements],
    dataType: type,
    chunkShape: [elements],
    codecs: [{ name: "bytes", configuration: { endian } }],
  });
  await store.set("a/c/0", bytes);
  return (await (await openArray(store, "a")).get()).data;
}

async function writeStored(
  type: string,
  data: Float32Array | Int8Array | Uint8Array,
  endian: "little" | "big" = "little",
) {
  const store = new MemoryStore();
  const arr = await createArray(store, "a", {
    shape: [data.length],
    dataType: type,
    chunkShape: [data.length],
    fillValue: "0x1",
    codecs: [{ name: "bytes", configuration: { endian } }],
  });
  await arr.set(null, data);
  return (await store.get("a/c/0"))!;
}

describe.each(REFERENCE_FORMATS)("$name", (f) => {
  const slot = width(f) > 8 ? 2 : 1;
  const patterns = Array.from({ length: 2 ** (slot * 8) }, (_, b) => b);

  it("matches the registry's layout (bits, bias, largest value, NaN)", () => {
    const format = MINIFLOAT_FORMATS.get(f.name)!;
    expect([format.exponentBits, format.mantissaBits, format.bias, format.max]).toEqual([
      f.exponentBits,
      f.mantissaBits,
      f.bias,
      f.max,
    ]);
    expect(format.nanBits).toBe(f.nan);
    const type = dataType(f.name);
    expect([type.kind, type.byteSize, type.arrayType]).toEqual(["float", slot, Float32Array]);
  });

  it(`decodes all ${2 ** (slot * 8)} stored ${slot === 1 ? "bytes" : "slots"} (high bits ignored)`, async () => {
    const data = await readStored(f.name, slotBytes(patterns, slot), patterns.length);
    expect(data).toBeInstanceOf(Float32Array);
    const mask = 2 ** width(f) - 1;
    const wrong = patterns.filter((b) => !same((data as Float32Array)[b]!, referenceDecode(f, b & mask)));
    expect(wrong.map((b) => [b, (data as Float32Array)[b], referenceDecode(f, b & mask)]).slice(0, 5)).toEqual([]);
  });

  it("rounds every probe as the reference does (nearest, ties to even; overflow per format)", async () => {
    const probes = roundingProbes(f);
    const bits = storedBits(await writeStored(f.name, Float32Array.from(probes)), slot);
    const wrong = probes.map((p, i) => [p, bits[i], referenceEncode(f, p)]).filter(([, got, want]) => got !== want);
    expect(wrong.slice(0, 5)).toEqual([]);
    // From float64 too (fill values): just either side of each midpoint, closer than any float32 step.
    const values = finiteValues(f);
    for (let i = 1; i < values.length; i++) {
      const mid = (values[i - 1]! + values[i]!) / 2;
      for (const x of [mid, mid + Math.abs(mid) * 2 ** -40, mid - Math.abs(mid) * 2 ** -40]) {
        const got = numberToMinifloat(MINIFLOAT_FORMATS.get(f.name)!, x);
        if (got !== referenceEncode(f, x)) expect([x, got]).toEqual([x, referenceEncode(f, x)]);
      }
    }
  });

  it("reads back every finite value it writes, unchanged", async () => {
    const values = finiteValues(f);
    const store = new MemoryStore();
    const arr = await createArray(store, "a", { shape: [values.length], dataType: f.name, chunkShape: [64] });
    await arr.set(null, Float32Array.from(values));
    const back = Array.from((await arr.get()).data as Float32Array);
    expect(back.every((v, i) => same(v, values[i]!))).toBe(true);
  });

  it("takes every fill value form the registry allows, refusing what the format cannot hold", () => {
    const type = dataType(f.name);
    const parse = (v: unknown) => parseScalar(v, type);
    expect(parse(1)).toBe(1);
    expect(parse(-f.max)).toBe(-f.max);
    expect(parse(`0x${(1).toString(16)}`)).toBe(referenceDecode(f, 1));
    expect(parse(1 + 2 ** -(f.mantissaBits + 1))).toBe(1); // a tie, rounded to even
    expect(() => parse(f.max * 4)).toThrow(/fill_value.*largest finite/);
    expect(() => parse(`0x1${"0".repeat(slot * 2)}`)).toThrow(/wider than/);
    expect(() => parse("one")).toThrow(InvalidMetadataError);
    if (f.nan === undefined) expect(() => parse("NaN")).toThrow(/fill_value: NaN has no encoding/);
    else {
      expect(parse("NaN")).toBeNaN();
      expect(parse(`0x${f.nan.toString(16)}`)).toBeNaN();
      expect(serializeScalar(Number.NaN, type)).toBe("NaN");
    }
    if (f.infinity) {
      expect(parse("-Infinity")).toBe(Number.NEGATIVE_INFINITY);
      expect(serializeScalar(Number.POSITIVE_INFINITY, type)).toBe("Infinity");
    } else {
      expect(() => parse("Infinity")).toThrow(/fill_value.*no infinity/);
    }
  });

  if (f.nan === undefined) {
    it("refuses to write NaN, naming the element, rather than store another value", async () => {
      await expect(writeStored(f.name, Float32Array.from([1, Number.NaN]))).rejects.toThrow(InvalidSelectionError);
      await expect(writeStored(f.name, Float32Array.from([1, Number.NaN]))).rejects.toThrow(/Element 1 \(NaN\)/);
    });
  }
});

describe("bfloat16 byte order", () => {
  it("reads and writes big-endian slots", async () => {
    const bits = [0x3f80, 0xc049, 0x0001, 0x7f7f, 0xff80];
    const data = await readStored("bfloat16", slotBytes(bits, 2, "big"), bits.length, "big");
    expect(Array.from(data as Float32Array)).toEqual([
      1,
      -3.140625,
      2 ** -133,
      3.3895313892515355e38,
      Number.NEGATIVE_INFINITY,
    ]);
    expect(await writeStored("bfloat16", data as Float32Array, "big")).toEqual(slotBytes(bits, 2, "big"));
  });

  it("writes a NaN read from storage back with the same bits (quiet NaNs)", async () => {
    const bits = [0x7fc0, 0xffc1, 0x7fff];
    const data = await readStored("bfloat16", slotBytes(bits, 2), bits.length);
    expect(storedBits(await writeStored("bfloat16", data as Float32Array), 2)).toEqual(bits);
  });
});

describe("float8_e8m0fnu", () => {
  const powers = Array.from({ length: 255 }, (_, k) => 2 ** (k - 127));
  const probes = e8m0Probes();

  it("decodes all 256 bytes: 2^(b - 127), 0xff NaN", async () => {
    const data = await readStored(
      "float8_e8m0fnu",
      Uint8Array.from({ length: 256 }, (_, b) => b),
      256,
    );
    expect(Array.from(data as Float32Array)).toEqual([...powers, Number.NaN]);
  });

  it("rounds every probe as ml_dtypes does (a significand of 1.5 and more up), writing NaN past 2^127", async () => {
    const stored = await writeStored("float8_e8m0fnu", Float32Array.from(probes));
    expect(
      differencesOf(
        Array.from(stored),
        probes.map((p) => e8m0Reference(p)!),
      ),
    ).toEqual([]);
  });

  it("refuses zero, negatives and infinity when writing, and in fill values", async () => {
    for (const bad of [0, -2, Number.POSITIVE_INFINITY]) {
      await expect(writeStored("float8_e8m0fnu", Float32Array.from([1, bad]))).rejects.toThrow(
        /Element 1 .*positive powers of two/,
      );
    }
    const type = dataType("float8_e8m0fnu");
    expect([parseScalar(1, type), parseScalar(3, type), parseScalar("0x7e", type)]).toEqual([1, 4, 0.5]);
    expect(parseScalar(0, type)).toBe(2 ** -127); // tensorstore's default fill value: the zero byte
    expect(parseScalar("NaN", type)).toBeNaN();
    expect(() => parseScalar(-1, type)).toThrow(/fill_value.*positive powers of two/);
    expect(() => parseScalar(2 ** 128, type)).toThrow(/fill_value.*2\^127/);
    expect(() => parseScalar("0x100", type)).toThrow(/wider than 8 bits/);
  });
});

/** [index, got, want] of the first few elements that differ. */
function differencesOf(got: number[], want: number[]): [number, number, number][] {
  return got.flatMap((g, i) => (g === want[i] ? [] : [[i, g, want[i]!] as [number, number, number]])).slice(0, 5);
}

const SMALL_INTS = [
  { name: "int2", bits: 2, lo: -2, hi: 1, array: Int8Array },
  { name: "int4", bits: 4, lo: -8, hi: 7, array: Int8Array },
  { name: "uint2", bits: 2, lo: 0, hi: 3, array: Uint8Array },
  { name: "uint4", bits: 4, lo: 0, hi: 15, array: Uint8Array },
];

describe.each(SMALL_INTS)("$name", ({ name, bits, lo, hi, array }) => {
  const reference = (byte: number) => {
    const low = byte % 2 ** bits;
    return lo < 0 && low > hi ? low - 2 ** bits : low;
  };

  it("decodes all 256 stored bytes from their low bits (high bits ignored)", async () => {
    const bytes = Uint8Array.from({ length: 256 }, (_, b) => b);
    const data = await readStored(name, bytes, 256);
    expect(data).toBeInstanceOf(array);
    expect(Array.from(data as Int8Array)).toEqual(Array.from(bytes, reference));
  });

  it("writes every value of its range in the low bits, higher bits zero", async () => {
    const values = Array.from({ length: hi - lo + 1 }, (_, i) => lo + i);
    const stored = await writeStored(name, array.from(values));
    expect(Array.from(stored)).toEqual(values.map((v) => (v + 2 ** bits) % 2 ** bits));
  });

  it("refuses values outside its range, naming the element, and fill values likewise", async () => {
    await expect(writeStored(name, array.from([0, hi + 1]))).rejects.toThrow(/Element 1 .*outside/);
    await expect(writeStored(name, array.from([lo - 1]))).rejects.toThrow(InvalidSelectionError);
    expect(parseScalar(lo, dataType(name))).toBe(lo);
    expect(() => parseScalar(hi + 1, dataType(name))).toThrow(/fill_value: integer out of range/);
  });
});
