import { InvalidOptionError, showValue } from "@zarrkit/registry";
import { defaultPoolSize, useWorkerFactory, workersByDefault } from "#worker-platform";
import type { CodecWebWorker } from "./protocol.js";

/** Limits of codec work on workers, for one array or the whole process. */
export interface CodecWorkerOptions {
  /** Chunks smaller than this many bytes (decoded) are encoded and decoded on the calling thread. */
  threshold?: number;
  /** Workers the codec work may spread over (process default: available cores - 1, at least 1). */
  size?: number;
  /**
   * Send a chunk to a worker even when it is the only codec work in flight.
   * Default false in Node, where the calling thread is idle then and a round
   * trip costs more than it saves; browsers always send, keeping the page responsive.
   */
  offloadAlone?: boolean;
}

/** Process-wide settings: the limits, whether workers are on, and (browsers) how to start one. */
export interface CodecWorkerDefaults extends CodecWorkerOptions {
  /**
   * Codec work goes to workers unless an array says otherwise (default: on in Node given two cores, on in browsers with
   * Web Workers).
   */
  enabled?: boolean;
  /**
   * Browsers: start a codec worker, a module Web Worker whose entry imports the
   * codecs it should know, then `@zarrkit/core/worker`. The `zarrkit` package
   * sets one that knows every built-in codec. Written as
   * `() => new Worker(new URL("./my-worker.js", import.meta.url), { type: "module" })`
   * so bundlers emit the entry. Ignored in Node.
   */
  createWorker?: () => CodecWebWorker;
}

/** An array's setting: off, on with the process's limits, or on with its own. */
export type CodecWorkerSetting = boolean | CodecWorkerOptions;

export interface ResolvedWorkerSettings {
  enabled: boolean;
  threshold: number;
  size: number;
  offloadAlone: boolean;
}

/**
 * Measured with the bench suite: below about this size a chunk decodes
 * faster than a round trip to a worker costs (see the core README).
 */
const DEFAULT_THRESHOLD = 128 * 1024;

const defaults: ResolvedWorkerSettings = {
  enabled: workersByDefault,
  threshold: DEFAULT_THRESHOLD,
  size: defaultPoolSize(),
  offloadAlone: false,
};

/** `options` once each limit is checked (an InvalidOptionError naming `field` and the limit otherwise). */
export function checkWorkerOptions(options: CodecWorkerOptions, field: string): CodecWorkerOptions {
  const { threshold, size, offloadAlone } = options;
  if (offloadAlone !== undefined && typeof offloadAlone !== "boolean") {
    throw new InvalidOptionError(`${field}.offloadAlone must be a boolean, got ${showValue(offloadAlone)}`, {
      field: `${field}.offloadAlone`,
    });
  }
  if (threshold !== undefined && !(typeof threshold === "number" && threshold >= 0)) {
    throw new InvalidOptionError(`${field}.threshold must be a number of bytes >= 0, got ${showValue(threshold)}`, {
      field: `${field}.threshold`,
    });
  }
  if (size !== undefined && !(Number.isSafeInteger(size) && size >= 1)) {
    throw new InvalidOptionError(`${field}.size must be an integer >= 1, got ${showValue(size)}`, {
      field: `${field}.size`,
    });
  }
  return options;
}

/**
 * Process-wide defaults for codec workers. On by default in Node (given a
 * second core) and in browsers that have Web Workers; `{ enabled: false }`
 * turns them off. Arrays override them with `ArrayOptions.workers`.
 */
export function configureCodecWorkers(options: CodecWorkerDefaults): void {
  const { threshold, size, offloadAlone } = checkWorkerOptions(options, "configureCodecWorkers");
  if (options.createWorker !== undefined) {
    if (typeof options.createWorker !== "function") {
      throw new InvalidOptionError(
        `configureCodecWorkers.createWorker must be a function, got ${showValue(options.createWorker)}`,
        {
          field: "configureCodecWorkers.createWorker",
        },
      );
    }
    useWorkerFactory(options.createWorker);
  }
  if (options.enabled !== undefined) defaults.enabled = options.enabled;
  if (offloadAlone !== undefined) defaults.offloadAlone = offloadAlone;
  if (threshold !== undefined) defaults.threshold = threshold;
  if (size !== undefined) defaults.size = size;
}

/** The settings in force now for pipelines of an array with `setting` (undefined: the process's defaults). */
export function workerSettings(setting?: CodecWorkerSetting): ResolvedWorkerSettings {
  if (setting === undefined) return defaults;
  if (typeof setting === "boolean") return { ...defaults, enabled: setting };
  return {
    enabled: true,
    threshold: setting.threshold ?? defaults.threshold,
    size: setting.size ?? defaults.size,
    offloadAlone: setting.offloadAlone ?? defaults.offloadAlone,
  };
}
