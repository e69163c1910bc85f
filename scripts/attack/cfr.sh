# CFR solver states as hostile input, and saves that fail (issue 27, finding 3): sums at the
# edge of f64 in either kind of state, iteration counts near the top of u64 and at the cap,
# unwritable --save and --svg paths, a save past the file-size limit. Sourced by
# scripts/attack.sh, in its shell: `attack`, `flagged`, `total`, `$bin`, `$n`, `$bom`. Each
# case named "refused" must fail with one line "error: ..."; the others must run or fail
# cleanly (attack's own rules), and the failed save must leave the old state as it was.

# cfr_refused NAME ARGS...: `attack`, and flagged unless refused with one error line.
cfr_refused() {
  local name=$1
  shift
  attack "$name" $n "$@"
  if ! { [ "$(wc -l <err)" -eq 1 ] && grep -q '^error: ' err; }; then
    flagged+=("$name: not refused with one error line")
    echo "FLAG  $name  <- not refused with one error line"
  fi
}

# cfr_field FILE FIELD WORD: FILE, a full-width state, with every value of FIELD set to WORD
# (one value for `iterations`).
cfr_field() {
  awk -v f="$2" -v w="$3" '$1 == f { for (i = 2; i <= NF; i++) $i = w } { print }' "$1"
}

# cfr_json FILE ARRAY VALUE: FILE, an MCCFR state, with every number of ARRAY (regrets or
# averages) set to VALUE, or for `baselines` the value of every (slot, value) pair.
cfr_json() {
  if [ "$2" = baselines ]; then
    # The only pairs of numbers in the file.
    sed -E "s/\[([0-9]+),-?[0-9][0-9.eE+-]*\]/[\1,$3]/g" "$1"
  else
    awk -v a="\"$2\":[" -v v="$3" '!index($0, a) { print; next } {
      i = index($0, a) + length(a)
      j = index(substr($0, i), "]")
      n = split(substr($0, i, j - 1), xs, ",")
      out = v
      for (k = 2; k <= n; k++) out = out "," v
      print substr($0, 1, i - 1) out substr($0, i + j - 1)
    }' "$1"
  fi
}

"$bin" cfr kuhn --algo cfr --iterations 10 --save cfr.state --quiet >/dev/null 2>&1
"$bin" cfr kuhn --algo mccfr-es --iterations 32 --save mccfr.state --quiet >/dev/null 2>&1
max=7fefffffffffffff
cfr_field cfr.state avg $max > cfr.avgmax
cfr_field cfr.state regret $max > cfr.regretmax
cfr_field cfr.state regret ffefffffffffffff > cfr.regretmin
cfr_field cfr.state avg 7ff0000000000000 > cfr.avginf
cfr_field cfr.state iterations 18446744073709551610 > cfr.top
cfr_field cfr.state iterations 9007199254740993 > cfr.pastcap
cfr_field cfr.state iterations 9007199254740989 > cfr.nearcap
sed 's/^params .*/params 0 - - 4031000000000000/' cfr.state > cfr.gamma17
{ printf '%s' "$bom"; cat cfr.state; } > cfr.bom
for f in avgmax regretmax regretmin avginf top pastcap gamma17; do
  cfr_refused "cfr --resume refused: $f" cfr kuhn --algo cfr --iterations 20 --resume cfr.$f
done
# Near u64::MAX, --every 1 against the clock once counted report points round and round.
cfr_refused "cfr --resume refused: top, --every 1 --seconds" cfr kuhn --algo cfr --seconds 0.1 \
  --every 1 --resume cfr.top
cfr_refused "cfr --iterations refused: u64::MAX" cfr kuhn --iterations 18446744073709551615
attack "cfr --resume near the cap, --every 1 --seconds" $n cfr kuhn --algo cfr --seconds 0.1 \
  --every 1 --resume cfr.nearcap
attack "cfr --resume near the cap, --seconds" $n cfr kuhn --algo cfr --seconds 0.1 \
  --resume cfr.nearcap
attack "cfr --resume with a byte-order mark" $n cfr kuhn --algo cfr --iterations 20 \
  --resume cfr.bom
cfr_refused "cfr --resume refused: /dev/zero" cfr kuhn --iterations 20 --resume /dev/zero
for a in averages regrets baselines; do
  cfr_json mccfr.state $a 1.7e308 > "mccfr.$a"
  cfr_refused "cfr --resume refused: mccfr $a at 1.7e308" cfr kuhn --algo mccfr-es \
    --iterations 64 --resume "mccfr.$a"
done
mkdir -p cfr.dir
for p in missing/dir/cfr.state cfr.dir; do
  cfr_refused "cfr --save refused: $p" cfr kuhn --iterations 20 --save "$p"
  cfr_refused "cfr --svg refused: $p" cfr kuhn --iterations 20 --svg "$p"
done
# A save past the file-size limit (ulimit -f, 1 KiB; the state is larger): one error line,
# and the old state as it was. The wrapper stands in for the binary for this one case.
cp cfr.state cfr.keep
real_bin=$bin
printf '#!/usr/bin/env bash\nulimit -f 1\nexec "%s" "$@"\n' "$real_bin" > cfr.fsize
chmod +x cfr.fsize
bin=$PWD/cfr.fsize
cfr_refused "cfr --save refused: past the file-size limit" cfr kuhn --algo cfr --iterations 20 \
  --resume cfr.state --save cfr.state
bin=$real_bin
total=$((total + 1))
if ! cmp -s cfr.state cfr.keep; then
  flagged+=("cfr --save past the file-size limit: the old state was lost")
  echo "FLAG  cfr --save past the file-size limit  <- the old state was lost"
fi
attack "cfr --resume after the failed save" $n cfr kuhn --algo cfr --iterations 20 \
  --resume cfr.state
