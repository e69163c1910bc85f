#!/usr/bin/env bash
# Thread scaling of the parallel searches on a fixed workload.
#
#   scripts/scaling.sh [OUT_DIR]
#
# Workload: the first $C4_POSITIONS positions of Begin-Hard (Connect Four, exact solving),
# $TREES deep uniform random trees (PVS) and, with EMPTY=1, the empty Connect Four board
# (`cutoff solve connect4`). For each parallel mode (ybwc, abdada, lazysmp, root) and each thread
# count (1, 2, 4, 8 and 16 by default, whatever the machine's cores: oversubscription is part
# of what is measured) it measures wall time and nodes, and prints speed-up over the serial
# solver (1 thread), search overhead (parallel nodes over serial nodes) and nodes per second.
# Appends each run to OUT_DIR/runs.jsonl, writes the table to OUT_DIR/scaling.json and draws
# it with `cutoff-bench scaling OUT_DIR/scaling.json --svg OUT_DIR/scaling.svg`.
#
# Environment: CUTOFF (binary, default target/release/cutoff, built if missing),
# CUTOFF_BENCH (default target/release/cutoff-bench, built if missing),
# C4_SET (default positions/connect4/begin-hard.txt), C4_POSITIONS (default 10),
# TREES (default 3), THREADS (thread counts, default "1 2 4 8 16"),
# EMPTY (1 to time the empty board too, default 0; it takes
# long), MODES (default "ybwc abdada lazysmp root"), TT_MB (default 64). One thread is measured
# once, as the serial solver, and is every mode's baseline.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-scaling-out}
mkdir -p "$out"
bin=${CUTOFF:-target/release/cutoff}
if [ ! -x "$bin" ]; then cargo build --release -p cutoff-cli; fi
# The figure's drawer, built before the minutes of measuring rather than after.
bench=${CUTOFF_BENCH:-target/release/cutoff-bench}
if [ ! -x "$bench" ]; then cargo build --release -p cutoff-bench; fi
set_file=${C4_SET:-positions/connect4/begin-hard.txt}
npos=${C4_POSITIONS:-10}
ntrees=${TREES:-3}
tt=${TT_MB:-64}
empty=${EMPTY:-0}
modes=${MODES:-ybwc abdada lazysmp root}
read -r -a threads <<< "${THREADS:-1 2 4 8 16}"
[ "${#threads[@]}" -gt 0 ] || { echo "THREADS is empty" >&2; exit 2; }

runs="$out/runs.jsonl"
: > "$runs"
# One measurement: every workload with `$2` threads in mode `$1` ("serial": one thread).
measure() {
  local mode=$1 t=$2 par=$1 s e j
  [ "$mode" = serial ] && par=ybwc
  # Connect Four: one suite run over the positions (the table is fresh for each run).
  s=$EPOCHREALTIME
  j=$("$bin" suite "$set_file" --limit "$npos" --threads "$t" --parallel "$par" --tt-mb "$tt" --json)
  e=$EPOCHREALTIME
  echo "{\"workload\":\"connect4\",\"mode\":\"$mode\",\"threads\":$t,\"seconds\":$(awk "BEGIN{print $e - $s}"),\"run\":$j}" >> "$runs"
  # Random trees, when this build knows them.
  if [ "$ntrees" -gt 0 ] && "$bin" solve random --branching 2 --depth 2 --json >/dev/null 2>&1; then
    for seed in $(seq 1 "$ntrees"); do
      s=$EPOCHREALTIME
      j=$("$bin" solve random --branching 8 --depth 11 --seed "$seed" --order random --algo pvs \
            --threads "$t" --parallel "$par" --tt-mb "$tt" --json)
      e=$EPOCHREALTIME
      echo "{\"workload\":\"random-tree-$seed\",\"mode\":\"$mode\",\"threads\":$t,\"seconds\":$(awk "BEGIN{print $e - $s}"),\"run\":$j}" >> "$runs"
    done
  fi
  # The empty board, when asked for.
  if [ "$empty" = 1 ]; then
    s=$EPOCHREALTIME
    j=$("$bin" solve connect4 --threads "$t" --parallel "$par" --tt-mb "$tt" --json)
    e=$EPOCHREALTIME
    echo "{\"workload\":\"empty\",\"mode\":\"$mode\",\"threads\":$t,\"seconds\":$(awk "BEGIN{print $e - $s}"),\"run\":$j}" >> "$runs"
  fi
}
# One thread is the serial solver whatever the mode: measured once, the baseline of all.
measure serial 1
for mode in $modes; do
  for t in "${threads[@]}"; do
    [ "$t" = 1 ] || measure "$mode" "$t"
  done
done

python3 - "$runs" "$out" <<'PY'
import json, sys
from collections import defaultdict
runs = [json.loads(l) for l in open(sys.argv[1])]
out = sys.argv[2]
def nodes(r):
    run = r["run"]
    return run["mean_nodes"] * run["positions"] if "mean_nodes" in run else run["nodes"]
# Sum each (mode, threads) over the workloads of its family.
agg = defaultdict(lambda: [0.0, 0])
for r in runs:
    fam = r["workload"] if r["workload"] in ("connect4", "empty") else "random-trees"
    a = agg[(fam, r["mode"], r["threads"])]
    a[0] += r["seconds"]; a[1] += nodes(r)
rows = []
# Each mode's line starts from the serial run: one thread is the serial solver in every mode.
for (fam, mode, t), v in list(agg.items()):
    if mode == "serial":
        for m in {k[1] for k in agg if k[1] != "serial"}:
            agg[(fam, m, 1)] = v
for (fam, mode, t), (sec, n) in sorted(agg.items()):
    base = agg.get((fam, "serial", 1))
    if not base or mode == "serial":
        continue
    rows.append(dict(workload=fam, mode=mode, threads=t, seconds=round(sec, 3), nodes=n,
                     speedup=round(base[0] / sec, 2), overhead=round(n / base[1], 3),
                     mnps=round(n / sec / 1e6, 2)))
print(f"{'workload':<13} {'mode':<8} {'threads':>7} {'time s':>9} {'speed-up':>9} {'overhead':>9} {'M nodes/s':>10}")
for r in rows:
    print(f"{r['workload']:<13} {r['mode']:<8} {r['threads']:>7} {r['seconds']:>9.2f} {r['speedup']:>9.2f} {r['overhead']:>9.2f} {r['mnps']:>10.2f}")
json.dump(rows, open(f"{out}/scaling.json", "w"), indent=1)
print(f"wrote {out}/scaling.json")
PY

"$bench" scaling "$out/scaling.json" --svg "$out/scaling.svg"
