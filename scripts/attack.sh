#!/usr/bin/env bash
# Attacks the `cutoff` binary with malformed, boundary and huge inputs, and flags every one
# that it does not handle as a command-line tool should (issue 9, part 3: "never abort, never
# hang on accepted input").
#
#   scripts/attack.sh [BINARY]        (default: target/release/cutoff)
#
# Each input runs under `timeout $TIME_LIMIT` (default 20 s) with `ulimit -v $MEM_KIB`
# (default 4 GiB), standard output thrown away. One line per input: the verdict, the exit
# status, the wall time, the bytes on standard error, the input's name and, if flagged, why.
# An input is flagged for:
#   - exit status 134 (abort), 139 (segfault), 101 (panic) or any other death by signal;
#   - exit status 124 or 137: it ran past the time limit (or was killed for memory);
#   - "panicked" on standard error;
#   - a line on standard error over 200 bytes, or with control characters;
#   - our own error (exit status 1) that is not exactly one line, or a failure that says
#     nothing. (clap's usage errors, exit status 2, may take several lines.)
#
# VERBOSE=1 also shows each message's first line.
#
# Exit status: 0 nothing flagged, 1 some input flagged (listed again at the end), 2 no binary.
set -uo pipefail

bin=${1:-target/release/cutoff}
if [ ! -x "$bin" ]; then
  echo "attack.sh: no executable at '$bin' (cargo build --release -p cutoff-cli)" >&2
  exit 2
fi
bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")
parts=$(cd "$(dirname "$0")" && pwd)/attack
TIME_LIMIT=${TIME_LIMIT:-20}
MEM_KIB=${MEM_KIB:-4194304}

work=$(mktemp -d "${TMPDIR:-/tmp}/cutoff-attack.XXXXXX")
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 2

# ---------------------------------------------------------------------------------------
# Fixtures.

esc=$'\e[31m'
long=$(head -c 100000 /dev/zero | tr '\0' 7)        # arguments: at most 128 KiB on Linux
longx=$(head -c 100000 /dev/zero | tr '\0' x)
bom=$'\xef\xbb\xbf'
: > empty
printf ' \n\t\n  \n' > blank
printf '%s(3 5) (2 9)\n' "$bom" > bom.tree
printf '((3 11) (2 13 7 8 6)) ((0 4 5) (1 15))\r\n' > crlf.tree
{ printf '(1 '; head -c 10485760 /dev/zero | tr '\0' x; printf ')\n'; } > bigtoken.tree
{ printf '('; yes 1 | head -c 10000000 | tr '\n' ' '; printf ')\n'; } > wide.tree
head -c 1000000 /dev/zero | tr '\0' '(' > deep.tree
printf '(1 2%s)\n' "$esc" > esc.tree
printf '(1 %s:2)\n' "$esc" > esclabel.tree
printf '(1 2 \xff\xfe)\n' > nonutf8.tree
printf '(1 2 \0 3)\n' > nul.tree
printf '(1 99999999999999999999999)\n' > hugeleaf.tree
printf '(a:1 a:2)\n' > duplabel.tree
head -c 17825792 /dev/zero | tr '\0' ' ' > over16mib.txt
head -c 16777216 /dev/zero | tr '\0' ' ' > exactly16mib.txt
suite_ok='2252576253462244111563365343671351441 -1
7422341735647741166133573473242566 1'
printf '%s\n' "$suite_ok" > ok.suite
printf '%s%s\n' "$bom" "$suite_ok" > bom.suite
printf '# only a comment\n\n' > comment.suite
printf '44 1 %s\n' "$longx" > bigline.suite
{ head -c 10485760 /dev/zero | tr '\0' 4; printf ' 0\n'; } > bigmoves.suite
printf '44 1%s\n' "$esc" > esc.suite
printf '44 x\n' > badscore.suite
printf '2252576253462244111563365343671351441 99999999999999999999\n' > hugescore.suite
printf '2252576253462244111563365343671351441 -99999999999\n' > negscore.suite
printf '44\xff 1\n' > nonutf8.suite
printf '4444444 0\n' > fullcol.suite
printf 'XXO\n#X#\n#OO\n' > ural.ok
printf '%sXXO\r\n#X#\r\n#OO\r\n' "$bom" > ural.bom
printf 'XXO\n#%s#\n#OO\n' "$esc" > ural.esc
printf '%s\n' "$longx" > ural.long
printf '1\n2\n01\n10\n' > control.ok
printf '%s1\n2\n01\n10\n' "$bom" > control.bom
printf '99999999999999999999\n' > control.hugek
printf -- '-1\n' > control.negk
printf '1\n2\n0%s\n10\n' "$esc" > control.esc
printf '1\n2\n01\n10\n\nextra %s\n' "$longx" > control.trailing
{ echo 1; echo 30; for i in $(seq 0 29); do r=""; for j in $(seq 0 29); do
    if [ $((i - j)) -eq 1 ] || [ $((j - i)) -eq 1 ]; then r+=1; else r+=0; fi; done; echo "$r"; done; } > control.path30
{ echo 1; echo 64; for i in $(seq 1 64); do head -c 64 /dev/zero | tr '\0' 0; echo; done; } > control.empty64
{ echo 1000; for b in $(seq 1 1000); do echo 2; echo 01; echo 10; done; } > control.k1000
zeros64=$(for i in $(seq 1 64); do head -c 64 /dev/zero | tr '\0' 0; printf /; done)
zeros65=$(for i in $(seq 1 65); do head -c 65 /dev/zero | tr '\0' 0; printf /; done)
printf '2\n01\n10\n' > matrix.txt
printf '%s2\n01\n10\n' "$bom" > matrix.bom
mkdir adir

