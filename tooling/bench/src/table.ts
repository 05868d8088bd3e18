import type { BrowserFacts, CaseResult, ConversionFacts, Measured, MemoryResult, SuiteResults } from "./results.js";
import { maxPeakRssMiB, median, medianCpuMs } from "./contest.js";
import { zstdDecodeTable } from "./cases/zstd-decode.js";
import { verdictTable } from "./targets.js";

const ORDER = [
  "zarrkit",
  "zarrkit, workers off",
  "tensorstore",
  "zarrita",
  "zarrita+coalescing",
  "fetch only",
  "floor",
  "floor+fsync",
];
const MiB = 2 ** 20;

function mib(bytes: number): string {
  const value = bytes / MiB;
  return value < 10 ? value.toFixed(2) : value.toFixed(1);
}

function ms(value: number): string {
  return value < 10 ? value.toFixed(2) : value < 100 ? value.toFixed(1) : value.toFixed(0);
}

function ratio(a: Measured | undefined, b: Measured | undefined): string {
  return a && b ? `${(a.medianMs / b.medianMs).toFixed(2)}x` : "";
}

function row(cells: string[]): string {
  return `| ${cells.join(" | ")} |`;
}

/**
 * One markdown table: medians in ms, ratios of medians (above 1: zarrkit is faster), requests and MiB read per
 * contender.
 */
function caseTable(cases: CaseResult[]): string {
  const names = ORDER.filter((n) => cases.some((c) => c.contenders.some((m) => m.name === n)));
  const peers = names.filter((n) => n.startsWith("zarrita") || n === "tensorstore");
  const hasFloor = names.includes("floor") && names.includes("zarrkit");
  const counted = names.filter((n) => cases.some((c) => c.contenders.find((m) => m.name === n)?.stats));
  const busy = names.filter((n) => cases.some((c) => c.contenders.find((m) => m.name === n)?.busyShares));
  const header = [
    "case",
    ...names.map((n) => `${n} ms`),
    ...peers.map((n) => `${n} ÷ zarrkit`),
    ...(hasFloor ? ["zarrkit ÷ floor"] : []),
    ...busy.map((n) => `${n}: calling thread busy`),
    ...(counted.length ? [`requests (${counted.join(" / ")})`, `MiB read + written (${counted.join(" / ")})`] : []),
  ];
  const lines = [row(header), row(header.map(() => "---"))];
  for (const c of cases) {
    const get = (name: string) => c.contenders.find((m) => m.name === name);
    const zarrkit = get("zarrkit");
    const stats = counted.map((n) => get(n)?.stats);
    lines.push(
      row([
        c.title,
        ...names.map((n) => (get(n) ? ms(get(n)!.medianMs) : "")),
        ...peers.map((n) => ratio(get(n), zarrkit)),
        ...(hasFloor ? [ratio(zarrkit, get("floor"))] : []),
        ...busy.map((n) => busyCell(get(n))),
        ...(counted.length
          ? [
              stats.map((s) => (s ? String(s.requests + s.writes) : "-")).join(" / "),
              stats.map((s) => (s ? mib(s.bytes + s.bytesWritten) : "-")).join(" / "),
            ]
          : []),
      ]),
    );
  }
  return lines.join("\n");
}

/** Peaks against the bytes the read returns: the whole process's, and the read's own (over the baseline). */
function memoryTable(memory: MemoryResult[]): string {
  const header = [
    "read",
    "peer",
    "peak RSS MiB",
    "baseline MiB",
    "peak − baseline MiB",
    "peak ÷ result bytes",
    "(peak − baseline) ÷ result bytes",
    "fetched KiB",
    "ArrayBuffer growth KiB",
  ];
  const lines = [row(header), row(header.map(() => "---"))];
  for (const m of memory) {
    lines.push(
      row([
        m.title,
        m.peer,
        m.peakRssMiB.toFixed(0),
        m.baselineRssMiB.toFixed(0),
        (m.peakRssMiB - m.baselineRssMiB).toFixed(1),
        ((m.peakRssMiB * MiB) / m.selectionBytes).toFixed(2),
        (((m.peakRssMiB - m.baselineRssMiB) * MiB) / m.selectionBytes).toFixed(2),
        m.peer === "floor" ? "-" : (m.bytesFetched / 1024).toFixed(0),
        (m.arrayBuffersGrowth / 1024).toFixed(0),
      ]),
    );
  }
  return lines.join("\n");
}

