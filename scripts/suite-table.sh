#!/usr/bin/env bash
# The Connect Four test-set table of docs/measurements/connect4-test-sets.md: solves each of the six sets with one thread
# (or $THREADS) and prints a Markdown table beside the reference solver's published figures.
#
#   scripts/suite-table.sh [SET ...]        # default: all six, easiest first
#
# Environment: CUTOFF (binary, default target/release/cutoff, built if missing), THREADS
# (default 1), TT_MB (default 64), LIMIT (solve only the first N lines of each set).
# Begin-Hard alone takes about 15 minutes with two threads (THREADS=2) on the machine docs/measurements/index.md names.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${CUTOFF:-target/release/cutoff}
if [ ! -x "$bin" ]; then cargo build --release -p cutoff-cli; fi
sets=("$@")
[ ${#sets[@]} -eq 0 ] && sets=(end-easy middle-easy middle-medium begin-easy begin-medium begin-hard)
extra=()
[ -n "${LIMIT:-}" ] && extra=(--limit "$LIMIT")
echo "| set | positions | mismatches | mean nodes | + forced | reference nodes | mean time | reference time | K nodes/s | first-move cutoffs |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
for s in "${sets[@]}"; do
  json=$("$bin" suite "positions/connect4/$s.txt" --threads "${THREADS:-1}" --tt-mb "${TT_MB:-64}" \
    "${extra[@]}" --json)
  python3 - "$s" "$json" <<'PY'
import json, sys
# The reference strong solver's published means (nodes, microseconds) per set.
ref = {"end-easy": (51, 4.6), "middle-easy": (450, 37), "middle-medium": (39900, 3200),
       "begin-easy": (3298, 255), "begin-medium": (1.2e6, 97e3), "begin-hard": (65.9e6, 5.5e6)}
name, d = sys.argv[1], json.loads(sys.argv[2])
def t(us):
    return f"{us:.1f} us" if us < 1e3 else f"{us/1e3:.1f} ms" if us < 1e6 else f"{us/1e6:.2f} s"
rn, rt = ref[name]
cells = [name, d["positions"], d["mismatches"], f"{d['mean_nodes']:,.0f}",
         f"{d.get('mean_forced', 0):,.0f}", f"{rn:,.0f}",
         t(d["mean_us"]), t(rt), f"{d['knps']:,.0f}", f"{100 * d['first_move_cutoff_rate']:.1f}%"]
print("| " + " | ".join(str(c) for c in cells) + " |")
PY
done
