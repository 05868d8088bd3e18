// Target 5: bzip2, xz and alone streams (numcodecs.bz2 and numcodecs.lzma,
// libbzip2 and liblzma in wasm). 1-3 streams written by the codecs (bz2
// levels 1-9; xz presets 0-6 with each check; alone presets 0-6), placed one
// after another as Python's decompress functions read them, mutated, then
// decoded under a cap (the exact size, less, or more).
import { type BytesToBytesCodec, resolveCodec } from "@zarrkit/registry";
import { concatBytes } from "@zarrkit/util";
import "@zarrkit/codecs";
import fc from "fast-check";
import { classify, type Outcome, sameBytes } from "../contract.js";
import type { FuzzTarget } from "../target.js";
import { content, mutate, mutationArb, type ZstdMutation } from "./zstd.js";

export type Bz2LzmaFormat =
  | { codec: "bz2"; level: number }
  | { codec: "xz"; preset: number; check: 0 | 1 | 4 | 10 }
  | { codec: "alone"; preset: number };

export interface Bz2LzmaStream {
  length: number;
  content: "smooth" | "noise" | "zeros";
  seed: number;
}

export interface Bz2LzmaCase {
  format: Bz2LzmaFormat;
  streams: Bz2LzmaStream[];
  mutations: ZstdMutation[];
  /** The decode cap relative to the decoded size. */
  cap: { kind: "exact" } | { kind: "less"; by: number } | { kind: "more"; by: number };
}

// Presets above 6 take 186-674 MiB of wasm memory to encode: past the runner's memory limit for a case.
const formatArb: fc.Arbitrary<Bz2LzmaFormat> = fc.oneof(
  fc.record({ codec: fc.constant("bz2" as const), level: fc.integer({ min: 1, max: 9 }) }),
  fc.record({
    codec: fc.constant("xz" as const),
    preset: fc.integer({ min: 0, max: 6 }),
    check: fc.constantFrom(0 as const, 1 as const, 4 as const, 10 as const),
  }),
  fc.record({ codec: fc.constant("alone" as const), preset: fc.integer({ min: 0, max: 6 }) }),
);

const streamArb: fc.Arbitrary<Bz2LzmaStream> = fc.record({
  length: fc.oneof(fc.integer({ min: 0, max: 300 }), fc.integer({ min: 0, max: 100_000 })),
  content: fc.constantFrom("smooth" as const, "noise" as const, "zeros" as const),
  seed: fc.integer({ min: 1, max: 2 ** 31 - 1 }),
});

const capArb: fc.Arbitrary<Bz2LzmaCase["cap"]> = fc.oneof(
  { weight: 3, arbitrary: fc.constant({ kind: "exact" as const }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("less" as const), by: fc.integer({ min: 1, max: 100_000 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("more" as const), by: fc.integer({ min: 1, max: 100_000 }) }) },
);

const caseArb: fc.Arbitrary<Bz2LzmaCase> = fc.record({
  format: formatArb,
  streams: fc.array(streamArb, { minLength: 1, maxLength: 3 }),
  mutations: fc.array(mutationArb, { minLength: 0, maxLength: 3 }),
  cap: capArb,
});

const codecs = new Map<string, BytesToBytesCodec>();

async function codec(format: Bz2LzmaFormat): Promise<BytesToBytesCodec> {
  const name = JSON.stringify(format);
  let built = codecs.get(name);
  if (!built) {
    const [id, configuration] =
      format.codec === "bz2"
        ? ["numcodecs.bz2", { level: format.level }]
        : [
            "numcodecs.lzma",
            format.codec === "xz"
              ? { format: 1, preset: format.preset, check: format.check }
              : { format: 2, preset: format.preset },
          ];
    const factory = await resolveCodec(id, "fuzz");
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
    built = (await factory(configuration, {
      spec,
      field: "codecs[0]",
      options: {},
      pipeline: { codecOptions: {} },
    })) as BytesToBytesCodec;
    codecs.set(name, built);
  }
  return built;
}

export const bz2LzmaTarget: FuzzTarget<Bz2LzmaCase> = {
  name: "bz2-lzma",
  description: "bzip2, xz (each check) and alone streams, 1-3 after another, mutated, decoded under a cap",
  arbitrary: caseArb,
  async run(c, dump) {
    const coder = await codec(c.format);
    const expected = c.streams.map((stream) => content(stream));
    const stored = await Promise.all(expected.map((data) => coder.encode(data, { key: "fuzz" })));
    const bytes = mutate(concatBytes(stored), c.mutations);
    if (dump) dump(new Map([["stream", bytes]]));
    const whole = concatBytes(expected);
    const cap =
      c.cap.kind === "exact"
        ? whole.length
        : c.cap.kind === "less"
          ? Math.max(0, whole.length - c.cap.by)
          : whole.length + c.cap.by;
    // As Python, what follows a complete stream and does not decode is ignored: damage there (or a cut or added
    // tail) loses later streams without an error. Alone streams and xz without a check have nothing to catch damage.
    const checked =
      (c.format.codec === "bz2" || (c.format.codec === "xz" && c.format.check !== 0)) && c.streams.length === 1;
    const outcome: Outcome = await classify(
      "decode",
      async () => {
        const decoded = await coder.decode(bytes, { key: "fuzz/c/0", maxDecodedBytes: cap });
        if (decoded.length > cap) throw new Error(`decoded ${decoded.length} bytes past the cap of ${cap}`);
        return decoded;
      },
      (decoded) => sameBytes(decoded, whole),
      !checked || c.mutations.some((m) => m.op === "truncate" || m.op === "extend"),
      (decoded) => `${decoded.length} bytes, expected ${whole.length}`,
    );
    return { outcome };
  },
};
