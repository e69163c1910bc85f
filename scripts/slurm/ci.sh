#!/usr/bin/env bash
# CI check of the Slurm path, end to end on one machine (Debian 12, as root,
# no input): install Slurm and munge, start a single-node cluster, split a
# Connect Four position into 4 shards, run them as a job array plus a merge
# job, and check the merged value against a plain `cutoff solve`; then solve the same
# position with `cutoff distribute --backend slurm` (a job array a round, useless tasks
# cancelled with scancel), check its value, and print the per-round latency of an array.
#
#   bash scripts/slurm/ci.sh
#
# Prints "SKIP: ..." and exits 0 when the packages cannot be installed (not
# root, no apt-get, no network). Environment: CUTOFF (default:
# target/release/cutoff, built with cargo if missing), POS (default 44444432).
set -euo pipefail

die() { echo "ci.sh: $*" >&2; exit 1; }
now_ms() { echo $(($(date +%s%N) / 1000000)); }
secs() { awk -v ms="$1" 'BEGIN { printf "%.1f", ms / 1000 }'; }

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
pos=${POS:-44444432}
PATH=$PATH:/usr/sbin

# slurm-client brings sbatch, sinfo, scontrol; slurmctld and slurmd the
# daemons; munge the authentication they use.
if ! command -v slurmctld >/dev/null || ! command -v slurmd >/dev/null ||
    ! command -v sbatch >/dev/null || ! command -v munged >/dev/null; then
    if [[ $(id -u) != 0 ]]; then
        echo "SKIP: Slurm is not installed and installing it needs root"
        exit 0
    fi
    if ! command -v apt-get >/dev/null; then
        echo "SKIP: Slurm is not installed and there is no apt-get to install it"
        exit 0
    fi
    t=$(now_ms)
    aptlog=$(mktemp)
    if ! { apt-get update -qq &&
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
            slurmctld slurmd slurm-client munge; } >"$aptlog" 2>&1; then
        echo "SKIP: apt-get could not install slurmctld slurmd slurm-client munge: $(grep -E '^(E|W):' "$aptlog" | tail -n 1)"
        rm -f "$aptlog"
        exit 0
    fi
    rm -f "$aptlog"
    echo "installed slurmctld slurmd slurm-client munge in $(secs $(($(now_ms) - t))) s"
fi

cutoff=${CUTOFF:-$root/target/release/cutoff}
[[ $cutoff == /* ]] || cutoff=$PWD/$cutoff
if [[ ! -x $cutoff && -z ${CUTOFF:-} ]]; then
    (cd "$root" && cargo build --release --quiet -p cutoff-cli) || die "cargo build failed"
fi
[[ -x $cutoff ]] || die "no cutoff binary at $cutoff"
export CUTOFF=$cutoff

work=$(mktemp -d /tmp/cutoff-slurm-ci.XXXXXX)
# munged wants every folder above its socket open to all (mktemp gives 700).
chmod 755 "$work"
state=$work/slurm
# Always stop the daemons, whatever failed.
cleanup() {
    "$here/stop.sh" "$state" || true
    rm -rf "$work"
}
trap cleanup EXIT

# Ports nobody listens on, so that a cluster already running here (on the default ports)
# does not stop this one from starting.
free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}
SLURMCTLD_PORT=${SLURMCTLD_PORT:-$(free_port)}
SLURMD_PORT=${SLURMD_PORT:-$(free_port)}
while [[ $SLURMD_PORT == "$SLURMCTLD_PORT" ]]; do SLURMD_PORT=$(free_port); done
export SLURMCTLD_PORT SLURMD_PORT

t=$(now_ms)
"$here/start.sh" "$state"
echo "cluster start: $(secs $(($(now_ms) - t))) s"
export SLURM_CONF=$state/slurm.conf

split=$work/split.jsonl
"$cutoff" split connect4 "$pos" --depth 2 --shards 4 --out "$split"

t=$(now_ms)
WAIT=1 THREADS=1 "$here/submit.sh" "$split" >"$work/submit.out" ||
    { cat "$work/submit.out" >&2; die "array + merge failed"; }
echo "4-task array + merge: $(secs $(($(now_ms) - t))) s"

merged=$(tail -n 1 "$work/submit.out")
direct=$("$cutoff" solve connect4 "$pos" --json)
fields() {
    python3 -c '
import json, sys
d = json.loads(sys.argv[1])
print(d["value"], d["best_move"])
' "$1"
}
read -r mv mm < <(fields "$merged") || die "merge output is not the expected JSON: $merged"
read -r dv dm < <(fields "$direct") || die "solve output is not the expected JSON: $direct"
echo "slurm merge: value $mv, best move $mm"
echo "plain solve: value $dv, best move $dm"
[[ $mv == "$dv" ]] || die "value mismatch: merged $mv, solved $dv"
# Two moves may share the best value; only the value must agree.
[[ $mm == "$dm" ]] || echo "note: best moves differ ($mm, $dm) with the same value $mv"
echo "ok: slurm array + merge agree with cutoff solve on connect4 $pos"

# The driver: every round a job array, the value checked against the plain solve, and the
# latency of a round (its wall time less its longest task) from the run's summary.
t=$(now_ms)
"$cutoff" distribute connect4 "$pos" --backend slurm --workers 4 --depth 2 \
    --dir "$work/distribute" --json -q >"$work/distribute.json" ||
    die "distribute --backend slurm failed: $(tail -n 3 "$work"/distribute/logs/*.log 2>/dev/null | tail -n 3)"
echo "distribute --backend slurm: $(secs $(($(now_ms) - t))) s"
read -r xv xm < <(fields "$(cat "$work/distribute.json")") ||
    die "distribute output is not the expected JSON"
echo "slurm distribute: value $xv, best move $xm"
[[ $xv == "$dv" ]] || die "value mismatch: distributed $xv, solved $dv"
python3 - "$work/distribute/summary.json" <<'PY'
import json, statistics, sys
s = json.load(open(sys.argv[1]))
lat = [r["wall_seconds"] - max(r["task_seconds"] or [0]) for r in s["round_costs"]]
print(f"slurm rounds: {len(lat)}, jobs {s['jobs']}, cancelled {s['cancelled']}; "
      f"per-round latency (wall less the longest task): median {statistics.median(lat):.3f} s, "
      f"min {min(lat):.3f} s, max {max(lat):.3f} s")
PY
echo "ok: cutoff distribute --backend slurm agrees with cutoff solve on connect4 $pos"
