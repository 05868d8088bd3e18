#!/bin/bash
# Convert a Zarr array or group into sharded Zarr v3 with a SLURM job array.
#
#   sbatch slurm-convert.sh <src> <dst> [more zarrkit convert options]
#   sbatch slurm-convert.sh /data/raw.zarr s3://bucket/image.zarr --shard-shape 1024,1024,64
#
# Task i of the array writes the shards whose linear grid index is i modulo
# the number of tasks (zarrkit reads SLURM_ARRAY_TASK_ID and
# SLURM_ARRAY_TASK_COUNT, and prints the part it took). Every task writes the
# metadata first, idempotently. To resume after failed or cancelled tasks,
# submit the same script with the same arguments again: complete shards are
# skipped, the rest written. For S3, export AWS_ACCESS_KEY_ID,
# AWS_SECRET_ACCESS_KEY, AWS_REGION (and AWS_ENDPOINT_URL for S3-compatible
# services) before sbatch: the tasks inherit them.
#
# Memory: about 2 x --jobs decoded shards (1 GiB each by default) per task.
#SBATCH --job-name=zarrkit-convert
#SBATCH --array=0-3
#SBATCH --cpus-per-task=1
#SBATCH --mem=4G
#SBATCH --output=zarrkit-convert-%A_%a.log
set -euo pipefail
src=$1
dst=$2
shift 2
exec zarrkit convert "$src" "$dst" --jobs "${SLURM_CPUS_PER_TASK:-1}" --progress json "$@"
