#!/usr/bin/env bash
# The side-by-side table of docs/measurements/side-by-side.md: cutoff against the two reference Connect Four solvers (Pons'
# part-12 solver and Steininger's), measured on this machine in one run.
#
#   scripts/side-by-side.sh [bm200] [bh50] [empty]     # default: all three, in this order
#
# Workloads, each best of $ROUNDS:
#   bm200  the first 200 lines of positions/connect4/begin-medium.txt, 1 thread, 64 MiB tables
#   bh50   the first 50 lines of positions/connect4/begin-hard.txt, 1 thread, 64 MiB tables
#   empty  the empty board, 1 GiB tables: cutoff with $EMPTY_THREADS threads (default 2);
#          Steininger's own program (c4-steininger-empty) always uses all cores (nproc);
#          Pons' solver is not run on it.
#
# The measuring is done by the references' own script, $ANCHORS/side-by-side.sh: a set is run
# once with ROUNDS (it alternates the three programs round by round and keeps each one's best
# mean time); `empty` is run ROUNDS times, keeping each program's best wall time. Its cutoff is
# started through a wrapper that passes --threads $EMPTY_THREADS (that script's empty mode
# would let cutoff use all cores). cutoff's table policy in `suite` is that command's default.
#
# Prints the machine (nproc, CPU model), the date and one Markdown table: per workload the mean
# time (ms) and mean nodes of cutoff, Pons and Steininger, the time ratios cutoff/Steininger
# and cutoff/Pons, the node rates (M nodes/s) of cutoff and Pons, and the number of wrong scores
# (all programs together). Node counts are each program's own definition (see the anchors'
# docs/design/connect4.md); times compare.
#
# Exit status: 0 all scores right, 1 a wrong score, 2 something missing or failed (no
# references: the project's tests and CI never need them).
#
# Environment: ANCHORS (the references, default ../shared/anchors beside the repository),
# CUTOFF (binary, default target/release/cutoff), ROUNDS (default 3), EMPTY_THREADS (default 2),
# SETS_HEAD (testing only: take this many lines of each set instead of 200 and 50).
set -euo pipefail
die() { echo "side-by-side: $*" >&2; exit 2; }
# Paths given in the environment are taken from the caller's directory.
abs() { case "$1" in /*) echo "$1" ;; *) echo "$PWD/$1" ;; esac; }
[ -n "${ANCHORS:-}" ] && ANCHORS=$(abs "$ANCHORS")
[ -n "${CUTOFF:-}" ] && CUTOFF=$(abs "$CUTOFF")
cd "$(dirname "$0")/.."
root=$(pwd)
anchors=${ANCHORS:-$(cd .. && pwd)/shared/anchors}
cutoff=${CUTOFF:-$root/target/release/cutoff}
rounds=${ROUNDS:-3}
empty_threads=${EMPTY_THREADS:-2}
[[ "$rounds" =~ ^[1-9][0-9]*$ ]] || die "ROUNDS must be a positive integer, not '$rounds'"
[[ "$empty_threads" =~ ^[1-9][0-9]*$ ]] || die "EMPTY_THREADS must be a positive integer, not '$empty_threads'"
if [ -n "${SETS_HEAD:-}" ]; then
  [[ "$SETS_HEAD" =~ ^[1-9][0-9]*$ ]] || die "SETS_HEAD must be a positive integer, not '$SETS_HEAD'"
fi

workloads=("$@")
[ ${#workloads[@]} -eq 0 ] && workloads=(bm200 bh50 empty)
for w in "${workloads[@]}"; do
  case "$w" in
    bm200 | bh50 | empty) ;;
    *) die "unknown workload '$w' (usage: scripts/side-by-side.sh [bm200] [bh50] [empty])" ;;
  esac
done

missing=()
[ -d "$anchors" ] || die "no reference solvers: directory $anchors is missing (set ANCHORS=dir)"
for f in side-by-side.sh c4-pons c4-steininger-1t c4-steininger-empty; do
  [ -x "$anchors/$f" ] || missing+=("$f")
done
[ ${#missing[@]} -eq 0 ] || die "no reference solvers: $anchors lacks ${missing[*]} (set ANCHORS=dir)"
[ -x "$cutoff" ] || die "no cutoff binary at $cutoff (cargo build --release -p cutoff-cli, or set CUTOFF)"
command -v python3 >/dev/null || die "python3 is needed"
[ -x /usr/bin/time ] || die "/usr/bin/time is needed (the references' script times the empty board with it)"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# One anchors run: its output in $tmp/NAME.out; exit 1 (a wrong score) is kept for the table.
anchor_run() {
  local name=$1 rc=0
  shift
  "$@" >"$tmp/$name.out" 2>"$tmp/$name.err" || rc=$?
  if [ "$rc" -ne 0 ] && [ "$rc" -ne 1 ]; then
    cat "$tmp/$name.out" "$tmp/$name.err" >&2
    die "$anchors/side-by-side.sh failed (exit $rc) on $name"
  fi
}

rows=()
for w in "${workloads[@]}"; do
  case "$w" in
    bm200 | bh50)
      if [ "$w" = bm200 ]; then file=begin-medium label=Begin-Medium n=200; else file=begin-hard label=Begin-Hard n=50; fi
      n=${SETS_HEAD:-$n}
      head -n "$n" "positions/connect4/$file.txt" >"$tmp/$w.txt"
      n=$(grep -c . "$tmp/$w.txt")
      echo "side-by-side: $label, first $n positions, 1 thread, best of $rounds ..." >&2
      anchor_run "$w" env CUTOFF="$cutoff" "$anchors/side-by-side.sh" "$tmp/$w.txt" "$rounds"
      rows+=("$(printf 'set\t%s\t%s' "$w" "$label, first $n, 1 thread, 64 MiB")")
      ;;
    empty)
      # cutoff's half with an explicit thread count, whatever the references' script passes.
      cat >"$tmp/cutoff-threads" <<EOF
#!/usr/bin/env bash
args=()
while [ \$# -gt 0 ]; do
  case "\$1" in
    --threads) shift 2 ;;
    --threads=*) shift ;;
    *) args+=("\$1"); shift ;;
  esac
done
exec $(printf %q "$cutoff") "\${args[@]}" --threads $empty_threads
EOF
      chmod +x "$tmp/cutoff-threads"
      for r in $(seq "$rounds"); do
        echo "side-by-side: empty board, round $r of $rounds (minutes) ..." >&2
        anchor_run "empty.$r" env CUTOFF="$tmp/cutoff-threads" "$anchors/side-by-side.sh" empty
      done
      threads_word=threads
      [ "$empty_threads" -eq 1 ] && threads_word=thread
      rows+=("$(printf 'empty\tempty\t%s' "empty board, 1 GiB: cutoff $empty_threads $threads_word, Steininger all $(nproc) cores")")
      ;;
  esac
done
printf '%s\n' "${rows[@]}" >"$tmp/rows"

cpu=$(grep -m1 '^model name' /proc/cpuinfo | sed 's/^[^:]*: *//')
rev=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
[ -n "$(git status --porcelain --untracked-files=no 2>/dev/null)" ] && rev="$rev (modified)"
echo "Machine: $(nproc) cores, ${cpu:-unknown CPU}. Date: $(date -u '+%Y-%m-%d %H:%M UTC'). cutoff at $rev; best of $rounds."
echo
python3 - "$tmp" "$rounds" <<'PY'
import re, sys

t, rounds = sys.argv[1], int(sys.argv[2])

def num(s):
    return float(s.replace(",", ""))

def table_rows(path):
    """The references' script's table: label -> its cells."""
    out = {}
    for line in open(path):
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) >= 4 and not cells[0].startswith("-"):
            out[cells[0]] = cells
    return out

