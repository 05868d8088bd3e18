// Each numcodecs codec against Python's numcodecs (Debian's python3-numcodecs):
// numcodecs encodes known arrays, zarrkit decodes them to the same values;
// zarrkit encodes the same arrays, numcodecs decodes them to the same values;
// deterministic filters, bz2 and lzma must also encode to numcodecs' exact bytes. Skipped,
// with the reason printed, where /usr/bin/python3 with numcodecs is absent.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import {
  type ArrayData,
  type ArrayToArrayCodec,
  type ArrayToBytesCodec,
  type BytesToBytesCodec,
  type Codec,
  resolveCodec,
} from "@zarrkit/registry";
import { describe, expect, test } from "vitest";
import "../src/index.js";
import { chunkSpec, create, ctx } from "./helpers.js";

const PYTHON = "/usr/bin/python3";
const SCRIPT = fileURLToPath(new URL("./numcodecs_reference.py", import.meta.url));

function pythonReason(): string | undefined {
  if (!existsSync(PYTHON)) return `${PYTHON} is absent`;
  const probe = spawnSync(PYTHON, ["-c", "import numcodecs, numpy"], { encoding: "utf8" });
  return probe.status === 0
    ? undefined
    : `numcodecs is not importable by ${PYTHON} (apt-get install ` +
        `python3-zarr): ${probe.stderr.trim().split("\n").pop()}`;
}
const skipReason = pythonReason();
if (skipReason) console.log(`numcodecs reference tests skipped: ${skipReason}`);

interface Encoded {
  data?: string;
  dtype?: string;
  items?: string[];
  error?: string;
}
interface Reply {
  version: string;
  encoded: { encoded: Encoded; decoded: Encoded }[];
  decoded: Encoded[];
}

function python(request: unknown): Reply {
  const run = spawnSync(PYTHON, [SCRIPT], {
    input: JSON.stringify(request),
    encoding: "utf8",
    maxBuffer: 256 * 2 ** 20,
  });
  if (run.status !== 0) throw new Error(`numcodecs_reference.py failed: ${run.stderr}`);
  return JSON.parse(run.stdout) as Reply;
}

const TYPES: Record<string, string> = {
  "|b1": "bool",
  "|i1": "int8",
  "<i2": "int16",
  "<i4": "int32",
  "<i8": "int64",
  "|u1": "uint8",
  "<u2": "uint16",
  "<u4": "uint32",
  "<u8": "uint64",
  "<f4": "float32",
  "<f8": "float64",
  "|O": "string",
};

interface Case {
  config: { id: string } & Record<string, unknown>;
  dtype: string;
  shape: number[];
  values: (number | string | boolean)[];
  /** Whether zarrkit's encoding must equal numcodecs' byte for byte (filters and object codecs). */
  exact?: boolean;
}

function typed(type: string, values: readonly (number | string | boolean)[]): ArrayData {
  if (type === "string") return values.map(String);
  const data = chunkSpec([values.length], type).dataType.allocate(values.length);
  if (data instanceof BigInt64Array || data instanceof BigUint64Array) {
    for (const [i, v] of values.entries()) data[i] = BigInt(v as number);
  } else (data as Float64Array).set(values.map(Number));
  return data;
}

function fromBytes(type: string, bytes: Uint8Array): ArrayData {
  const data = chunkSpec([0], type).dataType.allocate(0) as Float64Array;
  const ctor = data.constructor as { new (buffer: ArrayBuffer): ArrayData; BYTES_PER_ELEMENT: number };
  return new ctor(bytes.slice().buffer);
}

const toBytes = (data: ArrayData): Uint8Array => {
  const view = data as Uint8Array;
  return new Uint8Array(view.buffer, view.byteOffset, view.byteLength);
};
const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64");
const unb64 = (text: string | undefined) => new Uint8Array(Buffer.from(text ?? "", "base64"));

