#!/usr/bin/env bash
# Submit a split file to Slurm: a job array with one task a shard
# (`cutoff solve-shard`, index from SLURM_ARRAY_TASK_ID), then a merge job
# that starts once every task has succeeded (afterok) and writes
# `cutoff merge FILE DIR --json` to DIR/merge.json.
#
#   scripts/slurm/submit.sh FILE [PARALLEL]   # PARALLEL: most tasks at once
#
# Environment:
#   CUTOFF   the binary (default: target/release/cutoff in the repository);
#            it must be reachable at the same path from the compute nodes
#   RESULTS  the results folder (default: FILE.results); logs go to its logs/
#   THREADS  threads a task (--threads and --cpus-per-task; default 1)
#   WAIT=1   wait for the merge job, print its output, and fail if it failed
#   SBATCH_* sbatch's own variables (SBATCH_PARTITION, SBATCH_ACCOUNT, ...)
# Prints ARRAY_JOB=<id> and MERGE_JOB=<id> on standard output.
set -euo pipefail

die() { echo "submit.sh: $*" >&2; exit 1; }

(($# >= 1 && $# <= 2)) || die "usage: submit.sh FILE [PARALLEL]"
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
# Absolute paths throughout: the jobs may start in another folder or node.
[[ -f $1 ]] || die "no split file: $1"
file=$(realpath -- "$1")
cutoff=${CUTOFF:-$root/target/release/cutoff}
[[ $cutoff == /* ]] || cutoff=$PWD/$cutoff
[[ -x $cutoff ]] || die "no cutoff binary at $cutoff (build it, or set CUTOFF)"
results=$(realpath -m -- "${RESULTS:-$file.results}")
threads=${THREADS:-1}
[[ $threads =~ ^[1-9][0-9]*$ ]] || die "THREADS must be a positive integer, not '$threads'"
command -v sbatch >/dev/null 2>&1 || die "sbatch not found (install slurm-client)"

shards=$(python3 -c '
import json, sys
with open(sys.argv[1]) as f:
    print(int(json.loads(f.readline())["shards"]))
' "$file" 2>/dev/null) || die "$file: no split header with a shard count on its first line"
((shards >= 1)) || die "$file: shard count $shards"
parallel=${2:-$shards}
[[ $parallel =~ ^[1-9][0-9]*$ ]] || die "PARALLEL must be a positive integer, not '$parallel'"

# Slurm does not create the folders of --output files.
mkdir -p "$results/logs"
q() { printf '%q' "$1"; }
# --parsable prints "id" or "id;cluster".
array=$(sbatch --parsable --job-name=cutoff-shards \
    --array="0-$((shards - 1))%$parallel" --cpus-per-task="$threads" \
    --chdir="$PWD" --output="$results/logs/shard-%a.out" \
    --wrap="exec $(q "$cutoff") solve-shard $(q "$file") --out $(q "$results") --threads $threads")
array=${array%%;*}
# --kill-on-invalid-dep: if a task fails the merge job is cancelled rather
# than left pending for ever (and WAIT=1 returns).
merge=$(sbatch --parsable --job-name=cutoff-merge \
    --dependency="afterok:$array" --kill-on-invalid-dep=yes \
    --chdir="$PWD" --output="$results/merge.json" --error="$results/logs/merge.err" \
    --wrap="exec $(q "$cutoff") merge $(q "$file") $(q "$results") --json")
merge=${merge%%;*}
echo "ARRAY_JOB=$array"
echo "MERGE_JOB=$merge"
echo "submit.sh: $shards tasks (at most $parallel at once, $threads thread(s) each) in job $array, merge in job $merge -> $results/merge.json" >&2

[[ ${WAIT:-0} == 1 ]] || exit 0

# Poll the controller: every 0.25 s for the first minute (a small split
# takes seconds and `sbatch --wait` would first look after 2 s, then 8 s,
# then 32 s), then every 5 s so that a long run does not hammer it.
job_field() { grep -o "\b$1=[^ ]*" <<<"$info" | head -n 1 | cut -d= -f2; }
start=$SECONDS
while :; do
    if info=$(scontrol -o show job "$merge" 2>/dev/null); then
        state=$(job_field JobState)
    elif command -v sacct >/dev/null 2>&1; then
        # The controller forgot it (MinJobAge passed): ask accounting.
        state=$(sacct -n -X -P -j "$merge" -o State 2>/dev/null | head -n 1)
        state=${state%% *}
        info=""
    else
        die "merge job $merge is gone and there is no sacct to ask how it ended"
    fi
    case $state in
        PENDING | RUNNING | CONFIGURING | COMPLETING | SUSPENDED | REQUEUED | RESIZING | "")
            if ((SECONDS - start < 60)); then sleep 0.25; else sleep 5; fi
            ;;
        COMPLETED)
            break
            ;;
        *)
            reason=$(job_field Reason || true)
            echo "submit.sh: merge job $merge ended $state${reason:+ ($reason)}; logs in $results/logs" >&2
            # Which tasks failed, while the controller still knows them.
            scontrol -o show job "$array" 2>/dev/null |
                grep -o 'ArrayTaskId=[^ ]* .*JobState=[^ ]*' |
                sed -E 's/ArrayTaskId=([^ ]*) .*JobState=([^ ]*)/  task \1: \2/' |
                grep -v COMPLETED >&2 || true
            for f in "$results/logs/merge.err" "$results"/logs/shard-*.out; do
                [[ -s $f ]] && grep -qi 'error' "$f" && { echo "--- $f" >&2; tail -n 5 "$f" >&2; }
            done
            exit 1
            ;;
    esac
done
cat "$results/merge.json"
