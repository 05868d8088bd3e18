import type { CaseResult, MemoryResult, SuiteResults, Verdict } from "./results.js";
import { maxPeakRssMiB, medianCpuMs } from "./contest.js";
import { issue20Verdicts } from "./issue20-targets.js";

function median(results: Omit<SuiteResults, "targets">, id: string, name: string): number | undefined {
  return find(results.cases, id)?.contenders.find((c) => c.name === name)?.medianMs;
}

function find(cases: CaseResult[], id: string): CaseResult | undefined {
  return cases.find((c) => c.id === id);
}

function requests(results: Omit<SuiteResults, "targets">, id: string, name = "zarrkit"): number | undefined {
  return find(results.cases, id)?.contenders.find((c) => c.name === name)?.stats?.requests;
}

/** a ÷ b of two medians, with the check `ok`; unmeasured when either is missing. */
function speedup(
  target: string,
  a: number | undefined,
  b: number | undefined,
  ok: (ratio: number) => boolean,
): Verdict {
  if (a === undefined || b === undefined) return { target, measured: "not measured", met: undefined };
  const ratio = a / b;
  return { target, measured: `${ratio.toFixed(2)}x (${a.toFixed(0)} ms vs ${b.toFixed(0)} ms)`, met: ok(ratio) };
}

function memory(results: Omit<SuiteResults, "targets">, id: string): MemoryResult | undefined {
  return results.memory.find((m) => m.id === id);
}

/** The targets of issues 7, 16 and 20 checked against one run's figures. */
export function verdicts(
  results: Omit<SuiteResults, "targets">,
  arrayBytes: number,
  randomChunks: number,
  shardsInPlane: number,
): Verdict[] {
  const out: Verdict[] = [];
  const zk = (id: string) => median(results, id, "zarrkit");
  out.push(
    speedup(
      "whole sharded read: >= 2x faster than zarrita.js default",
      median(results, "whole/sharded/local", "zarrita"),
      zk("whole/sharded/local"),
      (r) => r >= 2,
    ),
  );
  out.push(
    speedup(
      "whole sharded read: >= 1.3x faster than zarrita.js with coalescing",
      median(results, "whole/sharded/local", "zarrita+coalescing"),
      zk("whole/sharded/local"),
      (r) => r >= 1.3,
    ),
  );
  out.push(
    speedup(
      "whole sharded read: within 1.2x of the one-thread floor",
      zk("whole/sharded/local"),
      median(results, "whole/sharded/local", "floor"),
      (r) => r <= 1.2,
    ),
  );
  out.push(
    speedup(
      "whole sharded read: faster than the floor (with workers)",
      median(results, "whole/sharded/local", "floor"),
      zk("whole/sharded/local"),
      (r) => r > 1,
    ),
  );
  // Issue 16: both inner chunk edges, with and without compression.
  for (const form of ["sharded", "sharded-other", "sharded-raw", "sharded-other-raw"]) {
    const id = `whole/${form}/local`;
    const title = find(results.cases, id)?.title.replace(/^whole array, /, "") ?? form;
    out.push(
      speedup(
        `whole read (${title}): >= 2.5x faster than zarrita.js default`,
        median(results, id, "zarrita"),
        zk(id),
        (r) => r >= 2.5,
      ),
    );
  }
  const warm = requests(results, "random-warm/local");
  out.push({
    target: "warm random inner chunk: exactly 1 request each",
    measured: warm === undefined ? "not measured" : `${warm} requests for ${randomChunks} chunks`,
    met: warm === undefined ? undefined : warm === randomChunks,
  });
  out.push(
    speedup(
      "warm random inner chunk: >= 2x faster than zarrita.js",
      median(results, "random-warm/local", "zarrita"),
      zk("random-warm/local"),
      (r) => r >= 2,
    ),
  );
  // The issue names no figure for the browser: the bar is the one of the same read in Node against zarrita.js default
  // (BENCHMARKS.md).
  out.push(
    speedup(
      "browser whole sharded read (Chromium, local HTTP): zarrkit >= 2x faster than zarrita.js",
      median(results, "browser/sharded/http", "zarrita"),
      zk("browser/sharded/http"),
      (r) => r >= 2,
    ),
  );
  out.push(
    speedup(
      "over 20 ms latency: whole sharded read >= 3x faster than zarrita.js default",
      median(results, "whole/sharded/http", "zarrita"),
      zk("whole/sharded/http"),
      (r) => r >= 3,
    ),
  );
  const plane = requests(results, "plane/http") ?? requests(results, "plane/local");
  out.push({
    target: `z-plane: at most (shards touched) x 2 = ${shardsInPlane * 2} requests`,
    measured: plane === undefined ? "not measured" : `${plane} requests`,
    met: plane === undefined ? undefined : plane <= shardsInPlane * 2,
  });
  for (const form of ["raw", "zstd", "sharded"]) {
    const whole = memory(results, `memory/whole/${form}/zarrkit`);
    out.push({
      target: `peak RSS of a whole read (${form}) at most 1.5x the array's bytes`,
      measured: whole
        ? `${((whole.peakRssMiB * 2 ** 20) / arrayBytes).toFixed(2)}x (${whole.peakRssMiB.toFixed(0)} MiB, of ` +
          `which ${whole.baselineRssMiB.toFixed(0)} MiB before the read)`
        : "not measured",
      met: whole ? whole.peakRssMiB * 2 ** 20 <= 1.5 * arrayBytes : undefined,
    });
  }
  const inner = memory(results, "memory/inner/sharded/zarrkit");
  out.push({
    target: "one inner chunk of a shard allocates no more than the inner chunk plus its index",
    measured: inner
      ? `fetched ${inner.bytesFetched} B (index + stored chunk); ArrayBuffers grew ${inner.arrayBuffersGrowth} B ` +
        `for a ${inner.selectionBytes} B result`
      : "not measured",
    met: inner ? inner.arrayBuffersGrowth <= inner.selectionBytes + inner.bytesFetched : undefined,
  });
  out.push(
    speedup(
      "sharded write within 1.5x of the floor's encode-and-write time",
      zk("write/sharded"),
      median(results, "write/sharded", "floor"),
      (r) => r <= 1.5,
    ),
  );
  out.push(...conversionVerdicts(find(results.cases, CONVERSION)));
  out.push(...issue20Verdicts(results));
  return out;
}

