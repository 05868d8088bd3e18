// Target 4: zstd streams. Frames written by zarrkit's zstd encoder at fast,
// default and high levels, with or without a content checksum, with or
// without a declared content size (the header rewritten as a streaming
// writer leaves it), between skippable frames; the stream's bytes mutated,
// then decoded by the zstd codec under a cap (the exact size, less, or more).
import { type BytesToBytesCodec, resolveCodec } from "@zarrkit/registry";
import { concatBytes } from "@zarrkit/util";
import "@zarrkit/codecs";
import fc from "fast-check";
import { classify, itemAt, type Outcome, sameBytes } from "../contract.js";
import type { FuzzTarget } from "../target.js";

export type ZstdPart =
  | {
      kind: "frame";
      level: number;
      checksum: boolean;
      sized: boolean;
      length: number;
      content: "smooth" | "noise" | "zeros";
      seed: number;
    }
  | { kind: "skippable"; length: number; variant: number };

export type ZstdMutation =
  | { op: "flip"; pos: number; bit: number }
  | { op: "overwrite"; pos: number; bytes: number[] }
  | { op: "truncate"; keep: number }
  | { op: "extend"; bytes: number[] };

export interface ZstdCase {
  parts: ZstdPart[];
  mutations: ZstdMutation[];
  /** The decode cap relative to the decoded size. */
  cap: { kind: "exact" } | { kind: "less"; by: number } | { kind: "more"; by: number };
}

const partArb: fc.Arbitrary<ZstdPart> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant("frame" as const),
      level: fc.constantFrom(-50, -5, -1, 1, 3, 9, 19),
      checksum: fc.boolean(),
      sized: fc.boolean(),
      length: fc.oneof(fc.integer({ min: 0, max: 300 }), fc.integer({ min: 0, max: 200_000 })),
      content: fc.constantFrom("smooth" as const, "noise" as const, "zeros" as const),
      seed: fc.integer({ min: 1, max: 2 ** 31 - 1 }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant("skippable" as const),
      length: fc.integer({ min: 0, max: 40 }),
      variant: fc.integer({ min: 0, max: 15 }),
    }),
  },
);

const posArb = fc.nat({ max: 2 ** 24 });
export const mutationArb: fc.Arbitrary<ZstdMutation> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({ op: fc.constant("flip" as const), pos: posArb, bit: fc.integer({ min: 0, max: 7 }) }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      op: fc.constant("overwrite" as const),
      pos: posArb,
      bytes: fc.array(fc.nat({ max: 255 }), { minLength: 1, maxLength: 8 }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ op: fc.constant("truncate" as const), keep: posArb }) },
  {
    weight: 1,
    arbitrary: fc.record({
      op: fc.constant("extend" as const),
      bytes: fc.array(fc.nat({ max: 255 }), { minLength: 1, maxLength: 16 }),
    }),
  },
);

