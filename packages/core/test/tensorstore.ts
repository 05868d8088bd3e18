/**
 * tensorstore 0.1.85 as a peer writer and reader (tensorstore_peer.py), from a virtual environment under the OS
 * temp dir that the first run makes with `pip install tensorstore==0.1.85` (the machine's configured index; about a
 * minute). Where that cannot be done, `tensorstoreSkipReason` says why and the tests that need it skip.
 */
import { spawnSync } from "node:child_process";
import { existsSync, renameSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const VERSION = "0.1.85";
const SYSTEM_PYTHON = "/usr/bin/python3";
const VENV = join(tmpdir(), `zarrkit-tensorstore-${VERSION}`);
const PYTHON = join(VENV, "bin", "python");
const PEER = fileURLToPath(new URL("./tensorstore_peer.py", import.meta.url));

const lastLine = (text: string) => text.trim().split("\n").pop() ?? "";

function importable(python: string): boolean {
  const probe = spawnSync(python, [
    "-c",
    `import tensorstore, ml_dtypes, importlib.metadata as m; assert m.version("tensorstore") == "${VERSION}"`,
  ]);
  return probe.status === 0;
}

/** Makes the virtual environment when it is missing; returns why it cannot be had, or undefined. */
function prepare(): string | undefined {
  if (existsSync(PYTHON) && importable(PYTHON)) return undefined;
  if (!existsSync(SYSTEM_PYTHON)) return `${SYSTEM_PYTHON} is absent`;
  // Built aside and renamed into place: a concurrent or interrupted run never leaves a half-made one in use.
  const building = `${VENV}.building-${process.pid}`;
  rmSync(building, { recursive: true, force: true });
  try {
    const venv = spawnSync(SYSTEM_PYTHON, ["-m", "venv", building], { encoding: "utf8" });
    if (venv.status !== 0) return `python3 -m venv failed (apt-get install python3-venv): ${lastLine(venv.stderr)}`;
    const pip = spawnSync(
      join(building, "bin", "pip"),
      ["install", "--quiet", "--retries", "1", `tensorstore==${VERSION}`],
      {
        encoding: "utf8",
        timeout: 480_000,
      },
    );
    if (pip.status !== 0)
      return `pip install tensorstore==${VERSION} failed: ${lastLine(pip.stderr) || pip.error?.message}`;
    rmSync(VENV, { recursive: true, force: true });
    renameSync(building, VENV);
  } finally {
    rmSync(building, { recursive: true, force: true });
  }
  return importable(PYTHON) ? undefined : `tensorstore ${VERSION} does not import after installing it into ${VENV}`;
}

export const tensorstoreSkipReason = prepare();
if (tensorstoreSkipReason) console.log(`tensorstore interop tests skipped: ${tensorstoreSkipReason}`);

/** Runs requests through tensorstore_peer.py (one process for the whole list). */
export function tensorstore<T = unknown>(requests: object[]): T[] {
  const run = spawnSync(PYTHON, [PEER], {
    input: JSON.stringify(requests),
    encoding: "utf8",
    maxBuffer: 512 * 2 ** 20,
  });
  if (run.status !== 0) throw new Error(`tensorstore_peer.py failed: ${run.stderr}`);
  return JSON.parse(run.stdout) as T[];
}
