// A throwaway single-node SLURM cluster (slurmctld, slurmd and a private
// munged) for tests that need a real batch engine, e.g. `zarrkit convert
// --part` run as a job array. The settings follow shared/notes/slurm.md.
//
// Everything lives in one fresh temporary folder: slurm.conf, the state and
// spool directories, pid and log files, and a munge key and socket of its own
// (`AuthInfo=socket=...`), so the cluster shares nothing with the machine's
// munged or with another cluster, and stopping it cannot break either. Only
// the processes it started are stopped, by their recorded PIDs.
import { execFile, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { accessSync, closeSync, constants, openSync, readFileSync } from "node:fs";
import { chmod, mkdir, mkdtemp, readFile, readdir, rm, writeFile } from "node:fs/promises";
import { type AddressInfo, createServer, type Server } from "node:net";
import { availableParallelism, hostname, tmpdir, totalmem } from "node:os";
import { delimiter, join } from "node:path";

/** The programs a cluster needs, from Debian's slurm-wlm (slurmctld, slurmd, slurm-client) and munge packages. */
export const slurmBinaries = ["slurmctld", "slurmd", "sbatch", "sinfo", "scancel", "munged", "munge"];

/** The binaries of `slurmBinaries` that are not on PATH (the sbin folders included). */
export function missingSlurmBinaries(): string[] {
  const dirs = searchPath().split(delimiter).filter(Boolean);
  return slurmBinaries.filter((name) => !dirs.some((dir) => isExecutable(join(dir, name))));
}

/** Why no cluster can start here, or undefined when one can. */
export function slurmUnavailableReason(): string | undefined {
  const missing = missingSlurmBinaries();
  if (missing.length > 0) {
    return (
      `${missing.join(", ")} not installed; run tooling/ci/install-system-deps.sh` +
      " (apt-get install --no-install-recommends slurm-wlm munge)"
    );
  }
  if (process.getuid?.() !== 0)
    return "the SLURM test cluster runs its daemons as root (SlurmUser=root), and this process is not root";
  return undefined;
}

export interface SbatchArrayOptions {
  /** Working directory of the job (and of sbatch); default: the current directory. */
  cwd?: string;
  /**
   * Environment of sbatch, which the tasks inherit (`--export=ALL`); default: process.env. SLURM_CONF is always set.
   */
  env?: NodeJS.ProcessEnv;
  /** More sbatch arguments, e.g. ["--cpus-per-task=1"]. */
  args?: string[];
  /** Give up (and scancel the job) after this long; default 120 s. */
  timeoutMs?: number;
}

export interface SbatchArrayResult {
  jobId: string;
  /** sbatch's exit status: 0 when every task succeeded, non-zero when any failed (or the job was cancelled). */
  status: number;
  ok: boolean;
  /** Each task's output (stdout and stderr), by task id 0..tasks-1; "" when a task wrote none. */
  outputs: string[];
  /** The folder with the output files out.0 .. out.(N-1). */
  outputDir: string;
  /** sbatch's own stdout and stderr. */
  sbatchOutput: string;
  /** Wall time of the sbatch call. */
  ms: number;
}

export interface SlurmProcess {
  name: string;
  pid: number;
}

export interface SlurmCluster {
  /** The cluster's temporary folder (removed by stop). */
  dir: string;
  /** Path of the generated slurm.conf. */
  conf: string;
  /** What SLURM clients (sbatch, sinfo, squeue, ...) need: { SLURM_CONF }. */
  env: { SLURM_CONF: string };
  /** The processes this cluster started (munged, slurmctld, slurmd), by recorded PID. */
  processes: SlurmProcess[];
  /** Milliseconds from the start call until the node was idle. */
  startMs: number;
  /**
   * Run `command` (with sh, through `--wrap`) as a job array of `tasks` tasks
   * (`--array=0-(tasks-1) --wait`) and resolve when every task has ended.
   */
  sbatchArray(command: string, tasks: number, options?: SbatchArrayOptions): Promise<SbatchArrayResult>;
  /**
   * Submit the batch script `script` with `args` (`sbatch --wait script args...`):
   * its own `#SBATCH` lines apply, so they must make it an array of `tasks`
   * tasks 0..tasks-1 (`#SBATCH --array=0-(tasks-1)`); `--output` is set as
   * for sbatchArray (a command-line option overrides the script's).
   */
  sbatchScript(script: string, args: string[], tasks: number, options?: SbatchArrayOptions): Promise<SbatchArrayResult>;
  /** Stop the processes it started (by PID, slurmd first), wait until they are gone, and remove the folder. */
  stop(): Promise<void>;
}

export interface StartSlurmOptions {
  /** Receives progress lines. */
  log?: (line: string) => void;
  /** Receives the reason when SLURM cannot run here (startSlurm then resolves with undefined). */
  onUnavailable?: (reason: string) => void;
  /** Use this (empty or new) folder instead of a fresh temporary one. */
  dir?: string;
  /** Leave the daemons running when this process exits (for the command line); default false. */
  detached?: boolean;
  /** How long to wait for the node to become idle; default 30 s. */
  readyTimeoutMs?: number;
}

/** Start a cluster, or resolve with undefined (after `onUnavailable(reason)`) when SLURM is not installed. */
export async function startSlurm(options: StartSlurmOptions = {}): Promise<SlurmCluster | undefined> {
  const reason = slurmUnavailableReason();
  if (reason) {
    options.onUnavailable?.(reason);
    return undefined;
  }
  const started = Date.now();
  const log = options.log ?? (() => {});
  const dir = options.dir ?? (await mkdtemp(join(tmpdir(), "zarrkit-slurm-")));
  await mkdir(dir, { recursive: true });
  // munged wants its socket's folder searchable by all (mkdtemp gives 0700).
  await chmod(dir, 0o755);
  const daemons = new Daemons(dir, options.detached ?? false);
  try {
    for (const sub of ["state", "spool", "jobs"]) await mkdir(join(dir, sub), { recursive: true });
    const [ctldPort, slurmdPort] = await freePortPair();
    const host = hostname().split(".")[0] || "localhost";
    const conf = join(dir, "slurm.conf");
    await writeFile(conf, slurmConf({ dir, host, ctldPort, slurmdPort }));

    // A munged of its own: own key, socket, pid and seed files in the folder.
    const key = join(dir, "munge.key");
    await writeFile(key, randomBytes(1024), { mode: 0o400 });
    const socket = join(dir, "munge.socket");
    await daemons.start("munged", "munged", [
      "--foreground",
      "--force",
      `--socket=${socket}`,
      `--key-file=${key}`,
      `--pid-file=${join(dir, "munged.pid")}`,
      `--seed-file=${join(dir, "munged.seed")}`,
      `--log-file=${join(dir, "munged.log")}`,
    ]);
    await waitFor("munge", 10_000, daemons, async () => {
      await run("munge", ["-n", "-S", socket]);
      return true;
    });

    await daemons.start("slurmctld", "slurmctld", ["-D", "-f", conf]);
    await daemons.start("slurmd", "slurmd", ["-D", "-f", conf]);
    const env = { SLURM_CONF: conf };
    log(`slurm: daemons started in ${dir}, waiting for the node to be idle`);
    await waitFor("the node to be idle (sinfo -h -o %T)", options.readyTimeoutMs ?? 30_000, daemons, async () => {
      const state = await run("sinfo", ["-h", "-o", "%T"], { env: { ...process.env, ...env } }).catch(() => "");
      return state.trim().split("\n").includes("idle");
    });
    const startMs = Date.now() - started;
    log(`slurm: node idle after ${startMs} ms (conf ${conf})`);
    let jobs = 0;
    return {
      dir,
      conf,
      env,
      processes: daemons.processes(),
      startMs,
      sbatchArray: (command, tasks, sbatchOptions) =>
        sbatch(
          dir,
          env,
          `${jobs++}`,
          [`--array=0-${tasks - 1}`, ...(sbatchOptions?.args ?? []), "--wrap", command],
          tasks,
          sbatchOptions,
        ),
      sbatchScript: (script, args, tasks, sbatchOptions) =>
        sbatch(dir, env, `${jobs++}`, [...(sbatchOptions?.args ?? []), script, ...args], tasks, sbatchOptions),
      stop: () => daemons.stop(),
    };
  } catch (error) {
    const logs = await logTail(dir);
    await daemons.stop();
    throw new Error(`Could not start SLURM: ${error instanceof Error ? error.message : String(error)}${logs}`);
  }
}

/** Stop a cluster started in `dir` by another process (the command line): by the PIDs it recorded in `dir/pids`. */
export async function stopSlurmDir(dir: string): Promise<void> {
  const text = await readFile(join(dir, "pids"), "utf8").catch(() => "");
  const processes = text
    .split("\n")
    .filter(Boolean)
    .map((line) => {
      const [name = "", pid = ""] = line.split(" ");
      return { name, pid: Number(pid) };
    });
  await stopProcesses(processes);
  await rm(dir, { recursive: true, force: true });
}

/** The settings of shared/notes/slurm.md, with everything in `dir` and munge's socket there too. */
export function slurmConf(settings: { dir: string; host: string; ctldPort: number; slurmdPort: number }): string {
  const { dir, host, ctldPort, slurmdPort } = settings;
  const cpus = availableParallelism();
  // A little under the machine's memory: slurmd drains a node that has less than configured.
  const memoryMiB = Math.max(1, Math.floor((totalmem() / 2 ** 20) * 0.9));
  return `ClusterName=zarrkit
SlurmctldHost=${host}(127.0.0.1)
SlurmctldPort=${ctldPort}
SlurmdPort=${slurmdPort}
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=${dir}/munge.socket
SlurmUser=root
SlurmdUser=root
StateSaveLocation=${dir}/state
SlurmdSpoolDir=${dir}/spool/%n
SlurmctldPidFile=${dir}/slurmctld.pid
SlurmdPidFile=${dir}/slurmd.pid
SlurmctldLogFile=${dir}/slurmctld.log
SlurmdLogFile=${dir}/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
SchedulerType=sched/backfill
SchedulerParameters=bf_interval=1,sched_min_interval=0,default_queue_depth=1000
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
MaxArraySize=10001
KillWait=5
MinJobAge=30
NodeName=${host} NodeAddr=127.0.0.1 CPUs=${cpus} RealMemory=${memoryMiB} State=UNKNOWN
PartitionName=test Nodes=${host} Default=YES MaxTime=INFINITE State=UP
`;
}

/** `sbatch --wait` with `submission` (the array and the job: `--wrap command` or a script with its arguments) last. */
async function sbatch(
  dir: string,
  env: { SLURM_CONF: string },
  name: string,
  submission: string[],
  tasks: number,
  options: SbatchArrayOptions = {},
): Promise<SbatchArrayResult> {
  if (!Number.isInteger(tasks) || tasks < 1)
    throw new RangeError(`sbatch: tasks must be a positive integer, got ${tasks}`);
  const outputDir = join(dir, "jobs", name);
  await mkdir(outputDir, { recursive: true });
  const timeoutMs = options.timeoutMs ?? 120_000;
  const args = [
    "--wait",
    "--parsable",
    `--job-name=zarrkit-${name}`,
    `--output=${join(outputDir, "out.%a")}`,
    ...submission,
  ];
  const started = Date.now();
  const childEnv = { ...(options.env ?? process.env), ...env };
  const { status, stdout, stderr } = await new Promise<{ status: number; stdout: string; stderr: string }>(
    (resolve) => {
      const child = spawn("sbatch", args, { cwd: options.cwd, env: childEnv, stdio: ["ignore", "pipe", "pipe"] });
      let stdout = "";
      let stderr = "";
      child.stdout.on("data", (chunk) => (stdout += String(chunk)));
      child.stderr.on("data", (chunk) => (stderr += String(chunk)));
      const timer = setTimeout(() => {
        stderr += `\nsbatch: timed out after ${timeoutMs} ms; cancelling the job`;
        const jobId = stdout.trim().split(";")[0];
        if (jobId) void run("scancel", [jobId], { env: childEnv }).catch(() => {});
        child.kill("SIGTERM");
      }, timeoutMs);
      child.once("error", (error) => {
        clearTimeout(timer);
        resolve({ status: 127, stdout, stderr: `${stderr}${String(error)}` });
      });
      child.once("close", (code, signal) => {
        clearTimeout(timer);
        resolve({ status: code ?? (signal ? 128 : 1), stdout, stderr });
      });
    },
  );
  const outputs: string[] = [];
  for (let task = 0; task < tasks; task++) {
    outputs.push(await readFile(join(outputDir, `out.${task}`), "utf8").catch(() => ""));
  }
  return {
    jobId: stdout.trim().split("\n")[0]?.split(";")[0] ?? "",
    status,
    ok: status === 0,
    outputs,
    outputDir,
    sbatchOutput: `${stdout}${stderr}`,
    ms: Date.now() - started,
  };
}

/** The daemons of one cluster, recorded in `dir/pids` as they start. */
class Daemons {
  private readonly list: (SlurmProcess & { exited: () => boolean; stderr: string[] })[] = [];
  private stopping: Promise<void> | undefined;
  private readonly onExit = () => {
    for (const { pid } of this.list) {
      try {
        process.kill(pid, "SIGKILL");
      } catch {
        // already gone
      }
    }
  };

  constructor(
    private readonly dir: string,
    private readonly detached: boolean,
  ) {
    // If the test process dies without calling stop(), do not leave daemons behind.
    if (!detached) process.on("exit", this.onExit);
  }

  async start(name: string, command: string, args: string[]): Promise<void> {
    // Foreground daemons (-D, --foreground): the PID we spawn is the daemon's;
    // stdout and stderr go to a file in the folder, so nothing holds this process open.
    const out = openSync(join(this.dir, `${name}.stderr`), "a");
    const child = spawn(binaryPath(command), args, { stdio: ["ignore", out, out], detached: this.detached });
    closeSync(out);
    const failed = await new Promise<Error | undefined>((resolve) => {
      child.once("error", resolve);
      child.once("spawn", () => resolve(undefined));
    });
    if (failed || child.pid === undefined) throw new Error(`${command} did not start: ${String(failed)}`);
    if (this.detached) child.unref();
    let exited = false;
    child.once("exit", () => (exited = true));
    this.list.push({ name, pid: child.pid, exited: () => exited || !isAlive(child.pid ?? 0), stderr: [] });
    await writeFile(join(this.dir, "pids"), this.list.map(({ name, pid }) => `${name} ${pid}\n`).join(""));
  }

  processes(): SlurmProcess[] {
    return this.list.map(({ name, pid }) => ({ name, pid }));
  }

  /** A daemon that has already exited, which means start-up failed. */
  dead(): string | undefined {
    return this.list.find((daemon) => daemon.exited())?.name;
  }

  stop(): Promise<void> {
    this.stopping ??= (async () => {
      // slurmd before slurmctld before munged: the reverse of the start order.
      await stopProcesses([...this.list].reverse());
      process.off("exit", this.onExit);
      await rm(this.dir, { recursive: true, force: true });
    })();
    return this.stopping;
  }
}

/** SIGTERM each process in turn, SIGKILL after 10 s, and wait until it is gone. */
async function stopProcesses(processes: SlurmProcess[]): Promise<void> {
  for (const { pid } of processes) {
    if (!(pid > 1) || !isAlive(pid)) continue;
    signal(pid, "SIGTERM");
    const deadline = Date.now() + 10_000;
    let killed = false;
    while (isAlive(pid)) {
      if (!killed && Date.now() > deadline) {
        signal(pid, "SIGKILL");
        killed = true;
      }
      if (Date.now() > deadline + 5_000) throw new Error(`process ${pid} did not exit after SIGKILL`);
      await sleep(50);
    }
  }
}

function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch {
    // already gone
  }
}