// Deterministic sample values.
const range = (n: number, f: (i: number) => number) => Array.from({ length: n }, (_, i) => f(i));
const smoothInts = range(4096, (i) => Math.round(1000 * Math.sin(i / 50)) + (i % 7));
const floats = range(257, (i) => 1000 + Math.round(1e6 * Math.sin(i)) / 1e4 + (i % 4) * 0.25);
const smallFloats = range(300, (i) => Math.sin(i / 3) * 3.3 + (i % 5) * 0.05);
const strings = [
  "male",
  "female",
  "female",
  "unexpected",
  "",
  "é ü 漢字 😀",
  'quote " backslash \\ tab \t',
  "\u0001\u007f",
];

const bytesCase = (config: Case["config"], extra: Partial<Case> = {}): Case => ({
  config,
  dtype: "<i4",
  shape: [4096],
  values: smoothInts,
  ...extra,
});

const CASES: Case[] = [
  bytesCase({ id: "zlib", level: 1 }),
  bytesCase({ id: "zlib", level: 9 }),
  bytesCase({ id: "gzip", level: 1 }),
  bytesCase({ id: "gzip", level: 6 }),
  bytesCase({ id: "zstd", level: 1 }),
  bytesCase({ id: "zstd", level: 9 }),
  bytesCase({ id: "blosc", cname: "lz4", clevel: 5, shuffle: 1, blocksize: 0 }),
  bytesCase({ id: "blosc", cname: "zstd", clevel: 3, shuffle: 2, blocksize: 0 }),
  bytesCase({ id: "blosc", cname: "blosclz", clevel: 9, shuffle: 0, blocksize: 0 }),
  bytesCase({ id: "blosc", cname: "zlib", clevel: 1, shuffle: -1, blocksize: 0 }),
  bytesCase(
    { id: "blosc", cname: "lz4hc", clevel: 5, shuffle: -1, blocksize: 0 },
    { dtype: "|u1", values: smoothInts.map((v) => v & 0xff) },
  ),
  bytesCase({ id: "lz4", acceleration: 1 }),
  bytesCase({ id: "lz4", acceleration: 20 }),
  // bz2 and lzma are libbzip2 and liblzma as Python calls them: the same bytes.
  bytesCase({ id: "bz2", level: 1 }, { exact: true }),
  bytesCase({ id: "bz2", level: 9 }, { exact: true }),
  bytesCase({ id: "lzma", format: 1, check: -1, preset: null, filters: null }, { exact: true }),
  bytesCase({ id: "lzma", format: 1, check: 1, preset: 1, filters: null }, { exact: true }),
  bytesCase({ id: "lzma", format: 1, check: 0, preset: 9, filters: null }, { exact: true }),
  bytesCase({ id: "lzma", format: 1, check: 10, preset: 2 ** 31 + 3, filters: null }, { exact: true }),
  bytesCase({ id: "lzma", format: 2, check: -1, preset: 6, filters: null }, { exact: true }),
  bytesCase(
    { id: "lzma", format: 2, check: -1, preset: 1, filters: null },
    { dtype: "|u1", shape: [3000], values: range(3000, (i) => 65 + (i % 26)), exact: true },
  ),
  bytesCase({ id: "shuffle", elementsize: 4 }, { exact: true }),
  bytesCase({ id: "shuffle", elementsize: 8 }, { exact: true }),
  bytesCase({ id: "crc32" }, { exact: true }),
  bytesCase({ id: "adler32" }, { exact: true }),
  {
    config: { id: "fixedscaleoffset", offset: 1000, scale: 10, dtype: "<f8", astype: "<u1" },
    dtype: "<f8",
    shape: [257],
    values: floats.map((v) => 1000 + ((v * 7) % 25)),
    exact: true,
  },
  {
    config: { id: "fixedscaleoffset", offset: 0, scale: 100, dtype: "<f4", astype: "<i2" },
    dtype: "<f4",
    shape: [300],
    values: smallFloats,
    exact: true,
  },
  {
    config: { id: "fixedscaleoffset", offset: 5, scale: 1, dtype: "<i4", astype: "|i1" },
    dtype: "<i4",
    shape: [100],
    values: range(100, (i) => i - 40),
    exact: true,
  },
  { config: { id: "quantize", digits: 3, dtype: "<f8" }, dtype: "<f8", shape: [257], values: floats, exact: true },
  {
    config: { id: "quantize", digits: 2, dtype: "<f4", astype: "<f4" },
    dtype: "<f4",
    shape: [300],
    values: smallFloats,
    exact: true,
  },
  {
    config: { id: "quantize", digits: 1, dtype: "<f8", astype: "<f4" },
    dtype: "<f8",
    shape: [300],
    values: smallFloats,
    exact: true,
  },
  { config: { id: "bitround", keepbits: 10 }, dtype: "<f4", shape: [300], values: smallFloats, exact: true },
  {
    config: { id: "bitround", keepbits: 20 },
    dtype: "<f8",
    shape: [257],
    values: floats.map((v) => -v / 7),
    exact: true,
  },
  {
    config: { id: "astype", encode_dtype: "<f4", decode_dtype: "<f8" },
    dtype: "<f8",
    shape: [257],
    values: floats,
    exact: true,
  },
  {
    config: { id: "astype", encode_dtype: "<i2", decode_dtype: "<i8" },
    dtype: "<i8",
    shape: [6],
    values: [0, 1, -1, 32767, 32768, -70000],
    exact: true,
  },
  {
    config: { id: "astype", encode_dtype: "<i4", decode_dtype: "<f8" },
    dtype: "<f8",
    shape: [300],
    values: smallFloats,
    exact: true,
  },
  {
    config: { id: "packbits" },
    dtype: "|b1",
    shape: [13],
    values: range(13, (i) => Number((i * 7) % 3 === 0)),
    exact: true,
  },
  {
    config: { id: "packbits" },
    dtype: "|b1",
    shape: [2, 8],
    values: range(16, (i) => Number(i % 5 === 1)),
    exact: true,
  },
  {
    config: { id: "categorize", labels: ["female", "male"], dtype: "|O", astype: "|u1" },
    dtype: "|O",
    shape: [8],
    values: strings,
    exact: true,
  },
  {
    config: { id: "categorize", labels: ["a", "male", "b"], dtype: "|O", astype: "<i4" },
    dtype: "|O",
    shape: [2, 4],
    values: strings,
    exact: true,
  },
  { config: { id: "delta", dtype: "<i4" }, dtype: "<i4", shape: [4096], values: smoothInts, exact: true },
  {
    config: { id: "delta", dtype: "<i4", astype: "<i2" },
    dtype: "<i4",
    shape: [4096],
    values: smoothInts,
    exact: true,
  },
  { config: { id: "json2" }, dtype: "|O", shape: [8], values: strings, exact: true },
  {
    config: { id: "json2", separators: [", ", ": "], ensure_ascii: false },
    dtype: "|O",
    shape: [2, 4],
    values: strings,
    exact: true,
  },
  { config: { id: "vlen-utf8" }, dtype: "|O", shape: [2, 4], values: strings, exact: true },
];

