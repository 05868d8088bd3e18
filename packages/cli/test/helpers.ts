import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { readdir, readFile, stat } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join, normalize, relative } from "node:path";
import { fileURLToPath } from "node:url";

const BIN = fileURLToPath(new URL("../src/bin.ts", import.meta.url));

export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Run the CLI's TypeScript entry as a child process (with the workspace loader from vitest's execArgv),
 * as another user with `as` (when running as root).
 */
export function run(
  args: string[],
  env: NodeJS.ProcessEnv = {},
  as?: { uid: number; gid: number },
): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...process.execArgv, BIN, ...args], {
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, ...env },
      ...as,
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

/** A store's own files (temporary files, locks): not part of what it stores. */
const storeFile = (name: string) => name.startsWith(".zarrkit-");

/** Every file under `dir` (the store's own files left out) with the SHA-256 of its bytes. */
export async function fileDigests(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || storeFile(entry.name)) continue;
    const path = join(entry.parentPath, entry.name);
    out[relative(dir, path)] = createHash("sha256")
      .update(await readFile(path))
      .digest("hex");
  }
  return out;
}

/**
 * Start the CLI with `args` and SIGKILL it once `dir` (recursively) holds at
 * least `threshold` files whose names pass `counts` (the store's own files
 * never count): the count at the kill, or Infinity when it ended first.
 */
export function killAfter(
  args: string[],
  dir: string,
  threshold: number,
  counts: (name: string) => boolean = () => true,
): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...process.execArgv, BIN, ...args], { stdio: "ignore" });
    let exited = false;
    child.on("error", reject);
    child.on("exit", () => {
      exited = true;
    });
    const poll = async () => {
      if (exited) return resolve(Number.POSITIVE_INFINITY);
      const entries = existsSync(dir) ? await readdir(dir, { recursive: true, withFileTypes: true }) : [];
      const count = entries.filter((e) => e.isFile() && !storeFile(e.name) && counts(e.name)).length;
      if (count < threshold) return void setTimeout(poll, 5);
      child.kill("SIGKILL");
      child.once("close", () => resolve(count));
      if (exited) resolve(count);
    };
    void poll();
  });
}

export interface StaticServer {
  /** http://127.0.0.1:<port>/ serving `root`. */
  url: string;
  requests: string[];
  /** The Authorization header of each request ("" when absent), in order. */
  authorizations: string[];
  close(): Promise<void>;
}

/** A static file server over a folder, with single byte ranges (like nginx): GET, HEAD, Range, 404. No listing. */
export async function serveFolder(root: string): Promise<StaticServer> {
  const requests: string[] = [];
  const authorizations: string[] = [];
  const server = createServer(async (req, res) => {
    requests.push(`${req.method} ${req.url}`);
    authorizations.push(req.headers.authorization ?? "");
    const path = normalize(join(root, decodeURIComponent(new URL(req.url!, "http://x").pathname)));
    const info = path.startsWith(root) && existsSync(path) ? await stat(path) : undefined;
    if (!info?.isFile()) {
      res.writeHead(404).end();
      return;
    }
    const body = await readFile(path);
    const range = /^bytes=(\d*)-(\d*)$/.exec(req.headers.range ?? "");
    if (range) {
      let start: number;
      let end: number;
      if (range[1] === "") {
        start = Math.max(0, body.length - Number(range[2]));
        end = body.length - 1;
      } else {
        start = Number(range[1]);
        end = range[2] === "" ? body.length - 1 : Math.min(Number(range[2]), body.length - 1);
      }
      if (start >= body.length) {
        res.writeHead(416, { "Content-Range": `bytes */${body.length}` }).end();
        return;
      }
      const part = body.subarray(start, end + 1);
      res.writeHead(206, { "Content-Range": `bytes ${start}-${end}/${body.length}`, "Content-Length": part.length });
      res.end(req.method === "HEAD" ? undefined : part);
      return;
    }
    res.writeHead(200, { "Content-Length": body.length, "Accept-Ranges": "bytes" });
    res.end(req.method === "HEAD" ? undefined : body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    requests,
    authorizations,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export const PYTHON = "/usr/bin/python3";

/** Whether /usr/bin/python3 imports numpy; prints why not otherwise. */
export async function hasNumpy(): Promise<boolean> {
  const ok = await new Promise<boolean>((resolve) => {
    const child = spawn(PYTHON, ["-c", "import numpy"], { stdio: "ignore" });
    child.on("error", () => resolve(false));
    child.on("close", (code) => resolve(code === 0));
  });
  if (!ok) console.warn("[zarrkit] skipping .npy read-back: /usr/bin/python3 with numpy is not available");
  return ok;
}

const LOAD = `
import json, math, sys, numpy
a = numpy.load(sys.argv[1])
def conv(x):
    if isinstance(x, complex): return [conv(x.real), conv(x.imag)]
    if isinstance(x, bytes): return x.decode("latin1")
    if isinstance(x, float) and not math.isfinite(x): return "NaN" if x != x else ("Infinity" if x > 0 else "-Infinity")
    if isinstance(x, int) and not isinstance(x, bool) and abs(x) >= 2**53: return str(x)
    return x
print(json.dumps({"descr": a.dtype.str, "shape": list(a.shape), "data": [conv(x) for x in a.ravel().tolist()]}))
`;

/** numpy.load of an .npy file: its dtype string, shape and flat values (JSON-safe). */
export async function numpyLoad(file: string): Promise<{ descr: string; shape: number[]; data: unknown[] }> {
  return new Promise((resolve, reject) => {
    const child = spawn(PYTHON, ["-c", LOAD, file], { stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => (out += d));
    child.stderr.setEncoding("utf8").on("data", (d: string) => (err += d));
    child.on("close", (code) =>
      code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`numpy.load failed: ${err}`)),
    );
  });
}
