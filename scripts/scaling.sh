#!/usr/bin/env bash
# Thread scaling of the parallel searches on a fixed workload.
#
#   scripts/scaling.sh [OUT_DIR]
#
# Workload: the first $C4_POSITIONS positions of Begin-Hard (Connect Four, exact solving) and
# $TREES deep uniform random trees (PVS). For each parallel mode (ybwc, lazysmp, root) and each
# thread count 1, 2, 4, ... up to the machine's cores it measures wall time and nodes, and
# prints speed-up over the serial solver (1 thread), search overhead (parallel nodes over
# serial nodes) and nodes per second. Writes OUT_DIR/scaling.json and OUT_DIR/scaling.svg.
#
# Environment: CUTOFF (binary, default target/release/cutoff, built if missing),
# C4_SET (default positions/connect4/begin-hard.txt), C4_POSITIONS (default 10),
# TREES (default 3), MAX_THREADS (default: all cores), TT_MB (default 64).
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-scaling-out}
mkdir -p "$out"
bin=${CUTOFF:-target/release/cutoff}
if [ ! -x "$bin" ]; then cargo build --release -p cutoff-cli; fi
set_file=${C4_SET:-positions/connect4/begin-hard.txt}
npos=${C4_POSITIONS:-10}
ntrees=${TREES:-3}
cores=${MAX_THREADS:-$(nproc)}
tt=${TT_MB:-64}

threads=()
t=1
while [ "$t" -le "$cores" ]; do threads+=("$t"); t=$((t * 2)); done
[ "${threads[-1]}" -ne "$cores" ] && threads+=("$cores")

runs="$out/runs.jsonl"
: > "$runs"
for mode in ybwc lazysmp root; do
  for t in "${threads[@]}"; do
    # Connect Four: one suite run over the positions (the table is fresh for each run).
    s=$EPOCHREALTIME
    j=$("$bin" suite "$set_file" --limit "$npos" --threads "$t" --parallel "$mode" --tt-mb "$tt" --json)
    e=$EPOCHREALTIME
    echo "{\"workload\":\"connect4\",\"mode\":\"$mode\",\"threads\":$t,\"seconds\":$(awk "BEGIN{print $e - $s}"),\"run\":$j}" >> "$runs"
    # Random trees, when this build knows them.
    if [ "$ntrees" -gt 0 ] && "$bin" solve random --branching 2 --depth 2 --json >/dev/null 2>&1; then
      for seed in $(seq 1 "$ntrees"); do
        s=$EPOCHREALTIME
        j=$("$bin" solve random --branching 8 --depth 11 --seed "$seed" --order random --algo pvs \
              --threads "$t" --parallel "$mode" --tt-mb "$tt" --json)
        e=$EPOCHREALTIME
        echo "{\"workload\":\"random-tree-$seed\",\"mode\":\"$mode\",\"threads\":$t,\"seconds\":$(awk "BEGIN{print $e - $s}"),\"run\":$j}" >> "$runs"
      done
    fi
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
    fam = "connect4" if r["workload"] == "connect4" else "random-trees"
    a = agg[(fam, r["mode"], r["threads"])]
    a[0] += r["seconds"]; a[1] += nodes(r)
rows = []
for (fam, mode, t), (sec, n) in sorted(agg.items()):
    base = agg.get((fam, mode, 1))
    if not base:
        continue
    rows.append(dict(workload=fam, mode=mode, threads=t, seconds=round(sec, 3), nodes=n,
                     speedup=round(base[0] / sec, 2), overhead=round(n / base[1], 3),
                     mnps=round(n / sec / 1e6, 2)))
print(f"{'workload':<13} {'mode':<8} {'threads':>7} {'time s':>9} {'speed-up':>9} {'overhead':>9} {'M nodes/s':>10}")
for r in rows:
    print(f"{r['workload']:<13} {r['mode']:<8} {r['threads']:>7} {r['seconds']:>9.2f} {r['speedup']:>9.2f} {r['overhead']:>9.2f} {r['mnps']:>10.2f}")
json.dump(rows, open(f"{out}/scaling.json", "w"), indent=1)
# SVG: speed-up against threads, one line per (workload, mode), with the ideal diagonal.
W, H, L, B = 640, 420, 60, 50
tmax = max(r["threads"] for r in rows)
smax = max(max(r["speedup"] for r in rows), tmax)
x = lambda t: L + (W - L - 20) * (t - 1) / max(tmax - 1, 1)
y = lambda s: H - B - (H - B - 20) * s / smax
colors = {"ybwc": "#d62728", "lazysmp": "#1f77b4", "root": "#2ca02c"}
svg = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" font-family="sans-serif" font-size="12">',
       f'<rect width="{W}" height="{H}" fill="white"/>',
       f'<line x1="{L}" y1="{H-B}" x2="{W-20}" y2="{H-B}" stroke="black"/>',
       f'<line x1="{L}" y1="{H-B}" x2="{L}" y2="20" stroke="black"/>',
       f'<text x="{W/2}" y="{H-10}" text-anchor="middle">threads</text>',
       f'<text x="15" y="{H/2}" transform="rotate(-90 15 {H/2})" text-anchor="middle">speed-up over 1 thread</text>',
       f'<line x1="{x(1)}" y1="{y(1)}" x2="{x(tmax)}" y2="{y(tmax)}" stroke="#999" stroke-dasharray="4"/>']
for t in sorted({r["threads"] for r in rows}):
    svg.append(f'<text x="{x(t)}" y="{H-B+16}" text-anchor="middle">{t}</text>')
legend = 0
for fam in sorted({r["workload"] for r in rows}):
    for mode in ("ybwc", "lazysmp", "root"):
        pts = [(r["threads"], r["speedup"]) for r in rows if r["workload"] == fam and r["mode"] == mode]
        if not pts:
            continue
        dash = '' if fam == "connect4" else ' stroke-dasharray="6 3"'
        svg.append(f'<polyline fill="none" stroke="{colors[mode]}" stroke-width="2"{dash} points="' +
                   " ".join(f"{x(t):.1f},{y(s):.1f}" for t, s in pts) + '"/>')
        svg.append(f'<text x="{L+10}" y="{30+14*legend}" fill="{colors[mode]}">{fam} {mode}</text>')
        legend += 1
svg.append("</svg>")
open(f"{out}/scaling.svg", "w").write("\n".join(svg))
print(f"wrote {out}/scaling.json and {out}/scaling.svg")
PY
