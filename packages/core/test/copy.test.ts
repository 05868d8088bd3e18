import type { Chunk, DimSlice } from "@zarrkit/registry";
import { prng } from "@zarrkit/test-utils/noise";
import { describe, expect, it } from "vitest";
import { copyStrided, transposeChunk } from "../src/copy.js";
import { dataType } from "../src/data-types.js";

/** The element of `shape` (C order) at `index`, in lanes. */
function flat(shape: readonly number[], index: readonly number[]): number {
  return index.reduce((at, i, d) => at * shape[d]! + i, 0);
}

const bytesOf = (data: Chunk["data"]) =>
  new Uint8Array((data as Uint8Array).buffer, (data as Uint8Array).byteOffset, (data as Uint8Array).byteLength);

/** copyStrided done one element at a time, byte by byte: what every fast path must agree with. */
function reference(
  src: Chunk,
  srcSel: readonly DimSlice[],
  dst: Chunk,
  dstSel: readonly DimSlice[],
  lanes: number,
): void {
  const width = (src.data as Uint8Array).BYTES_PER_ELEMENT * lanes;
  const from = bytesOf(src.data);
  const into = bytesOf(dst.data);
  const counts = srcSel.map((s) => Math.ceil((s.stop - s.start) / s.step));
  const index = counts.map(() => 0);
  if (counts.some((c) => c === 0)) return;
  for (;;) {
    const at = flat(
      src.shape,
      index.map((i, d) => srcSel[d]!.start + i * srcSel[d]!.step),
    );
    const to = flat(
      dst.shape,
      index.map((i, d) => dstSel[d]!.start + i * dstSel[d]!.step),
    );
    for (let b = 0; b < width; b++) into[to * width + b] = from[at * width + b]!;
    let d = counts.length - 1;
    while (d >= 0 && ++index[d]! === counts[d]) index[d--] = 0;
    if (d < 0) return;
  }
}

/**
 * A typed array of `type` over `elements` elements starting `misalign` bytes into its buffer, filled with every kind of
 * bit pattern.
 */
function filled(typeName: string, elements: number, misalign: number, random: () => number): Chunk["data"] {
  const type = dataType(typeName);
  const sample = type.allocate(0) as unknown as {
    constructor: { BYTES_PER_ELEMENT: number; new (b: ArrayBuffer, o: number, n: number): Chunk["data"] };
  };
  const width = sample.constructor.BYTES_PER_ELEMENT;
  const buffer = new ArrayBuffer(elements * type.lanes * width + misalign * width);
  const bytes = new Uint8Array(buffer);
  for (let i = 0; i < bytes.length; i++) bytes[i] = Math.floor(random() * 256);
  // Signalling and quiet NaNs with payloads (float32 and float64 views): the copy must keep their bits.
  if (width >= 4) new DataView(buffer).setUint32(misalign * width, 0x7f800001, true);
  // ... and a signalling float64 NaN with a payload, moved as a 64-bit word where the engine allows.
  if (buffer.byteLength >= misalign * width + 16)
    new DataView(buffer).setBigUint64(misalign * width + 8, 0x7ff0000000000abcn, true);
  return new sample.constructor(buffer, misalign * width, elements * type.lanes);
}

