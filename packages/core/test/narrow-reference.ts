/**
 * A reference for the narrow data types, written apart from the code it checks: each format's values are
 * enumerated from its bit layout and a number is rounded by searching the sorted values for the nearest (ties to
 * the even encoding), instead of by arithmetic on exponents. The layouts and special values are those of the
 * zarr-extensions registry pages and the OCP / ml_dtypes definitions; `max` is each page's largest finite value,
 * checked against the enumeration.
 */

export interface ReferenceFormat {
  name: string;
  exponentBits: number;
  mantissaBits: number;
  bias: number;
  /** Infinity encodings: IEEE style (all-ones exponent, zero mantissa). */
  infinity: boolean;
  /** Which encodings are NaN. */
  isNaN: (bits: number) => boolean;
  /** The NaN written for NaN (undefined: the format has none). */
  nan: number | undefined;
  /** Whether negative zero exists (fnuz formats have none: 0x80 is their NaN). */
  negativeZero: boolean;
  /** What a value past the largest finite one becomes: infinity, NaN or the largest value. */
  overflow: "infinity" | "nan" | "saturate";
  max: number;
  /** Whether tensorstore 0.1.85 has the type. */
  tensorstore: boolean;
}

const ieeeNaN = (e: number, m: number) => (bits: number) =>
  ((bits >> m) & ((1 << e) - 1)) === (1 << e) - 1 && (bits & ((1 << m) - 1)) !== 0;

function ieee(
  name: string,
  e: number,
  m: number,
  bias: number,
  nan: number,
  max: number,
  tensorstore = true,
): ReferenceFormat {
  return {
    name,
    exponentBits: e,
    mantissaBits: m,
    bias,
    infinity: true,
    isNaN: ieeeNaN(e, m),
    nan,
    negativeZero: true,
    overflow: "infinity",
    max,
    tensorstore,
  };
}

function fnuz(name: string, e: number, m: number, bias: number, max: number): ReferenceFormat {
  const nanBits = 1 << (e + m);
  return {
    name,
    exponentBits: e,
    mantissaBits: m,
    bias,
    infinity: false,
    isNaN: (b) => b === nanBits,
    nan: nanBits,
    negativeZero: false,
    overflow: "nan",
    max,
    tensorstore: true,
  };
}

function finite(name: string, e: number, m: number, bias: number, max: number, tensorstore: boolean): ReferenceFormat {
  return {
    name,
    exponentBits: e,
    mantissaBits: m,
    bias,
    infinity: false,
    isNaN: () => false,
    nan: undefined,
    negativeZero: true,
    overflow: "saturate",
    max,
    tensorstore,
  };
}

export const REFERENCE_FORMATS: ReferenceFormat[] = [
  ieee("bfloat16", 8, 7, 127, 0x7fc0, 3.3895313892515355e38),
  ieee("float8_e5m2", 5, 2, 15, 0x7e, 57344),
  ieee("float8_e4m3", 4, 3, 7, 0x7c, 240, false),
  ieee("float8_e3m4", 3, 4, 3, 0x78, 15.5),
  {
    name: "float8_e4m3fn",
    exponentBits: 4,
    mantissaBits: 3,
    bias: 7,
    infinity: false,
    isNaN: (b) => (b & 0x7f) === 0x7f,
    nan: 0x7f,
    negativeZero: true,
    overflow: "nan",
    max: 448,
    tensorstore: true,
  },
  fnuz("float8_e4m3fnuz", 4, 3, 8, 240),
  fnuz("float8_e4m3b11fnuz", 4, 3, 11, 30),
  fnuz("float8_e5m2fnuz", 5, 2, 16, 57344),
  finite("float6_e2m3fn", 2, 3, 1, 7.5, false),
  finite("float6_e3m2fn", 3, 2, 3, 28, false),
  finite("float4_e2m1fn", 2, 1, 1, 6, true),
];

export const width = (f: ReferenceFormat) => 1 + f.exponentBits + f.mantissaBits;

/** The value of an encoding, from its fields: (-1)^s * 2^(e - bias) * 1.m, or 2^(1 - bias) * 0.m for e = 0. */
export function referenceDecode(f: ReferenceFormat, bits: number): number {
  const w = width(f);
  if (f.isNaN(bits)) return Number.NaN;
  const negative = bits >= 2 ** (w - 1);
  const exponent = Math.floor(bits / 2 ** f.mantissaBits) % 2 ** f.exponentBits;
  const mantissa = bits % 2 ** f.mantissaBits;
  let magnitude: number;
  if (f.infinity && exponent === 2 ** f.exponentBits - 1) magnitude = Number.POSITIVE_INFINITY;
  else if (exponent === 0) magnitude = (mantissa / 2 ** f.mantissaBits) * 2 ** (1 - f.bias);
  else magnitude = (1 + mantissa / 2 ** f.mantissaBits) * 2 ** (exponent - f.bias);
  return negative ? -magnitude : magnitude;
}

interface Table {
  /** The non-negative finite values, ascending, each with its encoding. */
  values: number[];
  bits: number[];
}

const tables = new Map<string, Table>();

function table(f: ReferenceFormat): Table {
  let t = tables.get(f.name);
  if (!t) {
    const pairs: [number, number][] = [];
    for (let b = 0; b < 2 ** (width(f) - 1); b++) {
      const v = referenceDecode(f, b);
      if (Number.isFinite(v)) pairs.push([v, b]);
    }
    pairs.sort((a, b) => a[0] - b[0]);
    t = { values: pairs.map((p) => p[0]), bits: pairs.map((p) => p[1]) };
    tables.set(f.name, t);
  }
  return t;
}

