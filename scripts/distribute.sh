#!/usr/bin/env bash
# The figures of `cutoff distribute` against a direct one-thread solve
# (docs/measurements/distributed.md): for each of the first N Begin-Hard lines (or the
# positions given), the value of both (they must agree with the test set's score), the
# nodes of both and their ratio, the jobs, the wall times, and a last line with the totals.
#
#   scripts/distribute.sh [N] [-- DISTRIBUTE_ARGS...]
#
# Environment: CUTOFF (default target/release/cutoff), SET (default
# positions/connect4/begin-hard.txt; `#` lines are skipped), BOARD (WxH, for a set of
# positions/connect4/boards/), DIRS (the run folders' parent, default a temporary one).
# Prints a markdown table; exits 1 if any value disagrees.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cutoff=${CUTOFF:-$root/target/release/cutoff}
set_file=${SET:-$root/positions/connect4/begin-hard.txt}
n=${1:-20}
shift || true
[[ ${1:-} == -- ]] && shift
extra=("$@")
[[ -x $cutoff ]] || { echo "distribute.sh: no cutoff binary at $cutoff" >&2; exit 2; }
dirs=${DIRS:-$(mktemp -d /tmp/cutoff-distribute.XXXXXX)}
bad=0
board=()
[[ -n ${BOARD:-} ]] && board=(--board "$BOARD")
totals=$(mktemp)
echo "| position | score | direct nodes | direct s | distributed nodes (in cancelled jobs) | ratio | jobs | cancelled | split | sent again | wall s |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
while read -r pos score; do
    d=$("$cutoff" solve connect4 "$pos" "${board[@]}" --threads 1 --tt-mb 16 --json -q)
    rm -rf "${dirs:?}/$pos"
    x=$("$cutoff" distribute connect4 "$pos" "${board[@]}" --dir "$dirs/$pos" --json -q "${extra[@]}")
    python3 - "$pos" "$score" "$d" "$x" "$totals" <<'PY' || bad=1
import json, sys
pos, score, d, x = sys.argv[1], int(sys.argv[2]), json.loads(sys.argv[3]), json.loads(sys.argv[4])
ok = d["value"] == x["value"] == score
print(f"| {pos} | {score} | {d['nodes']:,} | {d['time_ms']/1e3:.2f} | {x['nodes']:,} ({x['cancelled_nodes']:,}) | "
      f"{x['nodes']/d['nodes']:.2f} | {x['jobs']} | {x['cancelled']} | {x['splits']} | {x['resent']} | "
      f"{x['time_ms']/1e3:.2f} |" + ("" if ok else f" **value {x['value']}, solve {d['value']}**"))
with open(sys.argv[5], "a") as t:
    t.write(f"{d['nodes']} {d['time_ms']/1e3} {x['nodes']} {x['time_ms']/1e3}\n")
sys.exit(0 if ok else 1)
PY
done < <(grep -v '^#' "$set_file" | head -n "$n")
python3 - "$totals" <<'PY'
import sys
rows = [list(map(float, l.split())) for l in open(sys.argv[1]) if l.strip()]
dn, ds, xn, xs = (sum(r[i] for r in rows) for i in range(4))
if rows:
    print(f"| **all {len(rows)}** | | {dn:,.0f} | {ds:.2f} | {xn:,.0f} | **{xn/dn:.2f}** | | | | | {xs:.2f} |")
PY
rm -f "$totals"
exit $bad
