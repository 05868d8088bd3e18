#!/usr/bin/env bash
# Start or stop a throwaway single-node SLURM cluster by hand (see ../README.md):
#   eval "$(tooling/slurm/bin/slurm-cluster.sh start)"   # prints export SLURM_CONF=...
#   sbatch --array=0-3 --wait --wrap 'echo $SLURM_ARRAY_TASK_ID'
#   tooling/slurm/bin/slurm-cluster.sh stop /tmp/zarrkit-slurm-XXXXXX
# Runs ./cli.ts from source through the workspace's TypeScript loader
# (tooling/config/node-ts-register.js), so `pnpm install` must have run.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
exec node --import "$here/../../config/node-ts-register.js" "$here/cli.ts" "$@"
