// A throwaway single-node Ceph cluster (one monitor, one memstore OSD) with a
// RADOS Gateway in front, for tests that need a real S3 server. Every setting
// below is explained in shared/notes/s3-rgw.md; each one was needed.
import { execFile, spawn } from "node:child_process";
import { randomBytes, randomUUID } from "node:crypto";
import { accessSync, constants } from "node:fs";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";

/** The programs a cluster needs, all from Debian's radosgw, ceph-mon, ceph-osd and ceph-common packages. */
export const rgwBinaries = ["monmaptool", "ceph-mon", "ceph-osd", "ceph", "radosgw", "radosgw-admin"];

/** @returns {string[]} the binaries of `rgwBinaries` that are not on PATH */
export function missingRgwBinaries() {
  const dirs = (process.env.PATH ?? "").split(delimiter).filter(Boolean);
  return rgwBinaries.filter((name) => !dirs.some((dir) => isExecutable(join(dir, name))));
}

/** @param {string} path */
function isExecutable(path) {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * @typedef {object} Rgw
 * @property {string} endpoint S3 endpoint, e.g. http://127.0.0.1:40123 (path-style addressing only)
 * @property {string} accessKey
 * @property {string} secretKey
 * @property {string} dataDir the cluster's temporary directory (removed by stop)
 * @property {() => Promise<void>} stop stop radosgw, the OSD, then the monitor, and remove the data directory
 */

/**
 * Start a cluster in a fresh temporary directory on free ports of 127.0.0.1.
 * @param {{ log?: (line: string) => void }} [options] `log` receives progress lines
 * @returns {Promise<Rgw>}
 */
export async function startRgw(options = {}) {
  const log = options.log ?? (() => {});
  const dir = await mkdtemp(join(tmpdir(), "zarrkit-rgw-"));
  const cluster = new Cluster(dir);
  try {
    const [monPort, rgwPort] = await freePortPair();
    const fsid = randomUUID();
    const osdUuid = randomUUID();
    const conf = join(dir, "ceph.conf");
    for (const sub of ["mon", "osd/0", "run", "log"]) await mkdir(join(dir, sub), { recursive: true });
    await writeFile(conf, cephConf({ dir, fsid, monPort, rgwPort }));

    await run("monmaptool", [
      "--create",
      "--fsid",
      fsid,
      "--addv",
      "a",
      `[v2:127.0.0.1:${monPort}]`,
      join(dir, "monmap"),
    ]);
    await run("ceph-mon", ["-c", conf, "--mkfs", "-i", "a", "--monmap", join(dir, "monmap")]);
    cluster.start("ceph-mon", ["-c", conf, "-f", "-i", "a"]);
    await run("ceph-osd", ["-c", conf, "-i", "0", "--mkfs", "--osd-uuid", osdUuid, "--no-mon-config"]);
    // `timeout`: a monitor that never answers would otherwise block for minutes.
    await run("timeout", ["60", "ceph", "-c", conf, "osd", "new", osdUuid]);
    cluster.start("ceph-osd", ["-c", conf, "-f", "-i", "0"]);
    cluster.start("radosgw", ["-c", conf, "-f", "-n", "client.rgw.a"]);
    log(`rgw: cluster in ${dir} started, waiting for radosgw on port ${rgwPort}`);

    const endpoint = `http://127.0.0.1:${rgwPort}`;
    await waitForHttp(endpoint, cluster, 60_000);
    const accessKey = randomKey(20, "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789");
    const secretKey = randomKey(40, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789");
    await run("timeout", [
      "60",
      "radosgw-admin",
      "-c",
      conf,
      "user",
      "create",
      "--uid=test",
      "--display-name=test",
      `--access-key=${accessKey}`,
      `--secret=${secretKey}`,
    ]);
    log(`rgw: ready at ${endpoint}`);
    return { endpoint, accessKey, secretKey, dataDir: dir, stop: () => cluster.stop() };
  } catch (error) {
    const logs = await cluster.logTail();
    await cluster.stop();
    throw new Error(`Could not start radosgw: ${error instanceof Error ? error.message : String(error)}${logs}`);
  }
}

/**
 * The settings of shared/notes/s3-rgw.md, plus `tcp_nodelay=1` on the beast
 * frontend: without it small GETs and listings wait ~40 ms each on Nagle's
 * algorithm meeting delayed ACKs (measured: 48 ms -> 5 ms per GET).
 * @param {{ dir: string, fsid: string, monPort: number, rgwPort: number }} settings
 */
function cephConf({ dir, fsid, monPort, rgwPort }) {
  return `[global]
fsid = ${fsid}
mon host = [v2:127.0.0.1:${monPort}]
public addr = 127.0.0.1
cluster addr = 127.0.0.1
auth cluster required = none
auth service required = none
auth client required = none
osd pool default size = 1
osd pool default min size = 1
osd pool default pg num = 8
osd pool default pgp num = 8
osd pool default pg autoscale mode = off
osd crush chooseleaf type = 0
mon allow pool size one = true
mon warn on pool no redundancy = false
client mount timeout = 30
run dir = ${dir}/run
admin socket = ${dir}/run/$name.asok
log file = ${dir}/log/$name.log
mon data = ${dir}/mon/$id
osd data = ${dir}/osd/$id

[mon]
paxos propose interval = 0.01

[osd]
osd objectstore = memstore

[client]
ms mon client mode = crc
objecter tick interval = 0.2
rgw enable lc threads = false

[client.rgw.a]
rgw frontends = beast endpoint=127.0.0.1:${rgwPort} tcp_nodelay=1
rgw data = ${dir}/rgw
`;
}

/** The daemons of one cluster, stopped by their recorded PIDs in reverse start order. */
class Cluster {
  /** @param {string} dir */
  constructor(dir) {
    this.dir = dir;
    /**
     * @type {{ name: string, child: import("node:child_process").ChildProcess, exited: Promise<void>, stderr: string[]
     * }[]}
     */
    this.daemons = [];
    /** @type {Promise<void> | undefined} */
    this.stopping = undefined;
    // If the test process dies without calling stop(), do not leave daemons behind.
    this.onExit = () => {
      for (const { child } of this.daemons)
        if (child.exitCode === null && child.pid) process.kill(child.pid, "SIGKILL");
    };
    process.on("exit", this.onExit);
  }

  /** @param {string} name @param {string[]} args */
  start(name, args) {
    const child = spawn(name, args, { stdio: ["ignore", "ignore", "pipe"] });
    /** @type {string[]} */
    const stderr = [];
    child.stderr?.on("data", (chunk) => stderr.push(String(chunk)));
    /** @type {Promise<void>} */
    const exited = new Promise((resolve) => {
      child.once("error", (error) => {
        stderr.push(String(error));
        resolve();
      });
      child.once("exit", () => resolve());
    });
    this.daemons.push({ name, child, exited, stderr });
  }

  /** @returns {string | undefined} a daemon that has already exited, which means start-up failed */
  deadDaemon() {
    return this.daemons.find(({ child }) => child.exitCode !== null || child.signalCode !== null)?.name;
  }

  stop() {
    this.stopping ??= this.stopAll();
    return this.stopping;
  }

  async stopAll() {
    // radosgw first, then the OSD, then the monitor: the OSD waits 5 s for a monitor that went first.
    for (const { child, exited } of [...this.daemons].reverse()) {
      if (child.exitCode !== null || child.signalCode !== null || !child.pid) continue;
      process.kill(child.pid, "SIGTERM");
      const timer = setTimeout(
        () => child.pid && child.exitCode === null && process.kill(child.pid, "SIGKILL"),
        10_000,
      );
      await exited;
      clearTimeout(timer);
    }
    process.off("exit", this.onExit);
    await rm(this.dir, { recursive: true, force: true });
  }

  /** The end of each daemon's log, to explain a failed start. */
  async logTail() {
    let out = "";
    for (const name of ["mon.a", "osd.0", "client.rgw.a"]) {
      const text = await readFile(join(this.dir, "log", `${name}.log`), "utf8").catch(() => "");
      if (text) out += `\n--- ${name}.log (end) ---\n${lastLines(text, 15)}`;
    }
    for (const daemon of this.daemons) {
      const stderr = daemon.stderr.join("");
      if (stderr.trim()) out += `\n--- ${daemon.name} stderr ---\n${lastLines(stderr, 10)}`;
    }
    return out;
  }
}

/**
 * @param {string} endpoint
 * @param {Cluster} cluster
 * @param {number} timeoutMs
 */
async function waitForHttp(endpoint, cluster, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const dead = cluster.deadDaemon();
    if (dead) throw new Error(`${dead} exited during start-up`);
    try {
      const response = await fetch(endpoint, { signal: AbortSignal.timeout(2000) });
      await response.body?.cancel();
      return;
    } catch (error) {
      if (Date.now() > deadline)
        throw new Error(`radosgw did not answer on ${endpoint} within ${timeoutMs / 1000} s`, { cause: error });
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

/**
 * Run a command to completion; reject with its output when it fails.
 * @param {string} command @param {string[]} args
 */
function run(command, args) {
  return new Promise((resolve, reject) => {
    execFile(command, args, { encoding: "utf8" }, (error, stdout, stderr) => {
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

/**
 * Two distinct ports that were free a moment ago: listen on port 0 with both
 * servers open at once, so the system picks different ports.
 * @returns {Promise<[number, number]>}
 */
async function freePortPair() {
  const servers = await Promise.all([listenOnFreePort(), listenOnFreePort()]);
  const [first, second] = servers;
  /** @type {[number, number]} */
  const ports = [portOf(first), portOf(second)];
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  return ports;
}

/** @returns {Promise<import("node:net").Server>} */
function listenOnFreePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve(server));
  });
}

/** @param {import("node:net").Server} server */
function portOf(server) {
  return /** @type {import("node:net").AddressInfo} */ (server.address()).port;
}

/** @param {number} length @param {string} alphabet */
function randomKey(length, alphabet) {
  return Array.from(randomBytes(length), (byte) => alphabet[byte % alphabet.length]).join("");
}

/** @param {string} text @param {number} count */
function lastLines(text, count) {
  return text.trim().split("\n").slice(-count).join("\n");
}
