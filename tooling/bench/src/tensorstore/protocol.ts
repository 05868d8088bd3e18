// The line protocol with the tensorstore child (child.py): one JSON request per
// line on its stdin, one JSON reply per line on its stdout, matched by `id`.
import type { Box } from "../peers.js";

export type TensorstoreRequest =
  | { op: "version" }
  /** Open the array at `path` (a directory) for the reads that follow; untimed. */
  | { op: "open"; path: string }
  /**
   * Read the whole opened array (`boxes` null) or each box in turn, timed in the child; with `out`,
   * also write each result there as it comes (C order, little-endian uint16): the checking run, whose time is
   * discarded.
   */
  | { op: "read"; boxes: Box[] | null; out: string | null }
  /** Load the values the writes write from a file of little-endian uint16 of `shape`; untimed. */
  | { op: "load"; file: string; shape: number[] }
  /** Create the array at `path` with `metadata` (a zarr.json document), write the loaded values; timed in the child. */
  | { op: "write"; path: string; metadata: unknown };

/** A reply: `ms` for timed work, `version` for "version", `error` when the request failed (the child stays up). */
export interface TensorstoreReply {
  id: number;
  ms?: number;
  version?: string;
  error?: string;
}