# ---------------------------------------------------------------------------------------
# The attack.

total=0
flagged=()

# attack NAME STDIN ARGS...: runs the binary with ARGS, STDIN on standard input.
attack() {
  local name=$1 stdin=$2
  shift 2
  total=$((total + 1))
  local t0 t1 status reasons=() errbytes lines
  t0=$(date +%s%N)
  # The braces keep the shell's own "Aborted" notice off the report.
  {
    (
      ulimit -v "$MEM_KIB"
      exec timeout -k 5 "$TIME_LIMIT" "$bin" "$@"
    ) <"$stdin" >/dev/null 2>err
  } 2>/dev/null
  status=$?
  t1=$(date +%s%N)
  errbytes=$(wc -c <err)
  lines=$(wc -l <err)
  case $status in
    0 | 1 | 2 | 130) ;;
    124 | 137) reasons+=("timeout or killed for memory") ;;
    134) reasons+=("abort (SIGABRT)") ;;
    139) reasons+=("segfault") ;;
    101) reasons+=("panic") ;;
    *) reasons+=("exit status $status") ;;
  esac
  grep -q panicked err && reasons+=("panicked")
  LC_ALL=C awk 'length($0) > 200 { found = 1 } END { exit !found }' err &&
    reasons+=("a stderr line over 200 bytes")
  LC_ALL=C grep -qP '[\x00-\x08\x0b-\x1f\x7f]|\xc2[\x80-\x9f]' err &&
    reasons+=("control characters on stderr")
  if [ "$status" -eq 1 ] && [ "$lines" -ne 1 ]; then
    reasons+=("error of $lines lines, not one")
  fi
  if [ "$status" -ne 0 ] && [ "$errbytes" -eq 0 ]; then
    reasons+=("failed without a message")
  fi
  local verdict=ok
  if [ ${#reasons[@]} -gt 0 ]; then
    verdict=FLAG
    flagged+=("$name: $(IFS=';'; echo "${reasons[*]}") (exit $status)")
  fi
  printf '%-4s exit %3d %7.2fs stderr %6d B  %s%s\n' "$verdict" "$status" \
    "$(awk "BEGIN { print ($t1 - $t0) / 1e9 }")" "$errbytes" "$name" \
    "${reasons[*]:+  <- $(IFS=';'; echo "${reasons[*]}")}"
  if [ -n "${VERBOSE:-}" ] && [ "$errbytes" -gt 0 ]; then
    # The message's first line, bytes shown safely.
    head -n 1 err | head -c 300 | cat -v | sed 's/^/       | /'
  fi
}

# refuse NAME ARGS...: `attack`, and flagged unless refused with one error line.
refuse() {
  local name=$1
  shift
  attack "$name" $n "$@"
  if ! { [ "$(wc -l <err)" -eq 1 ] && grep -q '^error: ' err; }; then
    flagged+=("$name: not refused with one error line")
    echo "FLAG  $name  <- not refused with one error line"
  fi
}

n=/dev/null
late=2252576253462244111563365343671351441 # a Connect Four position near the end

# The command line itself.
attack "no arguments" $n
attack "--version" $n --version
attack "unknown subcommand" $n sovle
attack "escape subcommand" $n "$esc"
attack "long subcommand" $n "$long"
attack "missing --tt-mb value" $n solve connect4 --tt-mb
attack "argument not UTF-8" $n solve connect4 $'4\xff'

# solve: every game, malformed positions.
for pos in "" " " "-1" "0" "1" "6" "4294967295" "4294967296" "99999999999999999999" "1e3" "abc" "6 7" "$esc" "$long"; do
  attack "solve matchsticks '${pos:0:24}'" $n solve matchsticks "$pos"
done
attack "solve matchsticks (none)" $n solve matchsticks
for pos in "" " " "-5" "0" "100000" "4294967295" "99999999999999999999" "$esc" "$long"; do
  attack "solve stones '${pos:0:24}'" $n solve stones "$pos"
done
attack "solve tictactoe (none)" $n solve tictactoe
for pos in "" " " "XXXXXXXXX" "XO......." "X" "X/O/./..." "XOX/OXO/XOX" "XO.$long" "XO$esc......" $'X\nO\n.......'; do
  attack "solve tictactoe '${pos:0:24}'" $n solve tictactoe "$pos"
done
attack "solve control (none)" $n solve control
for pos in "" " " "/" "//" "0" "1" "01/10" "01/10/" "01/1" "0/" "2/01/10" "nosuchfile.txt" "nosuchfile" \
  /dev/zero /dev/null adir matrix.txt matrix.bom empty "$zeros64" "$zeros65" "${long//7/0}" "0$esc" "0110/1001/1001/0110"; do
  attack "solve control '${pos:0:24}'" $n solve control "$pos"
done
attack "solve tree (none)" $n solve tree
for f in nosuch.tree /dev/zero /dev/null adir empty blank bom.tree crlf.tree bigtoken.tree wide.tree deep.tree \
  esc.tree esclabel.tree nonutf8.tree nul.tree hugeleaf.tree duplabel.tree over16mib.txt exactly16mib.txt; do
  attack "solve tree $f" $n solve tree "$f"
done
attack "solve tree --root bad" $n solve tree bom.tree --root "$esc"
attack "solve random (none)" $n solve random
attack "solve random --branching 0" $n solve random --branching 0 --depth 3
attack "solve random --branching huge" $n solve random --branching 18446744073709551615 --depth 3
attack "solve random --branching overflow" $n solve random --branching 18446744073709551616 --depth 3
attack "solve random --depth huge" $n solve random --branching 2 --depth 18446744073709551615
attack "solve random --depth 1000" $n solve random --branching 2 --depth 1000
attack "solve random --depth 0" $n solve random --branching 2 --depth 0
attack "solve random --seed max" $n solve random --branching 3 --depth 5 --seed 18446744073709551615
attack "solve random --seed -1" $n solve random --branching 3 --depth 5 --seed -1
attack "solve random --order escape" $n solve random --branching 3 --depth 5 --order "$esc"
attack "solve random --order long" $n solve random --branching 3 --depth 5 --order "$long"
attack "solve random with a position" $n solve random "$long" --branching 3 --depth 5
for pos in " " "	" "0" "8" "4444444" "44 44" "$late" "${late}1111" "$esc" "${long//7/4}" "${long//7/1}"; do
  attack "solve connect4 '${pos:0:24}'" $n solve connect4 "$pos" --threads 1
done
attack "solve connect4 '' --time-ms 300" $n solve connect4 "" --time-ms 300
for pos in " " "," " , " "12" "12 12" "77" "1" "12,13,14,15,16,23,24,25,26,34,35,36,45,46,56,12" "$esc" "$long"; do
  attack "solve sim '${pos:0:24}'" $n solve sim "$pos" --threads 1
done
for game in "" "chess" "$esc" "$long"; do
  attack "solve game '${game:0:24}'" $n solve "$game"
done

# solve: every numeric option, huge, negative, zero.
c4=(solve connect4 "$late")
for v in 0 1 30000 1048576 1048577 99999999999999999999 -1; do
  attack "solve --tt-mb $v" $n "${c4[@]}" --tt-mb "$v"
done
attack "solve --tt-mb 1048576 --algo pvs" $n "${c4[@]}" --tt-mb 1048576 --algo pvs
attack "solve --tt-mb 8000 (over ulimit -v)" $n "${c4[@]}" --tt-mb 8000
for v in 0 1 16 1024 100000 18446744073709551615 -1; do
  attack "solve --threads $v" $n "${c4[@]}" --threads "$v"
done
for v in 0 1 18446744073709551615 -1; do
  attack "solve --time-ms $v" $n "${c4[@]}" --time-ms "$v"
  attack "solve --nodes $v" $n "${c4[@]}" --nodes "$v"
  attack "solve --split-depth $v" $n "${c4[@]}" --split-depth "$v" --threads 2
  attack "solve --split-nodes $v" $n "${c4[@]}" --split-nodes "$v" --threads 2
  attack "solve --split-after $v" $n "${c4[@]}" --split-after "$v" --threads 2
  attack "solve --depth $v" $n "${c4[@]}" --depth "$v"
done
for v in 0 nan inf -1 1e308 0.000001 "$esc"; do
  attack "solve --progress-every $v" $n "${c4[@]}" --progress-every "$v"
done
for a in bad "$esc" "$long" minimax theory; do
  attack "solve --algo ${a:0:24}" $n solve tictactoe --algo "$a"
done
attack "solve --parallel bad" $n "${c4[@]}" --parallel "$esc"
attack "solve --weak --algo minimax" $n "${c4[@]}" --weak --algo minimax

# tree: the files, the options.
for f in nosuch.tree /dev/zero /dev/null adir empty blank bom.tree crlf.tree bigtoken.tree wide.tree deep.tree \
  esc.tree esclabel.tree nonutf8.tree nul.tree hugeleaf.tree duplabel.tree over16mib.txt exactly16mib.txt; do
  attack "tree $f" $n tree "$f"
done
attack "tree --trace deep" $n tree deep.tree --trace
attack "tree --dot --json" $n tree bom.tree --dot --json
attack "tree --algo escape" $n tree bom.tree --algo "$esc"
attack "tree --root long" $n tree bom.tree --root "$long"
attack "tree long file name" $n tree "$long"
attack "tree escape file name" $n tree "x$esc"

# judge: standard input and files.
attack "judge (none)" $n judge
for p in bogus "$esc" "$long"; do
  attack "judge problem '${p:0:24}'" $n judge "$p"
done
for f in empty blank /dev/zero ural.ok ural.bom ural.esc ural.long nonutf8.tree over16mib.txt; do
  attack "judge ural1195 < $f" "$f" judge ural1195
done
for f in empty blank /dev/zero control.ok control.bom control.hugek control.negk control.esc control.trailing \
  control.path30 control.empty64 control.k1000 nonutf8.tree over16mib.txt; do
  attack "judge control < $f" "$f" judge control
done
for f in nosuch /dev/zero adir control.ok "$long"; do
  attack "judge control ${f:0:24}" $n judge control "$f"
done

# suite: the files, the options.
for f in nosuch.suite /dev/zero /dev/null adir empty blank comment.suite ok.suite bom.suite bigline.suite \
  bigmoves.suite esc.suite badscore.suite hugescore.suite negscore.suite nonutf8.suite fullcol.suite over16mib.txt; do
  attack "suite $f" $n suite "$f" --threads 1
done
for v in 0 1 18446744073709551615 -1; do
  attack "suite --limit $v" $n suite ok.suite --limit "$v" --threads 1
done
for v in 0 1048576 99999999999999999999; do
  attack "suite --tt-mb $v" $n suite ok.suite --tt-mb "$v" --threads 1
done
attack "suite --tt-mb 8000 (over ulimit -v)" $n suite ok.suite --tt-mb 8000 --threads 1
for v in 0 1024 100000; do
  attack "suite --threads $v" $n suite ok.suite --threads "$v"
done
attack "suite --keep-table --threads 2" $n suite ok.suite --keep-table --threads 2

# analyse and play, where the binary has them.
if "$bin" analyse --help >/dev/null 2>&1; then
  for pos in " " "$esc" "$long" "$late"; do
    attack "analyse connect4 '${pos:0:24}'" $n analyse connect4 "$pos" --threads 1
  done
  attack "analyse --tt-mb 1048576" $n analyse connect4 "$late" --tt-mb 1048576
  attack "analyse --threads 1024" $n analyse connect4 "$late" --threads 1024
fi
if "$bin" play --help >/dev/null 2>&1; then
  attack "play connect4 < empty" empty play connect4 "$late"
  attack "play connect4 < /dev/zero" /dev/zero play connect4 "$late"
  attack "play connect4 < bigtoken" bigtoken.tree play connect4 "$late"
  attack "play --tt-mb 1048576" empty play connect4 "$late" --tt-mb 1048576
fi

# ---------------------------------------------------------------------------------------
# More of the same kinds, for every game and option: positions for analyse, commands typed
# at play's prompt, 64-vertex graphs of the families the control solver must answer at once,
# and boundary values for every numeric option of solve.

# Graphs of n vertices (rows joined by '/'): adjacency by an awk predicate on (i, j).
graph() { # graph N 'AWK-CONDITION'
  awk -v n="$1" "BEGIN { for (i = 0; i < n; i++) { r = \"\"; for (j = 0; j < n; j++) \
    r = r ((i != j && ($2)) ? 1 : 0); printf \"%s%s\", r, (i < n - 1 ? \"/\" : \"\") } }"
}
declare -A graphs=(
  [grid8x8]='(int(i/8) == int(j/8) && (i-j == 1 || j-i == 1)) || i-j == 8 || j-i == 8'
  [grid4x16]='(int(i/16) == int(j/16) && (i-j == 1 || j-i == 1)) || i-j == 16 || j-i == 16'
  [path64]='i-j == 1 || j-i == 1'
  [cycle64]='i-j == 1 || j-i == 1 || i-j == 63 || j-i == 63'
  [complete64]='1'
  [star64]='i == 0 || j == 0'
  [bipartite32]='(i < 32) != (j < 32)'
  [matching32]='int(i/2) == int(j/2)'
  [triangles]='int(i/3) == int(j/3)'
  [isolated64]='0'
  [halfdense]='(i * 7 + j * 7 + i * j) % 2 == 0'
)
for g in "${!graphs[@]}"; do
  m=$(graph 64 "${graphs[$g]}")
  attack "solve control $g" $n solve control "$m"
  attack "solve control $g --algo pvs --depth 3" $n solve control "$m" --algo pvs --depth 3
  { echo 1; echo 64; tr '/' '\n' <<<"$m"; } > "judge.$g"
  attack "judge control $g" "judge.$g" judge control
done

games_pos=(
  "matchsticks|7" "stones|5" "tictactoe|X.O......" "control|011/101/110" "connect4|$late"
  "sim|12 34 56" "random|" "tree|bom.tree"
)
for gp in "${games_pos[@]}"; do
  g=${gp%%|*}
  extra=()
  [ "$g" = random ] && extra=(--branching 3 --depth 4)
  for pos in "" " " "$esc" "${long:0:5000}" "-1" "99999999999999999999" "0" "/dev/zero"; do
    [ "$g" = random ] && [ -n "$pos" ] && continue
    # The empty Connect Four board is a real job of minutes (seven exact solves), not a hang.
    [ "$g" = connect4 ] && [ -z "$pos" ] && continue
    attack "analyse $g '${pos:0:12}'" $n analyse "$g" "$pos" --threads 1 "${extra[@]}"
  done
done

printf '%s\n' "$esc" "${longx:0:5000}" '0' '-1' '99999999999' 'undo' 'undo' 'undo' \
  'hint' 'scores' 'board' 'help' $'\xff\xfe' 'quit' > typed.bad
printf 'hint\n1\n2\n3\n4\n5\n6\n7\n8\n9\nundo\nundo\nundo\n' > typed.moves
for gp in "matchsticks|9" "stones|7" "tictactoe|" "control|0110/1001/1001/0110" \
  "connect4|$late" "sim|12 34 56 13 24" "tree|bom.tree"; do
  g=${gp%%|*}
  pos=${gp#*|}
  for input in typed.bad typed.moves empty nonutf8.tree; do
    attack "play $g < $input" "$input" play "$g" ${pos:+"$pos"} --threads 1
    attack "play $g --first engine < $input" "$input" play "$g" ${pos:+"$pos"} --first engine --threads 1
  done
done

for opt in --depth --time-ms --nodes --split-depth --split-nodes --split-after; do
  for v in 0 1 -1 99999999999999999999 1e3 abc "$esc"; do
    attack "solve connect4 $opt '${v:0:12}'" $n solve connect4 "$late" "$opt" "$v" --threads 1
  done
done
for v in 0 -1 nan inf 1e9 0.001 abc; do
  attack "solve --progress-every $v" $n solve connect4 "$late" --progress-every "$v"
done
for b in 0 1 2 99999999999; do
  for d in 0 1 99999999999; do
    attack "solve random --branching $b --depth $d" $n solve random --branching "$b" --depth "$d"
  done
done

# solve pig and solve chance: the games with chance nodes and more than two players. Every
# count option at its bounds and past them, missing and malformed options, bad algorithms and
# probabilities, positions they do not take, budgets, and the commands that refuse them.
pig=(solve pig --win-score 4 --faces 3 --horizon 6)
attack "solve pig (no --horizon)" $n solve pig
attack "solve pig --horizon (no value)" $n solve pig --horizon
for opt in --players --win-score --faces --horizon; do
  # The small game's other options (an option given twice is clap's error, not this one).
  base=(solve pig)
  for o in --win-score:4 --faces:3 --horizon:6; do
    [ "${o%%:*}" = "$opt" ] || base+=("${o%%:*}" "${o#*:}")
  done
  for v in "" " " 0 1 2 -1 -3 8 9 64 65 1000 1001 10000 10001 4294967295 4294967296 \
    99999999999999999999 -99999999999999999999 1e3 nan NaN inf 0x10 abc "$esc" "${long:0:5000}"; do
    attack "solve pig $opt '${v:0:12}'" $n "${base[@]}" "$opt" "$v"
  done
done
attack "solve pig 8 players, horizon 1000" $n solve pig --players 8 --win-score 10000 --faces 64 --horizon 1000 --time-ms 300
attack "solve pig 8 players maxn-plain --nodes" $n solve pig --players 8 --win-score 100 --horizon 1000 --algo maxn-plain --nodes 100000
attack "solve pig --piglet --faces 64" $n solve pig --piglet --faces 64 --win-score 3 --horizon 12
attack "solve pig --piglet=yes" $n "${pig[@]}" --piglet=yes
for pos in "" " " "0,0/0/0/0" "$esc" "${long:0:5000}"; do
  attack "solve pig position '${pos:0:12}'" $n "${pig[@]}" "$pos"
done
for a in "" bad "$esc" "${long:0:5000}" alphabeta minimax theory solve pvs \
  expectiminimax expectinegamax star1 star2 maxn maxn-plain paranoid brs STAR1 "star1 "; do
  attack "solve pig --algo '${a:0:16}'" $n "${pig[@]}" --algo "$a"
  attack "solve pig 3 players --algo '${a:0:16}'" $n "${pig[@]}" --players 3 --algo "$a"
done
# Pig to 100, far too large to finish: each budget is tried with the other as a backstop.
big=(solve pig --horizon 1000)
for v in "" 0 1 -1 18446744073709551615 99999999999999999999 nan abc "$esc"; do
  attack "solve pig --nodes '${v:0:12}'" $n "${big[@]}" --nodes "$v" --time-ms 300
  attack "solve pig --time-ms '${v:0:12}'" $n "${big[@]}" --time-ms "$v" --nodes 200000
  for opt in --depth --tt-mb --threads; do
    attack "solve pig $opt '${v:0:12}'" $n "${pig[@]}" "$opt" "$v"
  done
done
attack "solve pig --nodes 1 (3 players)" $n solve pig --players 3 --win-score 20 --horizon 60 --nodes 1
attack "solve pig --time-ms 1 (paranoid)" $n solve pig --players 4 --win-score 20 --horizon 60 --algo paranoid --time-ms 1
attack "solve pig --time-ms 300 (brs)" $n solve pig --players 4 --win-score 20 --horizon 60 --algo brs --time-ms 300
attack "solve pig --weak" $n "${pig[@]}" --weak
attack "solve pig --parallel root" $n "${pig[@]}" --parallel root
attack "solve pig --json --quiet" $n "${pig[@]}" --json --quiet
chance=(solve chance --branching 3 --outcomes 3 --depth 6)
attack "solve chance (none)" $n solve chance
attack "solve chance (no --outcomes)" $n solve chance --branching 3 --depth 6
attack "solve chance (no --branching)" $n solve chance --outcomes 3 --depth 6
attack "solve chance (no --depth)" $n solve chance --branching 3 --outcomes 3
for opt in --branching --outcomes --depth; do
  base=(solve chance)
  for o in --branching:3 --outcomes:3 --depth:6; do
    [ "${o%%:*}" = "$opt" ] || base+=("${o%%:*}" "${o#*:}")
  done
  for v in "" " " 0 1 -1 40 41 64 65 99 18446744073709551615 18446744073709551616 nan 1e3 abc "$esc"; do
    attack "solve chance $opt '${v:0:12}'" $n "${base[@]}" "$opt" "$v" --nodes 2000000
  done
done
for v in "" " " uniform random Uniform "uniform " "0.5,0.5" "0.5 0.5" "1/3,2/3" nan NaN inf -1 \
  "0.9,0.2" "$esc" "${long:0:5000}" $'random\n'; do
  attack "solve chance --probs '${v:0:12}'" $n "${chance[@]}" --probs "$v"
done
for v in "" random best-first worst-first bad "$esc" "${long:0:5000}"; do
  attack "solve chance --order '${v:0:12}'" $n "${chance[@]}" --order "$v"
done
for v in "" 0 18446744073709551615 18446744073709551616 -1 nan; do
  attack "solve chance --seed '${v:0:12}'" $n "${chance[@]}" --seed "$v"
done
for a in "" bad "$esc" alphabeta pvs expectiminimax expectinegamax star1 star2 maxn maxn-plain paranoid brs; do
  attack "solve chance --algo '${a:0:16}'" $n "${chance[@]}" --algo "$a"
done
attack "solve chance with a position" $n solve chance root --branching 3 --outcomes 3 --depth 6
attack "solve chance 64x64 depth 40 --nodes" $n solve chance --branching 64 --outcomes 64 --depth 40 --nodes 200000
attack "solve chance 64x64 depth 40 --time-ms" $n solve chance --branching 64 --outcomes 64 --depth 40 --time-ms 300
attack "solve chance 64x64 depth 40 expectiminimax --time-ms" $n solve chance --branching 64 --outcomes 64 --depth 40 --algo expectiminimax --time-ms 300
attack "solve chance --threads 2" $n "${chance[@]}" --threads 2
attack "solve chance --tt-mb 1048577" $n "${chance[@]}" --tt-mb 1048577
attack "solve chance --tt-mb 8000 (over ulimit -v)" $n "${chance[@]}" --tt-mb 8000
for g in pig chance; do
  attack "analyse $g" $n analyse "$g"
  attack "play $g" empty play "$g"
  attack "tree $g" $n tree "$g"
done
for a in star1 star2 expectiminimax maxn paranoid brs; do
  attack "solve connect4 --algo $a" $n solve connect4 "$late" --algo "$a"
  attack "solve tictactoe --algo $a" $n solve tictactoe --algo "$a"
done

# Split files and shard results: malformed, truncated, foreign, hostile.
"$bin" split connect4 "$late" --depth 2 --shards 3 --out split.ok >/dev/null 2>&1
"$bin" split connect4 "${late%?}" --depth 2 --shards 3 --out split.other >/dev/null 2>&1
head -c 200 split.ok > split.trunc
printf '{"cutoff_split":1}\n' > split.header
printf '%s\n' "$longx" > split.long
{ head -n 1 split.ok; printf '{"id":0,"shard":99,"cost":1,"position":"x","paths":[["1"]]}\n'; } > split.badshard
{ head -n 1 split.ok | sed 's/"frontier":[0-9]*/"frontier":1/'; printf '{"id":0,"shard":0,"cost":1,"position":"x","paths":[["%s"]]}\n' "$esc"; } > split.badmove
{ head -n 1 split.ok | sed 's/"frontier":[0-9]*/"frontier":1/'; printf '{"id":0,"shard":0,"cost":1,"position":"x","paths":[["1"]],"window":[3,1]}\n'; } > split.badwindow
for f in split.ok split.trunc split.header split.long split.badshard split.badmove split.badwindow bigmoves.suite nonutf8.suite adir missing; do
  attack "solve-shard $f" $n solve-shard "$f" --index 0 --out "res.$f" --threads 1
  attack "merge $f" $n merge "$f" "res.$f"
  attack "plan $f" $n plan "$f" "res.$f" --out plan.out
done
mkdir -p res.mixed
"$bin" solve-shard split.other --index 0 --out res.other --threads 1 -q >/dev/null 2>&1
cp res.other/shard-00000.json res.mixed/ 2>/dev/null
attack "merge with a foreign result" $n merge split.ok res.mixed
attack "solve-shard over a foreign result" $n solve-shard split.ok --index 0 --out res.mixed
head -c 50 res.other/shard-00000.json > res.mixed/shard-00000.json 2>/dev/null
attack "merge with a truncated result" $n merge split.ok res.mixed
for v in -1 3 99999999999999999999 x "$longx" "$esc"; do
  attack "solve-shard --index '${v:0:12}'" $n solve-shard split.ok --index "$v" --out res.idx
  SLURM_ARRAY_TASK_ID=$v attack "solve-shard SLURM_ARRAY_TASK_ID='${v:0:12}'" $n solve-shard split.ok --out res.idx
done
for w in 1,1 2,1 x a,b "1,$longx" -99999999999,1 1 ,; do
  attack "split --window '${w:0:12}'" $n split connect4 "$late" --depth 1 --window="$w" --out split.w
  attack "solve-shard --window '${w:0:12}'" $n solve-shard split.ok --index 0 --window="$w" --out res.w
done
for d in 0 65 99999999999999999999 -1 x; do
  attack "split --depth '$d'" $n split connect4 "$late" --depth "$d" --out split.d
done
for k in 0 1000001 -1 x; do
  attack "split --shards '$k'" $n split connect4 "$late" --depth 1 --shards "$k" --out split.k
done
attack "split random" $n split random --branching 2 --depth 3 --out split.r
attack "split pig" $n split pig --depth 1 --out split.p
attack "split to a folder" $n split connect4 "$late" --depth 1 --out adir
attack "split to a missing folder" $n split connect4 "$late" --depth 1 --out missing/dir/x
attack "split empty board depth 8 (over the path limit)" $n split connect4 --depth 8 --estimate-depth 0 --out split.big
attack "split --estimate-depth 65" $n split connect4 "$late" --depth 1 --estimate-depth 65 --out split.e
for v in 9 -1 x 99999999999999999999 "$esc"; do
  attack "book --plies '${v:0:12}'" $n book connect4 "$late" --plies "$v" --out book.x
done
attack "book tictactoe" $n book tictactoe --plies 1 --out book.t
attack "book random" $n book random --branching 2 --depth 2 --plies 1 --out book.r
attack "book to a missing folder" $n book connect4 "$late" --plies 1 --out missing/dir/book
attack "book to a folder" $n book connect4 "$late" --plies 1 --out adir
"$bin" book connect4 "$late" --plies 1 --out book.ok >/dev/null 2>&1
attack "analyse --book (a good one)" $n analyse connect4 "$late" --book book.ok
for f in /dev/zero /nonexistent/book adir split.ok "$longx"; do
  attack "analyse --book '${f:0:16}'" $n analyse connect4 "$late" --book "$f"
done
for text in "game connect4\n${longx} 1" "game connect4\n4 ${longx}" "game ${esc}" "game connect4\n- 1\n- 2" "game connect4\n4444444 1" "$esc"; do
  printf "$text\n" > book.bad 2>/dev/null
  attack "analyse --book with '${text:0:16}'" $n analyse connect4 "$late" --book book.bad
done
for v in 70000 -1 x "$longx" "$esc"; do
  attack "serve --port '${v:0:12}'" $n serve --port "$v"
  attack "serve --host '${v:0:12}'" $n serve --host "$v"
done

# One file per topic in scripts/attack/, run in this shell with the fixtures and `attack`.
for part in "$parts"/*.sh; do
  [ -e "$part" ] || continue
  # shellcheck disable=SC1090
  . "$part"
done

echo
echo "$total inputs, ${#flagged[@]} flagged"
for f in "${flagged[@]}"; do
  echo "  FLAG $f"
done
[ ${#flagged[@]} -eq 0 ]
