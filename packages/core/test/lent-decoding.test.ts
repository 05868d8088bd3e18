// Reads decode chunks on this thread through a compressor's decodeLent when
// it has one: the decoded bytes, lent from the codec's own memory, are copied
// straight into the result. The lender here reuses one scratch buffer for
// every chunk and scribbles over it afterwards, as a wasm decoder's memory
// is reused: any reference kept past `use` would show in the values.
import { describe, expect, it } from "vitest";
import { type BytesToBytesCodec, registerCodec } from "@zarrkit/registry";
import { CorruptDataError, createArray, MemoryStore, openArray, type Selection, slice } from "../src/index.js";
import { sequence } from "./helpers.js";

const calls = { decode: 0, lent: 0 };
let scratch = new Uint8Array(0);

function unmask(bytes: Uint8Array, into: Uint8Array): void {
  for (let i = 0; i < bytes.length; i++) into[i] = bytes[i]! ^ 0x5a;
}

/** `test.mask` XORs every byte; `test.lender` stores the same bytes and also lends its decoded output. */
for (const name of ["test.mask", "test.lender"]) {
  registerCodec(name, () => () => {
    const codec: BytesToBytesCodec = {
      kind: "bytes_to_bytes",
      name,
      encode: (bytes) => {
        const out = new Uint8Array(bytes.length);
        unmask(bytes, out);
        return out;
      },
      decode: (bytes) => {
        calls.decode++;
        const out = new Uint8Array(bytes.length);
        unmask(bytes, out);
        return out;
      },
      toJSON: () => ({ name }),
    };
    if (name === "test.mask") return codec;
    return {
      ...codec,
      decodeLent(bytes, ctx, use) {
        calls.lent++;
        if (bytes.length > ctx.maxDecodedBytes!) {
          throw new CorruptDataError(`test.lender: ${ctx.key} decodes past ${ctx.maxDecodedBytes}`, { key: ctx.key });
        }
        if (scratch.length < bytes.length) scratch = new Uint8Array(bytes.length);
        const lent = scratch.subarray(0, bytes.length);
        unmask(bytes, lent);
        try {
          return use(lent);
        } finally {
          lent.fill(0xee);
        }
      },
    };
  });
}

const SHAPE = [10, 7, 9];
const CHUNKS = [4, 4, 4];

async function pair(type: string, codecs: (compressor: string) => unknown[]) {
  const store = new MemoryStore();
  const n = SHAPE.reduce((a, b) => a * b, 1);
  const data = sequence(type, n);
  const arrays = [];
  for (const compressor of ["test.mask", "test.lender"]) {
    const arr = await createArray(store, compressor, {
      shape: SHAPE,
      dataType: type as "uint16",
      chunkShape: CHUNKS,
      codecs: codecs(compressor) as never,
    });
    // Leave chunk [1, 0, 1] unwritten: it reads as the fill value.
    await arr.set([slice(0, 4)], data.slice(0, 4 * 7 * 9 * (data.length / n)) as never);
    await arr.set([slice(8, 10)], data.slice(8 * 7 * 9 * (data.length / n)) as never);
    arrays.push(await openArray(store, compressor, { workers: false }));
  }
  return arrays as [Awaited<ReturnType<typeof openArray>>, Awaited<ReturnType<typeof openArray>>];
}

const SELECTIONS: [string, Selection | null][] = [
  ["everything", null],
  ["one whole chunk", [slice(0, 4), slice(4, 7), slice(4, 8)]],
  ["parts of chunks", [slice(1, 9), slice(2, 6), slice(3, 9)]],
  ["steps", [slice(0, 10, 3), slice(1, 7, 2), slice(0, 9, 4)]],
  ["an integer index", [2, slice(null), slice(5, 9)]],
];

const little = (type: string) => [{ name: "bytes", configuration: { endian: "little" } }, type];
const LAYOUTS: [string, string, (compressor: string) => unknown[]][] = [
  ["uint16", "bytes little", (c) => little(c).map((x) => (typeof x === "string" ? { name: x } : x))],
  ["float64", "bytes little", (c) => [{ name: "bytes", configuration: { endian: "little" } }, { name: c }]],
  ["int8", "bytes", (c) => [{ name: "bytes" }, { name: c }]],
  ["complex64", "bytes little", (c) => [{ name: "bytes", configuration: { endian: "little" } }, { name: c }]],
  ["int32", "bytes big (swapped)", (c) => [{ name: "bytes", configuration: { endian: "big" } }, { name: c }]],
  [
    "uint16",
    "two compressors",
    (c) => [{ name: "bytes", configuration: { endian: "little" } }, { name: c }, { name: "test.mask" }],
  ],
  [
    "uint16",
    "transposed (falls back)",
    (c) => [
      { name: "transpose", configuration: { order: [2, 0, 1] } },
      { name: "bytes", configuration: { endian: "little" } },
      { name: c },
    ],
  ],
];

describe("decoding lent bytes straight into the result", () => {
  for (const [type, layout, codecs] of LAYOUTS) {
    it(`${type}, ${layout}: every selection reads as without lending`, async () => {
      const [plain, lending] = await pair(type, codecs);
      for (const [what, selection] of SELECTIONS) {
        calls.decode = 0;
        calls.lent = 0;
        const expected = await plain.get(selection);
        const plainDecodes = calls.decode;
        calls.decode = 0;
        const got = await lending.get(selection);
        expect(got, what).toEqual(expected);
        if (layout.startsWith("transposed")) {
          expect(calls.lent, what).toBe(0);
        } else {
          // Every stored chunk is decoded once, through the lender: only the outer test.mask (if any) decodes to a
          // buffer.
          expect(calls.lent, what).toBeGreaterThan(0);
          expect(calls.decode, what).toBe(layout === "two compressors" ? plainDecodes / 2 : 0);
        }
      }
    });
  }

  it("reads the fill value where no chunk is stored", async () => {
    const [, lending] = await pair("uint16", (c) => [
      { name: "bytes", configuration: { endian: "little" } },
      { name: c },
    ]);
    const got = await lending.get([slice(4, 8), slice(0, 4), slice(4, 8)]);
    expect(Array.from(got.data as Uint16Array).every((v) => v === 0)).toBe(true);
  });

  it("fails the read with a typed error when a chunk is corrupt", async () => {
    const [, lending] = await pair("uint16", (c) => [
      { name: "bytes", configuration: { endian: "little" } },
      { name: c },
    ]);
    // One stored chunk 2 bytes short: the bytes codec refuses it inside `use`, before anything is copied.
    const store = lending.store as MemoryStore;
    const key = "test.lender/c/0/0/0";
    const stored = (await store.get(key))!;
    await store.set(key, stored.subarray(0, stored.length - 2));
    await expect(lending.get([slice(0, 4), slice(0, 4), slice(0, 4)])).rejects.toThrow(CorruptDataError);
    await expect(lending.get([slice(0, 4), slice(0, 4), slice(0, 4)])).rejects.toThrow(
      /has 126 bytes where shape \[4, 4, 4\] of uint16 needs 128/,
    );
    // One too long for the cap: the lender itself refuses it.
    await store.set(key, new Uint8Array(stored.length + 2));
    await expect(lending.get([slice(0, 4), slice(0, 4), slice(0, 4)])).rejects.toThrow(/decodes past 128/);
  });
});