/** True while `pid` exists and is not a zombie (PID 1 here may not reap orphans). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
  } catch {
    return false;
  }
}

async function waitFor(
  what: string,
  timeoutMs: number,
  daemons: Daemons,
  ready: () => Promise<boolean>,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const dead = daemons.dead();
    if (dead) throw new Error(`${dead} exited during start-up`);
    if (await ready().catch(() => false)) return;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs / 1000} s waiting for ${what}`);
    await sleep(200);
  }
}

/** Run a command to completion; reject with its output when it fails. */
function run(command: string, args: string[], options: { env?: NodeJS.ProcessEnv } = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(command, args, { encoding: "utf8", env: options.env, timeout: 10_000 }, (error, stdout, stderr) => {
      if (error)
        reject(
          new Error(
            `${command} ${args.join(" ")} failed (${error.code ?? error.signal}): ${lastLines(stderr || stdout, 10)}`,
          ),
        );
      else resolve(stdout);
    });
  });
}

/** The end of each log file, to explain a failed start. */
async function logTail(dir: string): Promise<string> {
  let out = "";
  const names = await readdir(dir).catch(() => [] as string[]);
  for (const name of names.filter((file) => file.endsWith(".log") || file.endsWith(".stderr")).sort()) {
    const text = await readFile(join(dir, name), "utf8").catch(() => "");
    if (text.trim()) out += `\n--- ${name} (end) ---\n${lastLines(text, 15)}`;
  }
  return out;
}

/** Two distinct ports that were free a moment ago (both listening at once, so the system picks different ones). */
async function freePortPair(): Promise<[number, number]> {
  const servers = await Promise.all([listenOnFreePort(), listenOnFreePort()]);
  const ports = servers.map((server) => (server.address() as AddressInfo).port);
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  return [ports[0]!, ports[1]!];
}

function listenOnFreePort(): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve(server));
  });
}

/** PATH with /usr/sbin and /sbin, where Debian puts slurmctld, slurmd and munged. */
function searchPath(): string {
  const path = process.env.PATH ?? "";
  const dirs = path.split(delimiter);
  return [...dirs, ...["/usr/local/sbin", "/usr/sbin", "/sbin"].filter((dir) => !dirs.includes(dir))].join(delimiter);
}

/** Where `name` is on the search path (with the sbin folders), or `name` itself. */
function binaryPath(name: string): string {
  for (const dir of searchPath().split(delimiter).filter(Boolean)) {
    if (isExecutable(join(dir, name))) return join(dir, name);
  }
  return name;
}

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function lastLines(text: string, count: number): string {
  return text.trim().split("\n").slice(-count).join("\n");
}
