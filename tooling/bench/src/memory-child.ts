// Child process: one read, measured for memory: the peak resident set during
// the read, over a baseline of the modules, the open array and one small
// warm-up read (codecs loaded).
import { setTimeout as sleep } from "node:timers/promises";
import { planeZ } from "./cases/plane-reads.js";
import { zarrkitZstd } from "./direct-codecs.js";
import { floorRead } from "./floor.js";
import { form } from "./forms.js";
import type { MemoryReport, MemorySpec } from "./memory-spec.js";
import { type Box, MEMORY_PEERS, type Reader } from "./peers.js";
import { currentRss, peakRss, resetPeakRss } from "./peak-rss.js";
import { LocalSource } from "./sources.js";

const spec = JSON.parse(process.argv[2]!) as MemorySpec;
const { profile } = spec;
const { size, inner } = profile;
const source = new LocalSource(spec.dataRoot);
const target = form(spec.form);

function boxOf(read: MemorySpec["read"]): Box {
  if (read === "whole") return { start: [0, 0, 0], stop: [size, size, size] };
  if (read === "inner") return { start: [0, 0, 0], stop: [inner, inner, inner] };
  const z = planeZ(size);
  return { start: [z, 0, 0], stop: [z + 1, size, size] };
}

async function measuredRead(): Promise<() => Promise<unknown>> {
  const zstd = await zarrkitZstd(3);
  if (spec.peer === "floor") {
    await zstd.decode(await zstd.encode(new Uint8Array(64)));
    return () => floorRead(spec.dataRoot, target, profile, zstd);
  }
  const peer = MEMORY_PEERS.find((p) => p.name === spec.peer)!;
  const fresh = await peer.prepare(source, target.path);
  // Warm-up in the far corner: another shard than the measured inner chunk's.
  const corner = size - inner;
  await (await fresh()).read({ start: [corner, corner, corner], stop: [size, size, size] });
  const reader: Reader = await fresh();
  const box = boxOf(spec.read);
  return () => reader.read(box);
}

const read = await measuredRead();
// Collect, then give V8's concurrent ArrayBuffer sweeper time to free what it found, so it does not free it during the
// read.
for (let i = 0; i < 2; i++) {
  (globalThis as { gc?: () => void }).gc?.();
  await sleep(100);
}
await source.resetStats();
const baselineRss = currentRss();
const before = process.memoryUsage();
const peakReset = resetPeakRss();
const result = await read();
const after = process.memoryUsage();
const box = boxOf(spec.read);
const report: MemoryReport = {
  peakRss: peakRss(),
  peakReset,
  baselineRss,
  arrayBuffersGrowth: after.arrayBuffers - before.arrayBuffers,
  bytesFetched: (await source.stats()).bytes,
  selectionBytes: box.stop.reduce((n, s, d) => n * (s - box.start[d]!), 2),
};
// Keep the result alive until measured.
if (!result) throw new Error("nothing read");
process.stdout.write(`${JSON.stringify(report)}\n`);
