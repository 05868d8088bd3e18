import { readFileSync, writeFileSync } from "node:fs";

function status(field: "VmHWM" | "VmRSS"): number | undefined {
  try {
    const match = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync("/proc/self/status", "utf8"));
    return match ? Number(match[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Start measuring the peak resident set from now. On Linux, writing 5 to
 * clear_refs resets the high-water mark (VmHWM), so start-up's own peak
 * (module loading, wasm compilation) does not hide the read's. Elsewhere the
 * peak stays the process's: false.
 */
export function resetPeakRss(): boolean {
  try {
    writeFileSync("/proc/self/clear_refs", "5");
    return true;
  } catch {
    return false;
  }
}

/** Peak resident set since the last reset (or since start), bytes. */
export function peakRss(): number {
  return status("VmHWM") ?? process.resourceUsage().maxRSS * 1024;
}

/** Resident set now, bytes. */
export function currentRss(): number {
  return status("VmRSS") ?? process.memoryUsage().rss;
}
