import type { FormName } from "./forms.js";
import type { RequestStats } from "./request-stats.js";

/** One contender's figures in one case. */
export interface Measured {
  name: string;
  medianMs: number;
  minMs: number;
  maxMs: number;
  runsMs: number[];
  /** Wall time the case spent on this contender: warm-ups, preparations and timed runs (what it costs the suite). */
  spentMs?: number;
  /** Requests and bytes of the last timed run. */
  stats?: RequestStats;
  /** Per timed run, for contenders that run in child processes: their CPU time and peak resident set. */
  processes?: ProcessFigures[];
  /** Per timed run, where measured: the share of its wall time the calling thread was busy (0..1). */
  busyShares?: number[];
  /** Per timed run, where measured: the share of its wall time the calling thread spent on a CPU (0..1). */
  cpuShares?: number[];
}

/** The child processes of one timed run, measured by themselves (see process-probe.ts). */
export interface ProcessFigures {
  /** CPU time of all of them together (every thread), ms. */
  cpuMs: number;
  /** The highest peak resident set among them, MiB. */
  peakRssMiB: number;
  /** Bytes the run left in the destination. */
  bytesWritten: number;
}

/**
 * The numbering: 1 whole read, 2 chunk by chunk, 3 random inner chunks, 4 z-plane, 6 writes, 7 floor (5 is
 * 1-4 over HTTP); 8 zstd decoders; "convert" conversion with the CLI; 9 in Chromium; 10 scaling with codec workers.
 */
export type CaseGroup = 1 | 2 | 3 | 4 | 6 | 7 | 8 | 9 | 10;

export interface CaseResult {
  /** Unique, e.g. "whole/sharded/http". */
  id: string;
  group: CaseGroup;
  title: string;
  source: "local" | "http";
  form?: FormName;
  /** The case is there only for the comparison with tensorstore (its cost is tensorstore's). */
  forTensorstore?: boolean;
  /** Load average (1 min) when the case started and ended: other work on this machine skews the times. */
  load: [number, number];
  contenders: Measured[];
  /** What the conversion case's figures are measured against. */
  conversion?: ConversionFacts;
  /** The browser case's setting. */
  browser?: BrowserFacts;
}

/** Where the browser case ran, as its page saw it. */
export interface BrowserFacts {
  chromium: string;
  /** The page was cross-origin isolated (COOP/COEP), so SharedArrayBuffer was available. */
  crossOriginIsolated: boolean;
  hardwareConcurrency: number;
  /** Latency the server added to each request, ms. */
  latencyMs: number;
  /**
   * zarrkit's codec workers in the page at the end, and the chunks they decoded over all runs (of the contender with
   * workers on).
   */
  codecWorkers: number;
  chunksOnWorkers: number;
  /** Why zarrkit's workers did not start, if they did not. */
  workerFailure?: string;
}

export interface ConversionFacts {
  /** Decoded bytes of the array converted. */
  arrayBytes: number;
  /** Decoded bytes of one destination shard. */
  shardBytes: number;
  /** Shards each process of a contender holds in flight (its --jobs; the floor: 1). */
  shardsInFlight: Record<string, number>;
  /**
   * Peak resident set of the CLI converting nothing (run again over its finished result): Node, modules, open arrays,
   * MiB.
   */
  idleRssMiB: number;
  /** CPU time of that run: start-up, planning, checking every shard present, ms. */
  idleCpuMs: number;
}

export interface MemoryResult {
  id: string;
  title: string;
  peer: string;
  /** Peak resident set of the child process during the read (during its whole life when `peakReset` is false), MiB. */
  peakRssMiB: number;
  peakReset: boolean;
  /** Resident set just before the read (modules loaded, array open), MiB. */
  baselineRssMiB: number;
  /** Bytes the read fetched from the store. */
  bytesFetched: number;
  /** Growth of ArrayBuffer memory during the read (no GC in between), bytes. */
  arrayBuffersGrowth: number;
  /** Bytes of the selection read. */
  selectionBytes: number;
}

export interface Environment {
  date: string;
  profile: string;
  cpu: string;
  cores: number;
  memoryGiB: number;
  node: string;
  os: string;
  /** How the Node processes allocate: with glibc's transparent huge pages or without (huge-pages.ts). */
  malloc?: string;
  versions: Record<string, string>;
  commit: string;
  /** tensorstore's version, or why it was skipped. */
  tensorstore?: string;
  /** Seconds the comparison with tensorstore added to the run (tensorstore/cost.ts). */
  tensorstoreSeconds?: number;
  /** Share of the machine's CPU used by other processes, sampled before and after the suite. */
  backgroundCpu: { before: number; after: number };
}

/** A target of issue 7, as measured in one run (`met` undefined: not measured). */
export interface Verdict {
  target: string;
  measured: string;
  met: boolean | undefined;
}

/** A step of the suite that threw (the others still ran). */
export interface Failure {
  step: string;
  error: string;
}

export interface SuiteResults {
  environment: Environment;
  targets: Verdict[];
  cases: CaseResult[];
  memory: MemoryResult[];
  failures: Failure[];
  /** Wall time of the whole suite, seconds. */
  elapsedSeconds: number;
}