/**
 * The conversion case: time and throughput (decoded bytes, MB = 10^6 B), CPU
 * time, peak RSS against the shards in flight (over the idle CLI's; the floor
 * is another program, without that footprint).
 */
function conversionTable(c: CaseResult, facts: ConversionFacts): string {
  const floor = c.contenders.find((m) => m.name === "floor");
  const header = [
    "contender",
    "median ms",
    "fastest ms",
    "MB/s (median)",
    "CPU s (all threads)",
    "MB/s per CPU-second",
    "CPU ÷ floor",
    "peak RSS MiB (per process)",
    "shards in flight per process",
    "(peak − idle CLI) ÷ (shard × in flight)",
    "MiB written",
  ];
  const lines = [row(header), row(header.map(() => "---"))];
  const mb = facts.arrayBytes / 1e6;
  for (const m of c.contenders) {
    const cpu = medianCpuMs(m);
    const floorCpu = floor && medianCpuMs(floor);
    const peak = maxPeakRssMiB(m);
    const inFlight = facts.shardsInFlight[m.name] ?? 1;
    const written = m.processes?.at(-1)?.bytesWritten;
    lines.push(
      row([
        m.name,
        ms(m.medianMs),
        ms(m.minMs),
        (mb / (m.medianMs / 1000)).toFixed(1),
        cpu === undefined ? "" : (cpu / 1000).toFixed(2),
        cpu === undefined ? "" : (mb / (cpu / 1000)).toFixed(1),
        cpu !== undefined && floorCpu ? `${(cpu / floorCpu).toFixed(2)}x` : "",
        peak === undefined ? "" : peak.toFixed(0),
        String(inFlight),
        peak === undefined || m.name === "floor"
          ? ""
          : (((peak - facts.idleRssMiB) * MiB) / (facts.shardBytes * inFlight)).toFixed(2),
        written === undefined ? "" : mib(written),
      ]),
    );
  }
  const notes =
    `Array ${mib(facts.arrayBytes)} MiB decoded, shards of ${mib(facts.shardBytes)} MiB decoded; the ` +
    `CLI converting nothing (run again over its result) peaks at ${facts.idleRssMiB.toFixed(0)} MiB ` +
    `in ${(facts.idleCpuMs / 1000).toFixed(2)} s of CPU.`;
  return `${lines.join("\n")}\n\n${notes}`;
}

function percent(share: number): string {
  return `${(share * 100).toFixed(1)}%`;
}

/** The calling thread's median busy share over a contender's timed runs, where measured. */
function busyCell(m: Measured | undefined): string {
  return m?.busyShares?.length ? percent(median(m.busyShares)) : "";
}

/** The calling thread's median CPU share over a contender's timed runs, where measured. */
function cpuCell(m: Measured | undefined): string {
  return m?.cpuShares?.length ? percent(median(m.cpuShares)) : "";
}

/**
 * Case 10: per read, each worker setting's time, speed-up over workers off, and the calling thread's busy share and
 * CPU share.
 */
function scalingTable(cases: CaseResult[]): string {
  const header = [
    "read",
    "codec workers",
    "median ms",
    "speed-up over workers off",
    "calling thread busy (median)",
    "calling thread on a CPU (median)",
  ];
  const lines = [row(header), row(header.map(() => "---"))];
  for (const c of cases) {
    const off = c.contenders.find((m) => m.name === "zarrkit, workers off");
    for (const m of c.contenders) {
      const cells = [c.title, m.name.replace(/^zarrkit, /, ""), ms(m.medianMs), ratio(off, m), busyCell(m), cpuCell(m)];
      lines.push(row(cells));
    }
  }
  return lines.join("\n");
}