/** Every finite value of the format (both signs, zeros once per sign the format has). */
export function finiteValues(f: ReferenceFormat): number[] {
  const { values } = table(f);
  return [
    ...values
      .slice(1)
      .map((v) => -v)
      .reverse(),
    ...(f.negativeZero ? [-0] : []),
    ...values,
  ];
}

/**
 * The encoding nearest `x`: a search over the sorted values, extended by one value past the largest (its spacing
 * repeated, of the other parity), which stands for overflow. undefined: NaN in a format without NaN.
 */
export function referenceEncode(f: ReferenceFormat, x: number): number | undefined {
  const w = width(f);
  const signBit = 2 ** (w - 1);
  if (Number.isNaN(x)) return f.nan;
  const negative = x < 0 || Object.is(x, -0);
  const sign = negative ? signBit : 0;
  const a = Math.abs(x);
  const { values, bits } = table(f);
  const last = values.length - 1;
  if (values[last] !== f.max)
    throw new Error(`${f.name}: enumerated max ${values[last]} is not the registry's ${f.max}`);
  const beyond = values[last]! + (values[last]! - values[last - 1]!);
  const beyondEven = (bits[last]! & 1) === 1;
  const overflow = (): number => {
    if (f.overflow === "infinity") return sign | (((1 << f.exponentBits) - 1) << f.mantissaBits);
    if (f.overflow === "saturate") return sign | bits[last]!;
    return f.negativeZero ? sign | f.nan! : f.nan!;
  };
  if (a >= beyond) return overflow();
  // The first value >= a.
  let lo = 0;
  let hi = values.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (values[mid]! < a) lo = mid + 1;
    else hi = mid;
  }
  if (lo === values.length) {
    // Between the largest value and `beyond`.
    const below = a - values[last]!;
    const above = beyond - a;
    if (above < below || (above === below && beyondEven)) return overflow();
    return sign | bits[last]!;
  }
  let pick = lo;
  if (lo > 0 && values[lo] !== a) {
    const below = a - values[lo - 1]!;
    const above = values[lo]! - a;
    if (below < above || (below === above && (bits[lo - 1]! & 1) === 0)) pick = lo - 1;
  }
  return bits[pick] === 0 ? (f.negativeZero ? sign : 0) : sign | bits[pick]!;
}

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);

/** The float32 neighbours of a float32 value (away from and towards zero). */
export function float32Neighbours(v: number): number[] {
  f32[0] = v;
  const w = u32[0]!;
  const out: number[] = [];
  for (const n of [w - 1, w + 1]) {
    u32[0] = n >>> 0;
    if (Number.isFinite(f32[0]!)) out.push(f32[0]!);
  }
  return out;
}

/**
 * Float32 inputs that probe every rounding decision of the format: each finite value, each midpoint between
 * neighbours and the float32 values either side of it, the same around the largest value's overflow midpoint,
 * zeros, infinities, NaN (where the format has NaN), values far beyond the range and below half the smallest.
 */
export function roundingProbes(f: ReferenceFormat): number[] {
  const values = finiteValues(f);
  // By float32 bit pattern: a Set would take -0 for 0.
  const probes = new Map<number, number>();
  const put = (v: number) => {
    f32[0] = v;
    probes.set(u32[0]!, f32[0]!);
  };
  const add = (v: number) => {
    put(v);
    for (const n of float32Neighbours(Math.fround(v))) put(n);
  };
  for (let i = 0; i < values.length; i++) {
    add(values[i]!);
    if (i > 0) add((values[i - 1]! + values[i]!) / 2);
  }
  const { values: positive } = table(f);
  const last = positive.length - 1;
  const overflowMid = positive[last]! + (positive[last]! - positive[last - 1]!) / 2;
  for (const s of [1, -1]) {
    add(s * overflowMid);
    add(s * 2 * positive[last]!);
    add(s * 3.4e38);
    add((s * positive[1]!) / 2); // half the smallest subnormal: ties to zero
    add((s * positive[1]!) / 4);
    put(s * Number.POSITIVE_INFINITY);
  }
  put(0);
  put(-0);
  if (f.nan !== undefined) put(Number.NaN);
  return [...probes.values()];
}

/**
 * float8_e8m0fnu's encoding of a float32 value, from its bit pattern, as ml_dtypes converts (measured on ml_dtypes
 * 0.6): the exponent field, plus one when the mantissa is half or more (ties up, not to even); float32 subnormals
 * give 1 above 2^-127 and 0 otherwise; past 2^127, NaN (0xff). undefined: zero, negatives and infinity have none.
 */
export function e8m0Reference(x: number): number | undefined {
  if (Number.isNaN(x)) return 0xff;
  if (!(x > 0) || x === Number.POSITIVE_INFINITY) return undefined;
  const bits = new Uint32Array(Float32Array.of(x).buffer)[0]!;
  const field = bits >>> 23;
  if (field === 0) return bits > 0x400000 ? 1 : 0;
  const k = field + ((bits & 0x7fffff) >= 0x400000 ? 1 : 0);
  return k > 254 ? 0xff : k;
}

/** Positive float32 values around every float8_e8m0fnu value and each rounding threshold, the range's ends, NaN. */
export function e8m0Probes(): number[] {
  const powers = Array.from({ length: 255 }, (_, k) => 2 ** (k - 127));
  return [
    ...powers.flatMap((p) => [p, p * 1.5, p * 1.5 * (1 - 2 ** -23), p * 1.25, p * 1.75]),
    2 ** -149,
    2 ** -130,
    2 ** -127 * 1.000001,
    3.4e38,
    Number.NaN,
  ].map(Math.fround);
}
