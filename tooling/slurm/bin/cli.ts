// `slurm-cluster.sh start [dir]` / `slurm-cluster.sh stop <dir>`: the same
// cluster as the tests start, by hand. start leaves the daemons running and
// prints the folder and `export SLURM_CONF=...`; stop stops the processes
// recorded in <dir>/pids (by PID) and removes the folder.
import { startSlurm, stopSlurmDir } from "../src/slurm.js";

const [command, dir] = process.argv.slice(2);

if (command === "start") {
  const cluster = await startSlurm({
    ...(dir ? { dir } : {}),
    detached: true,
    log: (line) => console.error(line),
    onUnavailable: (reason) => console.error(`slurm-cluster: cannot start: ${reason}`),
  });
  if (!cluster) process.exit(1);
  console.error(`slurm-cluster: started ${cluster.processes.map(({ name, pid }) => `${name} (${pid})`).join(", ")}`);
  console.error(`slurm-cluster: stop it with: tooling/slurm/bin/slurm-cluster.sh stop ${cluster.dir}`);
  console.log(`export SLURM_CONF=${cluster.conf}`);
} else if (command === "stop" && dir) {
  await stopSlurmDir(dir);
  console.error(`slurm-cluster: stopped the processes recorded in ${dir}/pids and removed ${dir}`);
} else {
  console.error("usage: slurm-cluster.sh start [dir] | stop <dir>");
  process.exit(2);
}
