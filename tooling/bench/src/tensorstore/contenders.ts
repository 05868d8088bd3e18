import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { uint16View } from "../blocks.js";
import { type Contender, type Rounds, SelfTimed } from "../contest.js";
import type { Box } from "../peers.js";
import type { TensorstoreChild } from "./child-process.js";

export const TENSORSTORE = "tensorstore";

/** tensorstore for the cases: its running child, or why it does not run. */
export type TensorstorePeer = { child: TensorstoreChild; version: string } | { skip: string };

/**
 * Timed runs, at least, of a case compared with tensorstore: its ratios are issue 20's targets, and two runs (the
 * quick profile's) moved them by a third from one run of the suite to the next.
 */
export const COMPARED_RUNS = 5;

/** The profile's rounds, with at least `COMPARED_RUNS` timed runs when the case is compared with tensorstore. */
export function comparedRounds(rounds: Rounds, compared: boolean): Rounds {
  return compared ? { runs: Math.max(COMPARED_RUNS, rounds.runs), warmups: rounds.warmups } : rounds;
}

/** The child, while it runs: after it died in a case (that case's failure says why), the others go on without it. */
export function runningChild(peer: TensorstorePeer): TensorstoreChild | undefined {
  return "child" in peer && peer.child.running ? peer.child : undefined;
}

export interface TensorstoreReadOptions {
  /** The array's directory (the same files the other contenders read). */
  arrayDir: string;
  /** Where the results of the checking run are handed over. */
  scratch: string;
  /** The boxes read one after another (each its own read), or undefined: the whole array in one read. */
  boxes?: Box[];
  /** The whole array as a box, what a whole read returns. */
  whole: Box;
  /** Read untimed after each open, before the timed work (e.g. one inner chunk per shard, to warm the page cache). */
  setup?: Box[];
  /** Throws unless `data` holds the content of `box` (the suite's check, as for every contender). */
  check(data: Uint16Array, box: Box): void;
}

/** Splits the results of boxes read in turn (C order each, concatenated) and checks each. */
function checkResults(file: string, boxes: readonly Box[], check: TensorstoreReadOptions["check"]): void {
  const values = uint16View(readFileSync(file));
  const sizes = boxes.map((box) => box.stop.reduce((n, stop, d) => n * (stop - box.start[d]!), 1));
  const expected = sizes.reduce((a, b) => a + b, 0);
  if (values.length !== expected)
    throw new Error(`tensorstore returned ${values.length} values for ${expected} expected`);
  let at = 0;
  boxes.forEach((box, i) => {
    check(values.subarray(at, at + sizes[i]!), box);
    at += sizes[i]!;
  });
}

/**
 * tensorstore reading, as the zarrkit contender does: each run opens the array
 * afresh (untimed, its zarr.json read), then the reads are timed in the child.
 * The checking run has the child write what it read to a file, checked here.
 */
export function tensorstoreReads(child: TensorstoreChild, options: TensorstoreReadOptions): Contender {
  const { arrayDir, scratch, boxes, whole, setup, check } = options;
  return {
    name: TENSORSTORE,
    async prepare(checking) {
      await child.request({ op: "open", path: arrayDir });
      if (setup) await child.request({ op: "read", boxes: setup, out: null });
      return async () => {
        if (!checking) return new SelfTimed(await child.timed({ op: "read", boxes: boxes ?? null, out: null }));
        mkdirSync(scratch, { recursive: true });
        const out = join(scratch, "tensorstore-read.u16");
        try {
          const ms = await child.timed({ op: "read", boxes: boxes ?? null, out });
          checkResults(out, boxes ?? [whole], check);
          return new SelfTimed(ms);
        } finally {
          rmSync(out, { force: true });
        }
      };
    },
  };
}

export interface TensorstoreWriteOptions {
  /** The directory the writes go to, emptied before each run. */
  dir: string;
  /** The array's path under `dir`. */
  path: string;
  /** Its zarr.json, as zarrkit writes it for the same form: tensorstore creates the array with the same metadata. */
  metadata: unknown;
  /** Loads the values into the child once (untimed); shared by every write row. */
  load(): Promise<void>;
  /** Reads what a run wrote back with zarrkit and throws unless it equals the values. */
  readBack(): Promise<void>;
}

/** tensorstore writing the whole array into an emptied directory, as the zarrkit contender does: create, then write. */
export function tensorstoreWrite(child: TensorstoreChild, options: TensorstoreWriteOptions): Contender {
  const { dir, path, metadata, load, readBack } = options;
  return {
    name: TENSORSTORE,
    async prepare(checking) {
      await load();
      rmSync(dir, { recursive: true, force: true });
      return async () => {
        const ms = await child.timed({ op: "write", path: join(dir, path), metadata });
        if (checking) await readBack();
        return new SelfTimed(ms);
      };
    },
  };
}

/** Hands the values to the child, once: a file of them in `scratch`, loaded by the child, then removed. */
export function valuesLoader(
  child: TensorstoreChild,
  scratch: string,
  data: Uint16Array,
  shape: number[],
): () => Promise<void> {
  let loading: Promise<void> | undefined;
  return () => {
    loading ??= (async () => {
      mkdirSync(scratch, { recursive: true });
      const file = join(scratch, "tensorstore-values.u16");
      writeFileSync(file, new Uint8Array(data.buffer, data.byteOffset, data.byteLength));
      try {
        await child.request({ op: "load", file, shape });
      } finally {
        rmSync(file, { force: true });
      }
    })();
    return loading;
  };
}
