// The narrow data types against tensorstore 0.1.85, value by value, both ways: tensorstore writes every encoding
// (with a fill value in the unwritten part) and zarrkit reads it as the reference decodes it; zarrkit writes the
// rounding probes (with a fill value) and tensorstore reads the very encodings the reference gives; and tensorstore's
// own conversion of the probes from float32 gives the same encodings as zarrkit's. Skipped, saying why, where
// tensorstore cannot be installed (see tensorstore.ts).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createArray, MemoryStore, openArray, slice } from "../src/index.js";
import {
  e8m0Probes,
  e8m0Reference,
  REFERENCE_FORMATS,
  referenceDecode,
  referenceEncode,
  roundingProbes,
  width,
} from "./narrow-reference.js";
import { dirFromStore, storeFromDir } from "./dir-store.js";
import { tensorstore, tensorstoreSkipReason } from "./tensorstore.js";

/** `use` of a fresh temporary folder, removed after. */
async function inTempDir(use: (dir: string) => Promise<void>): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "zarrkit-ts-interop-"));
  try {
    await use(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Generous: tensorstore runs in a child process over every encoding (bfloat16: 65536, and 400000 probes). */
const PEER_TIMEOUT = 180_000;

interface ReadReply {
  dtype: string;
  fill_bits: number;
  bits: number[];
}

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);
function float32Bits(v: number): number {
  f32[0] = v;
  return u32[0]!;
}

/** [index, got, want] of the first few elements that differ. */
function differences<T>(
  got: ArrayLike<T>,
  want: ArrayLike<T>,
  equal: (a: T, b: T) => boolean = Object.is,
): [number, T, T][] {
  const out: [number, T, T][] = [];
  for (let i = 0; i < Math.max(got.length, want.length) && out.length < 5; i++)
    if (!equal(got[i]!, want[i]!)) out.push([i, got[i]!, want[i]!]);
  return out;
}

describe.skipIf(tensorstoreSkipReason !== undefined).each(REFERENCE_FORMATS.filter((f) => f.tensorstore))(
  "$name",
  (f) => {
    const slot = width(f) > 8 ? 2 : 1;
    // A fill value that is neither zero nor any probe's neighbour: the largest negative finite value.
    const fill = -f.max;
    const fillBits = referenceEncode(f, fill)!;

    it(
      "reads every encoding tensorstore writes, and its fill value",
      () =>
        inTempDir(async (work) => {
          const patterns = Array.from({ length: 2 ** width(f) }, (_, b) => b);
          const path = join(work, `ts-${f.name}`);
          tensorstore([
            {
              op: "write",
              path,
              dtype: f.name,
              shape: [patterns.length + 7],
              chunk: [64],
              fill_value: fill,
              bits: patterns,
            },
          ]);
          const arr = await openArray(await storeFromDir(path), "");
          expect([arr.dataType, arr.fillValue]).toEqual([f.name, fill]);
          const data = (await arr.get()).data as Float32Array;
          const want = [...patterns.map((b) => referenceDecode(f, b)), ...new Array(7).fill(fill)];
          expect(differences(Array.from(data), want)).toEqual([]);
        }),
      PEER_TIMEOUT,
    );

    it(
      "tensorstore reads the encodings zarrkit writes, and its fill value",
      () =>
        inTempDir(async (work) => {
          const probes = roundingProbes(f).filter((p) => !Number.isNaN(p) || f.nan !== undefined);
          const store = new MemoryStore();
          const arr = await createArray(store, "", {
            shape: [probes.length + 7],
            dataType: f.name,
            chunkShape: [64],
            fillValue: fill,
          });
          await arr.set([slice(0, probes.length)], Float32Array.from(probes));
          const path = join(work, `zk-${f.name}`);
          await dirFromStore(store, path);
          const [read] = tensorstore<ReadReply>([{ op: "read", path }]);
          expect([read!.dtype, read!.fill_bits]).toEqual([f.name, fillBits]);
          const want = [...probes.map((p) => referenceEncode(f, p)!), ...new Array(7).fill(fillBits)];
          expect(differences(read!.bits, want)).toEqual([]);
        }),
      PEER_TIMEOUT,
    );

    it(
      "rounds as tensorstore's own conversion from float32 does",
      async () => {
        const probes = roundingProbes(f).filter((p) => !Number.isNaN(p) || f.nan !== undefined);
        const [converted] = tensorstore<{ bits: number[] }>([
          { op: "convert", dtype: f.name, float32_bits: probes.map(float32Bits) },
        ]);
        const store = new MemoryStore();
        const arr = await createArray(store, "a", {
          shape: [probes.length],
          dataType: f.name,
          chunkShape: [probes.length],
        });
        await arr.set(null, Float32Array.from(probes));
        const stored = (await store.get("a/c/0"))!;
        const ours =
          slot === 1
            ? Array.from(stored)
            : Array.from(new Uint16Array(stored.buffer, stored.byteOffset, probes.length));
        // NaN is NaN whatever its payload (tensorstore makes float32 NaN 0x7fe0 in bfloat16; the registry: 0x7fc0).
        const equal = (a: number, b: number) =>
          a === b || (Number.isNaN(referenceDecode(f, a)) && Number.isNaN(referenceDecode(f, b)));
        expect(differences(ours, converted!.bits, equal)).toEqual([]);
      },
      PEER_TIMEOUT,
    );
  },
);

describe.skipIf(tensorstoreSkipReason !== undefined)("float8_e8m0fnu", () => {
  const name = "float8_e8m0fnu";
  const probes = e8m0Probes();

  it(
    "reads every byte tensorstore writes and tensorstore every byte zarrkit writes, with fill values",
    () =>
      inTempDir(async (work) => {
        const patterns = Array.from({ length: 256 }, (_, b) => b);
        const tsPath = join(work, "ts");
        tensorstore([
          { op: "write", path: tsPath, dtype: name, shape: [263], chunk: [64], fill_value: 0.5, bits: patterns },
        ]);
        const theirs = await openArray(await storeFromDir(tsPath), "");
        expect(theirs.fillValue).toBe(0.5);
        const want = [...patterns.map((b) => (b === 0xff ? Number.NaN : 2 ** (b - 127))), ...new Array(7).fill(0.5)];
        expect(differences(Array.from((await theirs.get()).data as Float32Array), want)).toEqual([]);

        const store = new MemoryStore();
        const ours = await createArray(store, "", {
          shape: [probes.length + 3],
          dataType: name,
          chunkShape: [64],
          fillValue: 2,
        });
        await ours.set([slice(0, probes.length)], Float32Array.from(probes));
        const zkPath = join(work, "zk");
        await dirFromStore(store, zkPath);
        const [read] = tensorstore<ReadReply>([{ op: "read", path: zkPath }]);
        // Not its fill value's bits: tensorstore 0.1.85 converts float8_e8m0fnu from float wrongly (2.0 gives 0x40).
        expect(read!.dtype).toBe(name);
        expect(
          differences(
            read!.bits.slice(0, probes.length),
            probes.map((p) => e8m0Reference(p)!),
          ),
        ).toEqual([]);
      }),
    PEER_TIMEOUT,
  );

  it(
    "rounds as ml_dtypes (tensorstore's own type library) converts from float32",
    async () => {
      const [converted] = tensorstore<{ bits: number[] }>([
        { op: "ml_dtypes", dtype: name, float32_bits: probes.map(float32Bits) },
      ]);
      const store = new MemoryStore();
      const arr = await createArray(store, "a", {
        shape: [probes.length],
        dataType: name,
        chunkShape: [probes.length],
      });
      await arr.set(null, Float32Array.from(probes));
      expect(differences(Array.from((await store.get("a/c/0"))!), converted!.bits)).toEqual([]);
    },
    PEER_TIMEOUT,
  );
});

const SMALL_INTS = [
  { name: "int2", bits: 2, lo: -2, hi: 1 },
  { name: "int4", bits: 4, lo: -8, hi: 7 },
];

describe.skipIf(tensorstoreSkipReason !== undefined).each(SMALL_INTS)("$name", ({ name, bits, lo, hi }) => {
  const values = Array.from({ length: hi - lo + 1 }, (_, i) => lo + i);
  const mask = 2 ** bits - 1;

  it(
    "reads what tensorstore writes, and tensorstore what zarrkit writes, with fill values",
    () =>
      inTempDir(async (work) => {
        const tsPath = join(work, `ts-${name}`);
        tensorstore([
          {
            op: "write",
            path: tsPath,
            dtype: name,
            shape: [values.length + 3],
            chunk: [4],
            fill_value: lo,
            bits: values.map((v) => v & mask),
          },
        ]);
        const theirs = await openArray(await storeFromDir(tsPath), "");
        expect(theirs.fillValue).toBe(lo);
        expect(Array.from((await theirs.get()).data as Int8Array)).toEqual([...values, lo, lo, lo]);

        const store = new MemoryStore();
        const ours = await createArray(store, "", {
          shape: [values.length + 3],
          dataType: name,
          chunkShape: [4],
          fillValue: hi,
        });
        await ours.set([slice(0, values.length)], Int8Array.from(values));
        const zkPath = join(work, `zk-${name}`);
        await dirFromStore(store, zkPath);
        const [read] = tensorstore<ReadReply>([{ op: "read", path: zkPath }]);
        expect(read!.dtype).toBe(name);
        expect([read!.fill_bits & mask, read!.bits.map((b) => b & mask)]).toEqual([
          hi & mask,
          [...values, hi, hi, hi].map((v) => v & mask),
        ]);
      }),
    PEER_TIMEOUT,
  );
});
