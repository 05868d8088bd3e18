import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Contender, contest } from "../contest.js";
import type { Content } from "../content.js";
import { zarrkitZstd } from "../direct-codecs.js";
import type { CaseResult, Measured } from "../results.js";
import type { SuiteContext } from "../suite-context.js";

/**
 * At least this many timed runs: each lasts tens of milliseconds, and one decode is short enough for noise to matter.
 */
const MIN_RUNS = 9;
/** Decodes per timed run, so that one run lasts milliseconds, not microseconds; the figures are per decode. */
const DECODES_PER_RUN: Record<number, number> = { 64: 20, 32: 160 };
const CASES = [
  { edge: 64, level: 3 },
  { edge: 64, level: 1 },
  { edge: 64, level: 19 },
  { edge: 32, level: 3 },
];
const ZSTD_CLI = "/usr/bin/zstd";

/** One edge^3 uint16 chunk of the suite's content (the first inner chunk), as bytes. */
function chunk(content: Content, edge: number): Uint8Array {
  const out = new Uint16Array(edge ** 3);
  let i = 0;
  for (let z = 0; z < edge; z++)
    for (let y = 0; y < edge; y++) for (let x = 0; x < edge; x++) out[i++] = content.at(z, y, x);
  return new Uint8Array(out.buffer);
}

function same(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && Buffer.compare(a, b) === 0;
}

/** A contender decoding `frame` `times` times per run; the warm-up checks the result. */
function decoder(
  name: string,
  decode: (frame: Uint8Array) => Uint8Array | Promise<Uint8Array>,
  frame: Uint8Array,
  expected: Uint8Array,
  times: number,
): Contender {
  return {
    name,
    async prepare(checking) {
      if (checking && !same(await decode(frame), expected)) throw new Error(`${name} decoded something else`);
      return async () => {
        for (let i = 0; i < times; i++) await decode(frame);
      };
    },
  };
}

/**
 * The native speed on the same frame: libzstd 1.5.4 behind the zstd CLI,
 * whose benchmark mode (`-b`) encodes the file at the level (the same frame
 * zarrkit's encoder writes: same library, same parameters, no checksum) and
 * decodes it for a second, printing MB/s; undefined without the CLI.
 */
function nativeMs(data: Uint8Array, level: number): number | undefined {
  if (!existsSync(ZSTD_CLI)) return undefined;
  const dir = mkdtempSync(join(tmpdir(), "zarrkit-bench-zstd-"));
  try {
    writeFileSync(join(dir, "chunk"), data);
    const out = execFileSync(ZSTD_CLI, [`-b${level}`, "-i1", join(dir, "chunk")], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
    });
    // Progress lines show the encoding speed alone; the final one adds the decoding speed after it.
    const both = /[\d.]+ MB\/s, *([\d.]+) MB\/s/;
    const last =
      out
        .split(/[\r\n]/)
        .filter((line) => both.test(line))
        .pop() ?? "";
    const speed = Number(both.exec(last)?.[1]);
    return Number.isFinite(speed) && speed > 0 ? (data.length / (speed * 1e6)) * 1000 : undefined;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Scales a contender's figures from per run to per decode. */
function perDecode(m: Measured, times: number): Measured {
  return {
    ...m,
    medianMs: m.medianMs / times,
    minMs: m.minMs / times,
    maxMs: m.maxMs / times,
    runsMs: m.runsMs.map((t) => t / times),
  };
}

/**
 * Case 8: decoding one zstd frame of a uint16 inner chunk (the suite's
 * content) with zarrkit's codec (its own libzstd wasm), zstddec and
 * numcodecs (zarrita's), and natively (the zstd CLI), per decode.
 */
export async function zstdDecodes(ctx: SuiteContext): Promise<CaseResult[]> {
  // Loaded here, not at the suite's start: the other cases run in a process without these peers' wasm.
  const [{ default: zstdCodec }, { ZSTDDecoder }] = await Promise.all([import("numcodecs/zstd"), import("zstddec")]);
  const encoder = await zarrkitZstd(3);
  const zstddec = new ZSTDDecoder();
  await zstddec.init();
  const numcodecs = zstdCodec.fromConfig({ id: "zstd", level: 3 });
  const rounds = { runs: Math.max(MIN_RUNS, ctx.profile.runs), warmups: ctx.profile.warmups };
  const results: CaseResult[] = [];
  for (const { edge, level } of CASES) {
    const data = chunk(ctx.content, edge);
    const frame = await (await zarrkitZstd(level)).encode(data);
    const times = DECODES_PER_RUN[edge]!;
    const contenders = [
      decoder("zarrkit", (f) => encoder.decode(f), frame, data, times),
      decoder("zstddec", (f) => zstddec.decode(f, data.length), frame, data, times),
      decoder("numcodecs", (f) => numcodecs.decode(f), frame, data, times),
    ];
    const title =
      `zstd decode of one ${edge}^3 uint16 chunk, level ${level} (${(frame.length / 1024).toFixed(0)} ` +
      `KiB -> ${data.length / 1024} KiB)`;
    const result = await contest(
      { id: `zstd/decode/${edge}/${level}`, group: 8, title, source: "local" },
      contenders,
      rounds,
      ctx.log,
    );
    result.contenders = result.contenders.map((m) => perDecode(m, times));
    const native = nativeMs(data, level);
    if (native !== undefined)
      result.contenders.push({ name: "native", medianMs: native, minMs: native, maxMs: native, runsMs: [native] });
    results.push(result);
  }
  return results;
}

/**
 * The table of case 8: ms per decode in the best run of each decoder (one
 * decode is short enough for other work on the machine to swamp a median),
 * and how many times faster zarrkit is than each other decoder.
 */
export function zstdDecodeTable(cases: readonly CaseResult[]): string {
  const names = ["zarrkit", "zstddec", "numcodecs", "native"];
  const header = [
    "case",
    ...names.map((n) => `${n} ms`),
    "zstddec ÷ zarrkit",
    "numcodecs ÷ zarrkit",
    "zarrkit ÷ native",
  ];
  const lines = [`| ${header.join(" | ")} |`, `| ${header.map(() => "---").join(" | ")} |`];
  for (const c of cases) {
    const get = (name: string) => c.contenders.find((m) => m.name === name)?.minMs;
    const ratio = (a: number | undefined, b: number | undefined) => (a && b ? `${(a / b).toFixed(2)}x` : "");
    const cells = names.map((n) => get(n)?.toFixed(3) ?? "");
    lines.push(
      `| ${[
        c.title,
        ...cells,
        ratio(get("zstddec"), get("zarrkit")),
        ratio(get("numcodecs"), get("zarrkit")),
        ratio(get("zarrkit"), get("native")),
      ].join(" | ")} |`,
    );
  }
  return lines.join("\n");
}