const CONVERSION = "convert/zstd-to-sharded";

/** The CLI issue's targets for `zarrkit convert`. */
function conversionVerdicts(c: CaseResult | undefined): Verdict[] {
  const get = (name: string) => c?.contenders.find((m) => m.name === name);
  const cpu = (name: string) => {
    const m = get(name);
    return m && medianCpuMs(m);
  };
  const peak = (name: string) => {
    const m = get(name);
    return m && maxPeakRssMiB(m);
  };
  const out: Verdict[] = [];
  const perCore = speedup(
    "convert --jobs 1 within 1.3x of the one-thread floor per core (CPU time, all threads)",
    cpu("zarrkit --jobs 1"),
    cpu("floor"),
    (r) => r <= 1.3,
  );
  out.push({
    ...perCore,
    measured: perCore.met === undefined ? perCore.measured : perCore.measured.replace(")", " of CPU)"),
  });
  out.push(
    speedup(
      "convert: near-linear speed-up with parts: 2 parts at once (--jobs 1 each) >= 1.8x faster than one process " +
        "(--jobs 1)",
      get("zarrkit --jobs 1")?.medianMs,
      get("zarrkit 2 parts")?.medianMs,
      (r) => r >= 1.8,
    ),
  );
  // Each part converts half the array with the same shard in flight: memory that grew with the array would peak lower
  // there.
  const whole = peak("zarrkit --jobs 1");
  const half = peak("zarrkit 2 parts");
  const idle = c?.conversion?.idleRssMiB;
  const target =
    "convert: peak RSS bounded by the shards in flight, not the array: a part converting half the array peaks at >= " +
    "0.8x of one converting all of it (over the idle CLI)";
  if (whole === undefined || half === undefined || idle === undefined)
    out.push({ target, measured: "not measured", met: undefined });
  else {
    const ratio = (half - idle) / (whole - idle);
    out.push({
      target,
      measured: `${ratio.toFixed(2)}x (${half.toFixed(0)} MiB vs ${whole.toFixed(0)} MiB; idle ${idle.toFixed(0)} MiB)`,
      met: ratio >= 0.8,
    });
  }
  return out;
}

export function verdictTable(verdicts: Verdict[]): string {
  const lines = ["| target | measured | met |", "| --- | --- | --- |"];
  for (const v of verdicts)
    lines.push(`| ${v.target} | ${v.measured} | ${v.met === undefined ? "-" : v.met ? "yes" : "**no**"} |`);
  return lines.join("\n");
}
