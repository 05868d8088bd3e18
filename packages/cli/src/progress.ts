import { UsageError } from "./errors.js";

/** How a long-running command shows its progress (`--progress`). */
export type ProgressMode = "auto" | "bar" | "plain" | "json" | "none";

export const PROGRESS_MODES: readonly ProgressMode[] = ["auto", "bar", "plain", "json", "none"];

/** Parse a `--progress` value (default "auto"); anything else is a UsageError naming the flag. */
export function progressMode(value: string | undefined, command: string): ProgressMode {
  if (value === undefined) return "auto";
  if (!(PROGRESS_MODES as readonly string[]).includes(value)) {
    throw new UsageError(
      `--progress must be one of ${PROGRESS_MODES.join(", ")}, got ${JSON.stringify(value)}`,
      command,
    );
  }
  return value as ProgressMode;
}

/** Extra counters a command reports with done/total (e.g. convert's bytesRead, bytesWritten). */
export type ProgressCounters = Record<string, number>;

/** What one unit of work was (e.g. convert's `{key: "c/0/1", shard: "written"}`): a record of its own in json mode. */
export type ProgressRecord = Record<string, string>;

export interface ProgressOptions {
  mode: ProgressMode;
  /** Units of work in all (shards, chunks). */
  total: number;
  /** What a unit is called in the bar and plain lines ("shards"). */
  unit?: string;
  /** Where progress goes (default process.stderr). */
  stream?: { write(text: string): unknown; isTTY?: boolean };
  /** Milliseconds between plain lines (default 5000, or ZARRKIT_PROGRESS_INTERVAL_MS). */
  intervalMs?: number;
  /** The clock (tests). */
  now?: () => number;
}

export interface Progress {
  /**
   * Add `n` done units (and counter increments). With a `record`, json mode
   * prints this unit's line at once (never throttled), the record's fields
   * after done/total and before the counters, so a log names every unit.
   */
  advance(n?: number, counters?: ProgressCounters, record?: ProgressRecord): void;
  /** Print the final state (bar: ends its line) and stop the timer. */
  finish(): void;
}

/** Seconds as "1h02m", "3m05s" or "12s". */
function duration(seconds: number): string {
  if (!Number.isFinite(seconds)) return "?";
  const s = Math.round(seconds);
  if (s >= 3600) return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, "0")}m`;
  if (s >= 60) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, "0")}s`;
  return `${s}s`;
}

/** Counters ending in "bytes"/"Bytes" as MB and MB/s. */
function countersText(counters: ProgressCounters, elapsed: number): string {
  return Object.entries(counters)
    .map(([name, value]) => {
      if (!/bytes/i.test(name)) return `${name} ${value}`;
      const mb = value / 1e6;
      return `${name} ${mb.toFixed(1)} MB (${elapsed > 0 ? (mb / elapsed).toFixed(1) : "0.0"} MB/s)`;
    })
    .join(", ");
}

/**
 * A progress reporter: `auto` is a bar on a TTY and plain lines otherwise;
 * `bar` redraws one line (done/total, percent, rate, ETA); `plain` prints a
 * line every few seconds, and a last one at the end when it printed any;
 * `json` prints `{"done":..,"total":..,...counters}` per line (at most every
 * 100 ms, and always the last; every unit advanced with a record); `none`
 * prints nothing.
 */
export function createProgress(options: ProgressOptions): Progress {
  const stream = options.stream ?? process.stderr;
  const now = options.now ?? Date.now;
  const mode = options.mode === "auto" ? (stream.isTTY ? "bar" : "plain") : options.mode;
  const total = options.total;
  const unit = options.unit ?? "items";
  const envInterval = Number(process.env.ZARRKIT_PROGRESS_INTERVAL_MS);
  const interval = options.intervalMs ?? (Number.isFinite(envInterval) && envInterval > 0 ? envInterval : 5000);
  const start = now();
  let done = 0;
  const counters: ProgressCounters = {};
  let lastPrint = Number.NEGATIVE_INFINITY;
  let printed = false;
  let finished = false;

  const elapsed = () => (now() - start) / 1000;
  const summary = () => {
    const t = elapsed();
    const rate = t > 0 ? done / t : 0;
    const eta = rate > 0 ? (total - done) / rate : Number.POSITIVE_INFINITY;
    const pct = total > 0 ? Math.floor((100 * done) / total) : 100;
    const extra = countersText(counters, t);
    const timing = done >= total ? `took ${duration(t)}` : `ETA ${duration(eta)}`;
    return `${done}/${total} ${unit} (${pct}%), ${rate.toFixed(1)} ${unit}/s, ${timing}${extra ? `, ${extra}` : ""}`;
  };
  const print = (final: boolean, record?: ProgressRecord) => {
    lastPrint = now();
    printed = true;
    if (mode === "json") stream.write(`${JSON.stringify({ done, total, ...record, ...counters })}\n`);
    else if (mode === "plain") stream.write(`${summary()}\n`);
    else if (mode === "bar") {
      const width = 24;
      const filled = total > 0 ? Math.round((width * done) / total) : width;
      stream.write(`\r[${"#".repeat(filled)}${"-".repeat(width - filled)}] ${summary()}\x1b[K${final ? "\n" : ""}`);
    }
  };
  const timer = mode === "plain" ? setInterval(() => print(false), interval) : undefined;
  timer?.unref();
  if (mode === "bar" || mode === "json") print(false);

  return {
    advance(n = 1, more = {}, record) {
      done += n;
      for (const [name, value] of Object.entries(more)) counters[name] = (counters[name] ?? 0) + value;
      if (mode === "json" && record) print(false, record);
      else if ((mode === "bar" || mode === "json") && now() - lastPrint >= 100) print(false);
    },
    finish() {
      if (finished) return;
      finished = true;
      if (timer) clearInterval(timer);
      if (mode === "bar" || mode === "json" || (mode === "plain" && printed)) print(true);
    },
  };
}
