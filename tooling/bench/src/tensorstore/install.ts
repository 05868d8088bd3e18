import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, rmSync, statSync } from "node:fs";
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

function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/**
 * Takes the lock `lock` (a directory), waiting while another process holds it
 * (test files run at once may each want the venv); one older than an install
 * can take is stale. Returns its release. Where no lock can be made at all,
 * goes on without (the install then fails with its own reason).
 */
function lockInstall(lock: string): () => void {
  for (;;) {
    try {
      mkdirSync(lock);
      return () => rmSync(lock, { recursive: true, force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") return () => {};
    }
    const since = statSync(lock, { throwIfNoEntry: false })?.mtimeMs;
    if (since !== undefined && Date.now() - since > INSTALL_TIMEOUT_MS) rmSync(lock, { recursive: true, force: true });
    else sleepSync(1000);
  }
}

/** Makes the venv and installs tensorstore there; returns why not, if it could not. */
function install(venv: string, log: (line: string) => void): string | undefined {
  log(`installing tensorstore ${TENSORSTORE_VERSION} into ${venv} (once)`);
  const created = run(SYSTEM_PYTHON, ["-m", "venv", venv]);
  if (!created.ok) return `${SYSTEM_PYTHON} -m venv ${venv} failed: ${lastLine(created.output)}`;
  const args = ["install", "--quiet", `tensorstore==${TENSORSTORE_VERSION}`];
  const pip = run(join(venv, "bin", "pip"), args, INSTALL_TIMEOUT_MS);
  if (!pip.ok) return `pip install tensorstore==${TENSORSTORE_VERSION} failed: ${lastLine(pip.output)}`;
  return undefined;
}

/**
 * tensorstore in its venv, installed there from the machine's Python package
 * index (`python3 -m venv`, `pip install tensorstore==0.1.85`) when it is not
 * there yet, by one process at a time. Never throws: when it cannot be had, says why.
 */
export function setUpTensorstore(log: (line: string) => void, venv = TENSORSTORE_VENV): TensorstoreSetup {
  const python = join(venv, "bin", "python");
  let version = installedVersion(python);
  if (version === undefined) {
    const release = lockInstall(`${venv}.lock`);
    try {
      // Another process may have installed it while this one waited.
      version = installedVersion(python);
      if (version === undefined) {
        const failure = install(venv, log);
        if (failure) return { skip: failure };
        version = installedVersion(python);
        if (version === undefined) return { skip: `tensorstore does not import after its install in ${venv}` };
      }
    } finally {
      release();
    }
  }
  if (version !== TENSORSTORE_VERSION) {
    return { skip: `${venv} holds tensorstore ${version}, not ${TENSORSTORE_VERSION}` };
  }
  return { command: [python, CHILD_SCRIPT], version };
}
