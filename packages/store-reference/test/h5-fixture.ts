// HDF5 files written by h5py with kerchunk references computed by Python from h5py's own chunk
// index (test/python/*.py), as JSON and, with pyarrow, as the Parquet layout. Each part is
// undefined, with the reason printed, where its Python is missing.
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const PYTHON = "/usr/bin/python3";
const SCRIPTS = fileURLToPath(new URL("./python/", import.meta.url));
/** The venv with pyarrow that the project's other Python interop tests share, used when it is there. */
const SHARED_VENV = join(tmpdir(), "ts");
/** This package's own venv, created when the shared one is missing (so two packages never create one venv at once). */
const VENV = join(tmpdir(), "zarrkit-reference-pyarrow");

/** One dataset as h5py reads it. */
export interface Expected {
  shape: number[];
  dtype: string;
  values: number[];
}

export interface H5Fixture {
  dir: string;
  expected: Record<string, Expected>;
  cleanup(): void;
}

function runs(python: string, module: string): boolean {
  try {
    execFileSync(python, ["-c", `import ${module}`], { stdio: "pipe" });
    return true;
  } catch {
    return false;
  }
}

/** Why h5py cannot run, or undefined when it can. */
export function h5pyMissing(): string | undefined {
  if (!existsSync(PYTHON)) return `${PYTHON} is absent`;
  return runs(PYTHON, "h5py")
    ? undefined
    : "h5py is not installed for /usr/bin/python3 (apt-get install -y python3-h5py)";
}

/** A Python with pyarrow: the shared venv, created (from the local wheel index) when missing; or why there is none. */
export function pyarrowPython(): { python?: string; missing?: string } {
  for (const venv of [SHARED_VENV, VENV]) {
    const found = join(venv, "bin", "python");
    if (existsSync(found) && runs(found, "pyarrow")) return { python: found };
  }
  const python = join(VENV, "bin", "python");
  try {
    if (!existsSync(python)) execFileSync(PYTHON, ["-m", "venv", VENV], { stdio: "pipe" });
    execFileSync(join(VENV, "bin", "pip"), ["install", "--quiet", "pyarrow"], { stdio: "pipe", timeout: 600_000 });
    return { python };
  } catch (error) {
    return {
      missing:
        `no Python with pyarrow (python3 -m venv ${VENV} && ${VENV}/bin/pip install pyarrow failed: ` +
        `${(error as Error).message.split("\n")[0]})`,
    };
  }
}

/** Write data.h5, refs.json (the "h5" template set to `h5Url`) and expected.json into a new temporary folder. */
export function writeH5References(h5Url = "data.h5"): H5Fixture {
  const dir = mkdtempSync(join(tmpdir(), "zarrkit-reference-"));
  execFileSync(PYTHON, [join(SCRIPTS, "write_h5_refs.py"), dir, h5Url], { stdio: "pipe" });
  const expected = JSON.parse(readFileSync(join(dir, "expected.json"), "utf8"));
  return { dir, expected, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Write the Parquet layout of `dir`/refs.json into `dir`/`name`, `recordSize` chunks per record file (pyarrow). */
export function writeParquetReferences(
  python: string,
  dir: string,
  name: string,
  recordSize: number,
  compression = "snappy",
): void {
  const args = [
    join(SCRIPTS, "write_parquet_refs.py"),
    join(dir, "refs.json"),
    join(dir, name),
    String(recordSize),
    compression,
  ];
  execFileSync(python, args, { stdio: "pipe" });
}
