// Preloaded (node --import) into the processes the conversion case starts:
// at exit, writes the process's CPU time (all threads: the main one, codec
// workers) and its peak resident set to the file named by BENCH_PROBE_FILE.
// Nothing else changes in the process it measures.
import { writeFileSync } from "node:fs";
import { peakRss } from "./peak-rss.js";

/** What the probe writes. */
export interface ProbeReport {
  /** User + system CPU time of the whole process, milliseconds. */
  cpuMs: number;
  /** Peak resident set of the whole process (start-up included), bytes. */
  peakRss: number;
}

const file = process.env.BENCH_PROBE_FILE;
if (file) {
  process.on("exit", () => {
    const { user, system } = process.cpuUsage();
    const report: ProbeReport = { cpuMs: (user + system) / 1000, peakRss: peakRss() };
    writeFileSync(file, JSON.stringify(report));
  });
}