def fail(msg):
    print(f"side-by-side: {msg}", file=sys.stderr)
    sys.exit(2)

def find(rows, prefix, path):
    for label, cells in rows.items():
        if label.startswith(prefix):
            return cells
    fail(f"no '{prefix}' row in the references' output ({path})")

def from_set(w):
    # | label | mean nodes | mean time (x.xx ms) | wrong | ratio |
    path = f"{t}/{w}.out"
    rows = table_rows(path)
    res = {}
    for key, prefix in (("cutoff", "cutoff"), ("pons", "pons"), ("stein", "steininger")):
        c = find(rows, prefix, path)
        res[key] = (num(c[2].split()[0]), num(c[1]), int(c[3]))  # ms, nodes, wrong
    return res

def from_empty():
    # | label | value | nodes | wall s | ratio |, one file per round: each program's best wall
    # time (with that run's nodes); wrong 1 if any round's value was not the empty board's +1.
    best, wrong = {}, {}
    for r in range(1, rounds + 1):
        path = f"{t}/empty.{r}.out"
        rows = table_rows(path)
        for key, prefix in (("cutoff", "cutoff"), ("stein", "steininger")):
            c = find(rows, prefix, path)
            ms, n = num(c[3]) * 1000, num(c[2])
            if key not in best or ms < best[key][0]:
                best[key] = (ms, n)
            wrong[key] = max(wrong.get(key, 0), 0 if c[1] == "1" else 1)
    res = {key: best[key] + (wrong[key],) for key in best}
    res["pons"] = None
    return res

def ms(x):
    return f"{x:,.0f}" if x >= 1000 else f"{x:.1f}" if x >= 10 else f"{x:.2f}"

def nodes(x):
    for unit, scale in (("G", 1e9), ("M", 1e6), ("K", 1e3)):
        if x >= scale:
            return f"{x / scale:.2f} {unit}"
    return f"{x:.0f}"

def ratio(a, b):
    return f"{a / b:.2f}" if b > 0 else "-"

def rate(n, t_ms):
    return f"{n / t_ms / 1e3:.2f}" if t_ms > 0 else "-"  # nodes per ms / 1e3 = M nodes/s

print("| workload | cutoff ms | cutoff nodes | Pons ms | Pons nodes | Steininger ms | Steininger nodes"
      " | cutoff / Steininger time | cutoff / Pons time | cutoff M nodes/s | Pons M nodes/s | wrong scores |")
print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
bad = 0
for line in open(f"{t}/rows"):
    kind, w, label = line.rstrip("\n").split("\t")
    res = from_set(w) if kind == "set" else from_empty()
    c, p, s = res["cutoff"], res["pons"], res["stein"]
    wrong = c[2] + s[2] + (p[2] if p else 0)
    bad += wrong
    cells = [label, ms(c[0]), nodes(c[1]),
             ms(p[0]) if p else "-", nodes(p[1]) if p else "-",
             ms(s[0]), nodes(s[1]),
             ratio(c[0], s[0]), ratio(c[0], p[0]) if p else "-",
             rate(c[1], c[0]), rate(p[1], p[0]) if p else "-",
             str(wrong)]
    print("| " + " | ".join(cells) + " |")
    if wrong:
        who = [f"{n} {x[2]}" for n, x in (("cutoff", c), ("Pons", p), ("Steininger", s)) if x and x[2]]
        print(f"wrong scores on {label}: " + ", ".join(who), file=sys.stderr)
sys.exit(1 if bad else 0)
PY
