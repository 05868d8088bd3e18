import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { createArray, openArray } from "@zarrkit/core";
import "@zarrkit/sharding";
import { describe, expect, it } from "vitest";
import type { ChildReport, CounterState } from "./fixtures/increment-child.js";
import { rgw, rgwStore } from "./rgw.js";

const incrementChild = fileURLToPath(new URL("./fixtures/increment-child.ts", import.meta.url));
const shardChild = fileURLToPath(new URL("./fixtures/shard-child.ts", import.meta.url));

interface Writer<R> {
  ready: Promise<void>;
  go(): void;
  report: Promise<R>;
}

/** A writer process (plain Node with the workspace's TypeScript loader, as vitest passes it in execArgv). */
function startWriter<R = ChildReport>(child: string, args: string[]): Writer<R> {
  const proc = spawn(process.execPath, [...process.execArgv, child, ...args], {
    env: {
      ...process.env,
      AWS_ACCESS_KEY_ID: rgw!.accessKey,
      AWS_SECRET_ACCESS_KEY: rgw!.secretKey,
      AWS_REGION: "us-east-1",
    },
    stdio: ["pipe", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  let markReady!: () => void;
  const ready = new Promise<void>((resolve) => (markReady = resolve));
  proc.stdout.on("data", (chunk: Buffer) => {
    stdout += chunk;
    if (stdout.includes("ready\n")) markReady();
  });
  proc.stderr.on("data", (chunk: Buffer) => (stderr += chunk));
  const report = new Promise<R>((resolve, reject) => {
    proc.on("error", reject);
    proc.on("close", (code) => {
      const last = stdout.trim().split("\n").pop() ?? "";
      if (code === 0 && last.startsWith("{")) resolve(JSON.parse(last) as R);
      else reject(new Error(`writer exited with ${code}: ${stderr || stdout}`));
    });
  });
  // A writer that dies before "ready" must not leave the test waiting for it.
  report.catch(() => markReady());
  return { ready, go: () => proc.stdin.end("go\n"), report };
}

describe.skipIf(!rgw)("writers in several processes on radosgw", () => {
  it("lose no acknowledged increment of one object (getVersioned + set with ifMatch, retried on conflict)", {
    timeout: 60_000,
  }, async () => {
    const processes = 4;
    const increments = 16;
    const store = rgwStore();
    const initial: CounterState = { count: 0, writes: [] };
    await store.set("counter", new TextEncoder().encode(JSON.stringify(initial)), { ifNoneMatch: "*" });

    const writers = Array.from({ length: processes }, (_, id) =>
      startWriter(incrementChild, [rgw!.endpoint, rgw!.bucket, store.prefix, String(id), String(increments)]),
    );
    await Promise.all(writers.map((w) => w.ready));
    const started = performance.now();
    for (const writer of writers) writer.go();
    const reports = await Promise.all(writers.map((w) => w.report));
    const wallMs = Math.round(performance.now() - started);

    const final = JSON.parse(new TextDecoder().decode(await store.get("counter"))) as CounterState;
    const acknowledged = reports.flatMap((r) => r.acknowledged);
    const total = processes * increments;
    const conflicts = reports.reduce((n, r) => n + r.conflicts, 0);
    const failures = reports.reduce((n, r) => n + r.failures, 0);
    const lost = acknowledged.filter((a) => !final.writes.includes(a.entry));
    const unacknowledged = final.writes.filter((entry) => !acknowledged.some((a) => a.entry === entry));
    console.log(
      `[store-s3] ${processes} processes x ${increments} increments on radosgw: ${acknowledged.length} ` +
        `acknowledged, final count ${final.count}, ` +
        `${lost.length} lost, ${unacknowledged.length} landed unacknowledged, ${conflicts} conflicts ` +
        `(PreconditionFailedError), ${failures} other failed attempts, ` +
        `${wallMs} ms (${((acknowledged.length / wallMs) * 1000).toFixed(1)} increments/s); per process ` +
        `ms: ${reports.map((r) => r.ms).join(", ")}`,
    );

    expect(acknowledged).toHaveLength(total);
    expect(lost).toEqual([]);
    expect(final.count).toBe(final.writes.length);
    expect(final.writes).toHaveLength(total + unacknowledged.length);
    // Every acknowledged write moved the counter to a count no other acknowledged write set: none overwrote another.
    expect(new Set(acknowledged.map((a) => a.count)).size).toBe(total);
    // The writers did race: with no conflict at all, the test would prove nothing about conditional writes.
    expect(conflicts).toBeGreaterThan(0);
  });

  it("lose no acknowledged write of disjoint inner chunks of one shard (sharding's rewrite strategy)", {
    timeout: 90_000,
  }, async () => {
    const processes = 4;
    const perProcess = 8;
    const chunks = processes * perProcess;
    const width = 4;
    const store = rgwStore();
    const array = await createArray(store, "a", {
      shape: [width * chunks],
      dataType: "int32",
      chunkShape: [width],
      shardShape: [width * chunks],
    });
    await array.set(null, -1);

    const writers = Array.from({ length: processes }, (_, p) =>
      startWriter<{ acknowledged: number[] }>(shardChild, [
        rgw!.endpoint,
        rgw!.bucket,
        store.prefix,
        String(p * perProcess),
        String(perProcess),
      ]),
    );
    await Promise.all(writers.map((w) => w.ready));
    for (const writer of writers) writer.go();
    const acknowledged = (await Promise.all(writers.map((w) => w.report))).flatMap((r) => r.acknowledged);

    const data = (await (await openArray(store, "a")).get()).data as Int32Array;
    const lost = acknowledged.filter(
      (chunk) => !data.subarray(width * chunk, width * (chunk + 1)).every((v) => v === 1000 + chunk),
    );
    console.log(
      `[store-s3] ${processes} processes x ${perProcess} inner chunks of one shard on ` +
        `radosgw: ${acknowledged.length} acknowledged, ${lost.length} lost`,
    );
    expect(acknowledged).toHaveLength(chunks);
    expect(lost).toEqual([]);
  });
});