const label = (c: Case) =>
  `numcodecs.${c.config.id} ${JSON.stringify({ ...c.config, id: undefined })} on ${c.dtype}${JSON.stringify(c.shape)}`;

async function codecFor(c: Case): Promise<Codec> {
  const { id, ...configuration } = c.config;
  const factory = await resolveCodec(`numcodecs.${id}`);
  return create(factory, configuration, chunkSpec(c.shape, TYPES[c.dtype]!));
}

describe.skipIf(skipReason !== undefined)("numcodecs (Python) reference encodings", async () => {
  const reply = skipReason ? undefined : python({ encode: CASES });
  if (reply) console.log(`numcodecs ${reply.version}: ${CASES.length} cases`);
  const ours: { index: number; encoded: Uint8Array; dtype?: string }[] = [];

  test.each(CASES.map((c, i) => [label(c), i] as const))("%s: zarrkit decodes numcodecs' encoding", async (_, i) => {
    const c = CASES[i]!;
    const theirs = reply!.encoded[i]!;
    const type = TYPES[c.dtype]!;
    const codec = await codecFor(c);
    const spec = chunkSpec(c.shape, type);
    const input = typed(type, c.values);
    if (codec.kind === "bytes_to_bytes") {
      const decoded = await (codec as BytesToBytesCodec).decode(unb64(theirs.encoded.data), {
        ...ctx,
        maxDecodedBytes: toBytes(input).length,
      });
      expect(b64(decoded)).toBe(b64(toBytes(input)));
    } else if (codec.kind === "array_to_array") {
      const a2a = codec as ArrayToArrayCodec;
      const encodedSpec = a2a.encodedSpec(spec);
      // numcodecs' BitRound returns the integer view of the same bytes; zarr-python 3 (numcodecs.zarr3) keeps the float
      // type.
      const theirType = TYPES[theirs.encoded.dtype ?? "|O"]!;
      expect(encodedSpec.dataType.name).toBe(
        c.config.id === "bitround" ? theirType.replace("int", "float") : theirType,
      );
      const stored =
        theirs.encoded.data === undefined
          ? theirs.encoded.items!
          : fromBytes(encodedSpec.dataType.name, unb64(theirs.encoded.data));
      const decoded = await a2a.decode({ data: stored, shape: [...encodedSpec.shape] }, spec, ctx);
      if (theirs.decoded.items) expect(decoded.data).toEqual(theirs.decoded.items);
      else expect(b64(toBytes(decoded.data))).toBe(theirs.decoded.data);
    } else {
      const decoded = await (codec as ArrayToBytesCodec).decode(unb64(theirs.encoded.data), spec, ctx);
      expect(decoded.data).toEqual(theirs.decoded.items);
    }
  });

  test.each(CASES.map((c, i) => [label(c), i] as const))("%s: zarrkit's encoding", async (_, i) => {
    const c = CASES[i]!;
    const theirs = reply!.encoded[i]!;
    const type = TYPES[c.dtype]!;
    const codec = await codecFor(c);
    const spec = chunkSpec(c.shape, type);
    const input = typed(type, c.values);
    let encoded: Uint8Array;
    let dtype: string | undefined;
    if (codec.kind === "bytes_to_bytes") encoded = await (codec as BytesToBytesCodec).encode(toBytes(input), ctx);
    else if (codec.kind === "array_to_bytes") {
      encoded = await (codec as ArrayToBytesCodec).encode({ data: input, shape: c.shape }, spec, ctx);
    } else {
      const chunk = await (codec as ArrayToArrayCodec).encode({ data: input, shape: c.shape }, spec, ctx);
      if (Array.isArray(chunk.data)) throw new Error("array codecs here encode to numbers");
      encoded = toBytes(chunk.data);
      dtype = theirs.encoded.dtype;
    }
    if (c.exact) expect(b64(encoded)).toBe(theirs.encoded.data);
    ours[i] = { index: i, encoded, ...(dtype ? { dtype } : {}) };
  });

  test("numcodecs decodes zarrkit's encodings", () => {
    const items = ours.filter(Boolean);
    expect(items.length).toBe(CASES.length);
    const decoded = python({
      decode: items.map((o) => ({
        config: CASES[o.index]!.config,
        data: b64(o.encoded),
        ...(o.dtype ? { dtype: o.dtype } : {}),
      })),
    }).decoded;
    items.forEach((o, k) => {
      const expected = reply!.encoded[o.index]!.decoded;
      expect(decoded[k]!.error, label(CASES[o.index]!)).toBeUndefined();
      if (expected.items) expect(decoded[k]!.items, label(CASES[o.index]!)).toEqual(expected.items);
      else expect(decoded[k]!.data, label(CASES[o.index]!)).toBe(expected.data);
    });
  });
});