function browserNote(facts: BrowserFacts): string {
  const workers = facts.workerFailure
    ? `zarrkit's codec workers did not start (${facts.workerFailure})`
    : `zarrkit: ${facts.codecWorkers} codec worker(s), ${facts.chunksOnWorkers} chunks decoded there over all runs`;
  return (
    `Chromium ${facts.chromium}, crossOriginIsolated ${facts.crossOriginIsolated}, ` +
    `navigator.hardwareConcurrency ${facts.hardwareConcurrency}, ${facts.latencyMs} ms added latency; ${workers}. ` +
    "Calling thread busy: the page's main thread's task time (Chromium's DevTools Performance metric TaskDuration, " +
    "which counts no worker) over the time of the read."
  );
}

const SECTIONS: { title: string; select: (c: CaseResult) => boolean; render?: (cases: CaseResult[]) => string }[] = [
  { title: "1. Whole array", select: (c) => c.group === 1 && c.source === "local" },
  { title: "2. Chunk by chunk", select: (c) => c.group === 2 && c.source === "local" },
  { title: "3. Random inner chunks", select: (c) => c.group === 3 && c.source === "local" },
  { title: "4. One z-plane", select: (c) => c.group === 4 && c.source === "local" },
  {
    title: "5. Over HTTP with latency added to every request (requests and bytes counted by the server)",
    select: (c) => c.source === "http" && c.group !== 9,
  },
  { title: "6. Writes", select: (c) => c.group === 6 },
  { title: "7. Floor", select: (c) => c.group === 7 },
  {
    title: "8. Conversion (zarrkit convert, the built CLI in child processes)",
    select: (c) => c.group === 8 && c.conversion !== undefined,
    render: (cases) => cases.map((c) => `${c.title}\n\n${conversionTable(c, c.conversion!)}`).join("\n\n"),
  },
  {
    title:
      "10. Scaling with codec workers: whole reads, the calling thread's busy share is its event loop's " +
      "utilisation during the read",
    select: (c) => c.group === 10,
    render: scalingTable,
  },
  {
    title:
      "9. In Chromium: whole array over local HTTP, zarrkit and zarrita.js in one page (requests and bytes counted " +
      "by the server)",
    select: (c) => c.group === 9,
    render: (cases) => cases.map((c) => `${caseTable([c])}\n\n${browserNote(c.browser!)}`).join("\n\n"),
  },
];

/** How tensorstore ran, under the tables it is in. */
function tensorstoreNote(results: SuiteResults): string {
  const { tensorstore, cores } = results.environment;
  if (tensorstore === undefined) return "";
  if (tensorstore.startsWith("skipped")) return `tensorstore ${tensorstore}.`;
  return (
    `tensorstore ${tensorstore}: a Python child process on the same files (\`file\` kvstore), timed in-process, ` +
    `with its default context: its thread pools use all ${cores} cores, no chunk cache; ` +
    "each run opens the array afresh (untimed)."
  );
}

/** The summary printed after a run and pasted into BENCHMARKS.md: the targets, then every case. */
export function summary(results: SuiteResults): string {
  const parts: string[] = [`### Targets of issues 7, 16 and 20\n\n${verdictTable(results.targets)}`];
  if (results.environment.malloc) parts.push(`Node processes allocate with ${results.environment.malloc}.`);
  const note = tensorstoreNote(results);
  for (const section of SECTIONS) {
    const cases = results.cases.filter(section.select);
    if (!cases.length) continue;
    const compared = cases.some((c) => c.contenders.some((m) => m.name === "tensorstore"));
    // Where tensorstore would have been compared (cases 1, 3, 6): why it was not.
    const skipped = results.environment.tensorstore?.startsWith("skipped") && /^[136]\./.test(section.title);
    const table = (section.render ?? caseTable)(cases);
    parts.push(`### ${section.title}\n\n${table}${compared || skipped ? `\n\n${note}` : ""}`);
  }
  const zstd = results.cases.filter((c) => c.group === 8);
  if (zstd.length) parts.push(`### 8. zstd decoders (ms per decode, best run)\n\n${zstdDecodeTable(zstd)}`);
  if (results.memory.length) parts.push(`### Peak RSS (one child process per read)\n\n${memoryTable(results.memory)}`);
  if (results.failures.length)
    parts.push(
      `### Failed steps\n\n${results.failures.map((f) => `- ${f.step}: ${f.error.split("\n")[0]}`).join("\n")}`,
    );
  return parts.join("\n\n");
}
