#!/usr/bin/env bash
# Solves Connect Four's empty board on every board of at least 4x4 with at most MAX_CELLS cells
# (default 42, 7x6's size) and prints a Markdown table: the value, the winner and the move the
# game ends on with perfect play, the published result (Tromp for W + H <= 15; the end moves
# from Steininger's results table) and the time, with the total at the end.
#
#   bash scripts/sizes.sh [MAX_CELLS] [CUTOFF]      (CUTOFF: default target/release/cutoff)
#
# Extra arguments for every solve (threads, table size) go in $SOLVE_ARGS.
set -euo pipefail
max=${1:-42}
cutoff=${2:-target/release/cutoff}
[ -x "$cutoff" ] || { echo "sizes.sh: no binary at $cutoff (cargo build --release -p cutoff-cli)" >&2; exit 1; }

# WxH winner end-move: 1 first player, -1 second, 0 draw.
published() {
    case "$1" in
        4x4) echo "0 16" ;; 5x4) echo "0 20" ;; 6x4) echo "-1 24" ;; 7x4) echo "0 28" ;;
        8x4) echo "-1 32" ;; 9x4) echo "-1 36" ;; 10x4) echo "-1 40" ;;
        4x5) echo "0 20" ;; 5x5) echo "0 25" ;; 6x5) echo "0 30" ;; 7x5) echo "0 35" ;;
        8x5) echo "1 39" ;;
        4x6) echo "0 24" ;; 5x6) echo "0 30" ;; 6x6) echo "-1 36" ;; 7x6) echo "1 41" ;;
        4x7) echo "0 28" ;; 5x7) echo "0 35" ;; 6x7) echo "1 41" ;;
        4x8) echo "0 32" ;; 5x8) echo "0 40" ;; 4x9) echo "0 36" ;; 4x10) echo "0 40" ;;
        *) echo "? ?" ;;
    esac
}

echo "| board | value | result | published | agrees | time (s) |"
echo "|---|---:|---|---|---|---:|"
total_start=$(date +%s.%N)
wrong=0
for h in $(seq 4 32); do
    for w in $(seq 4 32); do
        [ $((w * h)) -le "$max" ] || continue
        board="${w}x${h}"
        start=$(date +%s.%N)
        # shellcheck disable=SC2086
        json=$("$cutoff" solve connect4 --board "$board" --json ${SOLVE_ARGS:-})
        end=$(date +%s.%N)
        read -r value winner at < <(python3 -c '
import json, sys
r = json.loads(sys.argv[1]); v = r["value"]; cells = int(sys.argv[2])
# A win on move m is worth 1 + (cells - m) // 2: the first player moves on odd m.
ms = [m for m in range(1, cells + 1) if 1 + (cells - m) // 2 == abs(v) and (m % 2 == 1) == (v > 0)]
print(v, (v > 0) - (v < 0), ms[0] if v else cells)' "$json" $((w * h)))
        read -r pw pat < <(published "$board")
        words=$([ "$winner" = 1 ] && echo "1st wins on move $at" || { [ "$winner" = -1 ] && echo "2nd wins on move $at" || echo "draw"; })
        pwords=$([ "$pw" = 1 ] && echo "1st, move $pat" || { [ "$pw" = -1 ] && echo "2nd, move $pat" || { [ "$pw" = 0 ] && echo "draw" || echo "-"; }; })
        if [ "$pw" = "?" ]; then agrees="-"
        elif [ "$pw" = "$winner" ] && [ "$pat" = "$at" ]; then agrees="yes"
        else agrees="NO"; wrong=$((wrong + 1)); fi
        printf '| %s | %s | %s | %s | %s | %.2f |\n' "$board" "$value" "$words" "$pwords" "$agrees" "$(echo "$end - $start" | bc)"
    done
done
total_end=$(date +%s.%N)
printf '\nTotal: %.1f s; %d disagree with the published table.\n' "$(echo "$total_end - $total_start" | bc)" "$wrong"
[ "$wrong" -eq 0 ]