describe("copyStrided", () => {
  const types = ["uint8", "int16", "uint16", "float32", "float64", "int64", "complex64", "bool"];
  it("copies every bit of every element as the element-by-element reference does, on every path", () => {
    const random = prng(11);
    const pick = (n: number) => Math.floor(random() * n);
    for (let trial = 0; trial < 600; trial++) {
      const typeName = types[trial % types.length]!;
      const type = dataType(typeName);
      const rank = 1 + pick(3);
      const srcShape = Array.from({ length: rank }, () => 1 + pick(9));
      const dstShape = srcShape.map((n) => n + pick(5));
      const stepped = trial % 3 === 0;
      const srcSel: DimSlice[] = srcShape.map((n) => {
        const step = stepped ? 1 + pick(2) : 1;
        const start = pick(n);
        return { start, stop: start + 1 + pick(n - start), step };
      });
      const counts = srcSel.map((s) => Math.ceil((s.stop - s.start) / s.step));
      const dstSel: DimSlice[] = dstShape.map((n, d) => {
        const start = pick(n - counts[d]! + 1);
        return { start, stop: start + counts[d]!, step: 1 };
      });
      const elements = (shape: number[]) => shape.reduce((a, b) => a * b, 1);
      const src: Chunk = { data: filled(typeName, elements(srcShape), pick(3), random), shape: srcShape };
      const dstData = filled(typeName, elements(dstShape), pick(3), random);
      const expected: Chunk = { data: dstData.slice() as Chunk["data"], shape: dstShape };
      const actual: Chunk = { data: dstData, shape: dstShape };
      reference(src, srcSel, expected, dstSel, type.lanes);
      copyStrided(src, srcSel, actual, dstSel, type);
      expect(bytesOf(actual.data), `${typeName} ${JSON.stringify({ srcShape, srcSel, dstShape, dstSel })}`).toEqual(
        bytesOf(expected.data),
      );
    }
  });

  it("copies runs of every width the word copy unrolls, and of others, in 64- and 32-bit words, at every rank", () => {
    const random = prng(12);
    const types = ["uint8", "uint16", "float32", "float64"];
    // 16, 32, 64 and 128 bytes are 2, 4, 8 and 16 words of 64 bits (or 4, 8, 16, 32 of 32); 24, 96 and 2048 are
    // copied word by word in a loop; 4096 by typed-array `set`.
    const runBytes = [16, 24, 32, 64, 96, 128, 2048, 4096];
    let copies = 0;
    for (const typeName of types) {
      const type = dataType(typeName);
      const size = (type.allocate(0) as unknown as { BYTES_PER_ELEMENT: number }).BYTES_PER_ELEMENT;
      for (const bytes of runBytes) {
        const run = bytes / size;
        // Misaligned by one element: 4-byte elements then move as 32-bit words; smaller ones as elements.
        for (const misalign of [0, 1]) {
          for (let rank = 1; rank <= 4; rank++) {
            const outer = bytes > 128 ? [2, 2, 3] : [3, 4, 5];
            const srcShape = [...outer, 2 * run].slice(4 - rank);
            const dstShape = [...outer.map((n) => n + 1), 3 * run].slice(4 - rank);
            const srcSel: DimSlice[] = srcShape.map((n, d) =>
              d === rank - 1 ? { start: run, stop: 2 * run, step: 1 } : { start: 1, stop: n, step: 1 },
            );
            const dstSel: DimSlice[] = dstShape.map((n, d) =>
              d === rank - 1 ? { start: 2 * run, stop: 3 * run, step: 1 } : { start: 1, stop: n - 1, step: 1 },
            );
            const elements = (shape: number[]) => shape.reduce((a, b) => a * b, 1);
            const src: Chunk = { data: filled(typeName, elements(srcShape), misalign, random), shape: srcShape };
            const dstData = filled(typeName, elements(dstShape), misalign, random);
            const expected: Chunk = { data: dstData.slice() as Chunk["data"], shape: dstShape };
            const actual: Chunk = { data: dstData, shape: dstShape };
            reference(src, srcSel, expected, dstSel, type.lanes);
            copyStrided(src, srcSel, actual, dstSel, type);
            const what = `${typeName}, ${bytes}-byte runs, misaligned ${misalign}, rank ${rank}`;
            expect(Buffer.from(bytesOf(actual.data)).equals(bytesOf(expected.data)), what).toBe(true);
            copies++;
          }
        }
      }
    }
    expect(copies).toBe(types.length * runBytes.length * 2 * 4);
  });

  it("keeps NaN payloads of float32 bit for bit, in runs and element by element", () => {
    const words = new Uint32Array([0x7f800001, 0xffc12345, 0x7fa00000, 0x00000001]);
    const src: Chunk = { data: new Float32Array(words.buffer), shape: [2, 2] };
    const dst: Chunk = { data: new Float32Array(8), shape: [2, 4] };
    const all = (n: number): DimSlice => ({ start: 0, stop: n, step: 1 });
    copyStrided(src, [all(2), all(2)], dst, [all(2), { start: 1, stop: 3, step: 1 }], dataType("float32"));
    expect([...new Uint32Array((dst.data as Float32Array).buffer)]).toEqual([
      0, 0x7f800001, 0xffc12345, 0, 0, 0x7fa00000, 0x00000001, 0,
    ]);
  });

  it("keeps NaN payloads of float64 across a stepped (element by element) copy and a transpose", () => {
    const words = new Uint32Array([
      0x00000001, 0x7ff00000, 0x12345678, 0xfff80000, 0x00000000, 0x7ff40000, 0x9abcdef0, 0x7ff00001,
    ]);
    const src: Chunk = { data: new Float64Array(words.buffer), shape: [4] };
    const dst: Chunk = { data: new Float64Array(2), shape: [2] };
    copyStrided(src, [{ start: 0, stop: 4, step: 2 }], dst, [{ start: 0, stop: 2, step: 1 }], dataType("float64"));
    expect([...new Uint32Array((dst.data as Float64Array).buffer)]).toEqual([
      0x00000001, 0x7ff00000, 0x00000000, 0x7ff40000,
    ]);
    const square: Chunk = { data: new Float64Array(words.buffer), shape: [2, 2] };
    const transposed = transposeChunk(square, [1, 0], dataType("float64"));
    expect([...new Uint32Array((transposed.data as Float64Array).buffer)]).toEqual([
      0x00000001, 0x7ff00000, 0x00000000, 0x7ff40000, 0x12345678, 0xfff80000, 0x9abcdef0, 0x7ff00001,
    ]);
  });

  it("keeps NaN payloads of float32 across a transpose", () => {
    const words = new Uint32Array([0x7f800001, 0xffc12345, 0x7fa00000, 0x00000001]);
    const transposed = transposeChunk(
      { data: new Float32Array(words.buffer), shape: [2, 2] },
      [1, 0],
      dataType("float32"),
    );
    expect([...new Uint32Array((transposed.data as Float32Array).buffer)]).toEqual([
      0x7f800001, 0x7fa00000, 0xffc12345, 0x00000001,
    ]);
  });
});
