import type { FormName } from "./forms.js";
import type { PeerName } from "./peers.js";
import type { Profile } from "./profile.js";

/** One read measured for memory in its own child process. */
export interface MemorySpec {
  peer: PeerName | "floor";
  form: FormName;
  /** The whole array, one inner chunk of a shard (sharded only), or the z-plane (sharded only). */
  read: "whole" | "inner" | "plane";
  dataRoot: string;
  profile: Profile;
}

/** What the child prints (one JSON line). */
export interface MemoryReport {
  peakRss: number;
  /** Whether the peak is the read's alone (Linux), not the whole process's. */
  peakReset: boolean;
  baselineRss: number;
  arrayBuffersGrowth: number;
  bytesFetched: number;
  selectionBytes: number;
}