const capArb: fc.Arbitrary<ZstdCase["cap"]> = fc.oneof(
  { weight: 3, arbitrary: fc.constant({ kind: "exact" as const }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("less" as const), by: fc.integer({ min: 1, max: 100_000 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("more" as const), by: fc.integer({ min: 1, max: 100_000 }) }) },
);

const zstdCaseArb: fc.Arbitrary<ZstdCase> = fc.record({
  parts: fc.array(partArb, { minLength: 1, maxLength: 4 }),
  mutations: fc.array(mutationArb, { minLength: 0, maxLength: 3 }),
  cap: capArb,
});

export function content(part: Pick<Extract<ZstdPart, { kind: "frame" }>, "length" | "content" | "seed">): Uint8Array {
  const out = new Uint8Array(part.length);
  if (part.content === "zeros") return out;
  let state = part.seed;
  for (let i = 0; i < out.length; i++) {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    out[i] = part.content === "noise" ? state : (Math.round(90 * Math.sin(i / 300)) + (state & 3)) & 0xff;
  }
  return out;
}

/**
 * The same frame without its content size, as a streaming writer leaves it:
 * the size field dropped, and a window descriptor covering the content added
 * where the frame was single-segment.
 */
export function withoutContentSize(frame: Uint8Array, contentLength: number): Uint8Array {
  const descriptor = itemAt(frame, 4);
  const sizeFlag = descriptor >> 6;
  const singleSegment = (descriptor & 0x20) !== 0;
  const sizeBytes = sizeFlag === 0 ? (singleSegment ? 1 : 0) : 1 << sizeFlag;
  const windowBytes = singleSegment ? 0 : 1;
  const body = frame.subarray(5 + windowBytes + sizeBytes);
  const windowLog = Math.max(10, Math.ceil(Math.log2(Math.max(1, contentLength))));
  const window = singleSegment ? (windowLog - 10) << 3 : itemAt(frame, 5);
  return concatBytes([frame.subarray(0, 4), Uint8Array.of(descriptor & 0x1f & ~0x20, window), body]);
}

function skippable(part: Extract<ZstdPart, { kind: "skippable" }>): Uint8Array {
  const out = new Uint8Array(8 + part.length).fill(0x5a);
  new DataView(out.buffer).setUint32(0, 0x184d2a50 + part.variant, true);
  new DataView(out.buffer).setUint32(4, part.length, true);
  return out;
}

export function mutate(original: Uint8Array, mutations: readonly ZstdMutation[]): Uint8Array {
  let bytes: Uint8Array = original.slice();
  for (const m of mutations) {
    if (m.op === "extend") {
      bytes = concatBytes([bytes, Uint8Array.from(m.bytes)]);
      continue;
    }
    if (bytes.length === 0) continue;
    const p = (m.op === "truncate" ? m.keep : m.pos) % bytes.length;
    if (m.op === "flip") bytes[p] = itemAt(bytes, p) ^ (1 << m.bit);
    else if (m.op === "overwrite") bytes.set(m.bytes.slice(0, bytes.length - p), p);
    else bytes = bytes.slice(0, p);
  }
  return bytes;
}

const codecs = new Map<string, BytesToBytesCodec>();

async function codec(level: number, checksum: boolean): Promise<BytesToBytesCodec> {
  const name = `${level}/${checksum}`;
  let built = codecs.get(name);
  if (!built) {
    const factory = await resolveCodec("zstd", "fuzz");
    const spec = {
      shape: [1],
      dataType: {
        name: "uint8",
        kind: "uint" as const,
        byteSize: 1,
        lanes: 1,
        allocate: (n: number) => new Uint8Array(n),
      },
      fillValue: 0,
    };
    built = (await factory(
      { level, checksum },
      { spec, field: "codecs[0]", options: {}, pipeline: { codecOptions: {} } },
    )) as BytesToBytesCodec;
    codecs.set(name, built);
  }
  return built;
}

export const zstdTarget: FuzzTarget<ZstdCase> = {
  name: "zstd",
  description:
    "zstd streams (levels -50..19, with/without checksum and content size, skippable frames) mutated, decoded " +
    "under a cap",
  arbitrary: zstdCaseArb,
  async run(c, dump) {
    const stored: Uint8Array[] = [];
    const expected: Uint8Array[] = [];
    for (const part of c.parts) {
      if (part.kind === "skippable") {
        stored.push(skippable(part));
        continue;
      }
      const data = content(part);
      const frame = await (await codec(part.level, part.checksum)).encode(data, { key: "fuzz" });
      stored.push(part.sized ? frame : withoutContentSize(frame, data.length));
      expected.push(data);
    }
    const bytes = mutate(concatBytes(stored), c.mutations);
    if (dump) dump(new Map([["stream", bytes]]));
    const whole = concatBytes(expected);
    const cap =
      c.cap.kind === "exact"
        ? whole.length
        : c.cap.kind === "less"
          ? Math.max(0, whole.length - c.cap.by)
          : whole.length + c.cap.by;
    const checksummed = c.parts.every((p) => p.kind === "skippable" || p.checksum);
    const decoder = await codec(3, false);
    const outcome: Outcome = await classify(
      "decode",
      async () => {
        const decoded = await decoder.decode(bytes, { key: "fuzz/c/0", maxDecodedBytes: cap });
        if (decoded.length > cap) throw new Error(`decoded ${decoded.length} bytes past the cap of ${cap}`);
        return decoded;
      },
      (decoded) => sameBytes(decoded, whole),
      // Whole frames cut off or added change the length, which no frame's checksum covers (the chain's next codec sees
      // it).
      !checksummed || c.mutations.some((m) => m.op === "truncate" || m.op === "extend"),
      (decoded) => `${decoded.length} bytes, expected ${whole.length}`,
    );
    return { outcome };
  },
};
