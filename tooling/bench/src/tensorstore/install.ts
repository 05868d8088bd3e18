import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BENCH_DIR } from "../paths.js";

export const TENSORSTORE_VERSION = "0.1.85";

/** The venv tensorstore is installed into, once, then reused (under the OS temp dir: outside the repository). */
export const TENSORSTORE_VENV = join(tmpdir(), `zarrkit-bench-tensorstore-${TENSORSTORE_VERSION}`);

/** The child's program: the suite runs it from src/ whether it runs from src/ or dist/. */
export const CHILD_SCRIPT = join(BENCH_DIR, "src", "tensorstore", "child.py");

/** Debian's Python, whose venv module install-system-deps.sh installs (python3-venv); else the one on PATH. */
const SYSTEM_PYTHON = existsSync("/usr/bin/python3") ? "/usr/bin/python3" : "python3";

/** pip may retry unreachable indexes for a while before it falls back to the local one. */
const INSTALL_TIMEOUT_MS = 10 * 60_000;

/** How to start the child, or why it cannot start here. */
export type TensorstoreSetup = { command: string[]; version: string } | { skip: string };

function run(program: string, args: string[], timeout = 60_000): { ok: boolean; output: string } {
  const result = spawnSync(program, args, { encoding: "utf8", timeout });
  const output = `${result.stdout ?? ""}${result.stderr ?? ""}${result.error ? result.error.message : ""}`.trim();
  return { ok: result.status === 0, output };
}

/** The last line of a tool's output, for a one-line reason. */
function lastLine(output: string): string {
  return (
    output
      .split("\n")
      .filter((l) => l.trim())
      .at(-1) ?? "no output"
  );
}

function installedVersion(python: string): string | undefined {
  if (!existsSync(python)) return undefined;
  const probe = run(python, [
    "-c",
    "import importlib.metadata, tensorstore, numpy; print(importlib.metadata.version('tensorstore'))",
  ]);
  return probe.ok ? probe.output.split("\n").at(-1) : undefined;
}

/**
 * tensorstore in its venv, installed there from the machine's Python package
 * index (`python3 -m venv`, `pip install tensorstore==0.1.85`) when it is not
 * there yet. Never throws: when it cannot be had, says why.
 */
export function setUpTensorstore(log: (line: string) => void, venv = TENSORSTORE_VENV): TensorstoreSetup {
  const python = join(venv, "bin", "python");
  let version = installedVersion(python);
  if (version === undefined) {
    log(`installing tensorstore ${TENSORSTORE_VERSION} into ${venv} (once)`);
    const created = run(SYSTEM_PYTHON, ["-m", "venv", venv]);
    if (!created.ok) return { skip: `${SYSTEM_PYTHON} -m venv ${venv} failed: ${lastLine(created.output)}` };
    const pip = run(
      join(venv, "bin", "pip"),
      ["install", "--quiet", `tensorstore==${TENSORSTORE_VERSION}`],
      INSTALL_TIMEOUT_MS,
    );
    if (!pip.ok) return { skip: `pip install tensorstore==${TENSORSTORE_VERSION} failed: ${lastLine(pip.output)}` };
    version = installedVersion(python);
    if (version === undefined) return { skip: `tensorstore does not import after its install in ${venv}` };
  }
  if (version !== TENSORSTORE_VERSION)
    return { skip: `${venv} holds tensorstore ${version}, not ${TENSORSTORE_VERSION}` };
  return { command: [python, CHILD_SCRIPT], version };
}
