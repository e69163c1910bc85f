#!/usr/bin/env bash
# The check to run before merging a change: does the working tree regress against REV?
#
#   scripts/regress.sh [REV]
#
# Builds cutoff-bench in release mode at REV (default: the merge base of HEAD with main) in a
# git worktree kept under the cache directory, and from the working tree; runs the quick suite
# with each build in turn, one repeat at a time, for $ROUNDS rounds in the order A B B A A B ...
# (so that a slow spell of the machine and any warm-up hit both builds alike); pools each
# build's times (median per item) with `cutoff-bench merge`; and compares them with
# `cutoff-bench compare`: equal values, equal serial node counts, times within the tolerance.
#
# Exit status: 0 no regression, 1 a regression (the items are named), 2 something failed
# (REV unknown or too old to have cutoff-bench, a build failed).
#
# Environment: ROUNDS (default 5), SUITE (default quick), TOLERANCE (default 10%),
# COMPARE_ARGS (more arguments for compare, e.g. --allow-nodes), OUT (where the run files go,
# default target/regress/runs), CACHE (REV's worktree and target directory, reused between
# runs so that only what changed is rebuilt; default target/regress).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
rounds=${ROUNDS:-5}
suite=${SUITE:-quick}
tolerance=${TOLERANCE:-10%}
cache=${CACHE:-$root/target/regress}
out=${OUT:-$cache/runs}

die() { echo "error: $*" >&2; exit 2; }

if [ $# -gt 1 ]; then die "usage: scripts/regress.sh [REV]"; fi
if [ $# -eq 1 ]; then
  rev=$1
else
  base=""
  for b in main origin/main; do
    if git rev-parse --verify -q "$b^{commit}" >/dev/null; then base=$b; break; fi
  done
  [ -n "$base" ] || die "no branch 'main' to take the merge base with; name a revision: scripts/regress.sh REV"
  rev=$(git merge-base HEAD "$base") || die "HEAD and $base have no merge base; name a revision"
fi
sha=$(git rev-parse --verify -q "$rev^{commit}") || die "unknown revision '$rev'"
short=$(git rev-parse --short "$sha")
if ! git cat-file -e "$sha:bench/src/main.rs" 2>/dev/null; then
  die "revision $short ($rev) has no cutoff-bench binary (it predates the regression runs); name a later revision"
fi
case $rounds in ''|*[!0-9]*|0) die "ROUNDS must be a positive integer, got '$rounds'";; esac

# REV's sources: one worktree, moved from revision to revision, so its builds stay incremental.
mkdir -p "$cache" "$out"
wt=$cache/worktree
git worktree prune
if [ -e "$wt/.git" ]; then
  git -C "$wt" checkout -q --detach --force "$sha"
else
  rm -rf "$wt"
  git worktree add -q --detach "$wt" "$sha"
fi

echo "== building $short ($rev) in $wt"
(cd "$wt" && CARGO_TARGET_DIR="$cache/target" cargo build --release -q -p cutoff-bench) \
  || die "building $short failed"
a=$cache/target/release/cutoff-bench
echo "== building the working tree"
cargo build --release -q -p cutoff-bench || die "building the working tree failed"
b=$root/target/release/cutoff-bench

rm -f "$out"/a-*.json "$out"/b-*.json
run() { # run LABEL BINARY ROUND
  "$2" run --suite "$suite" --repeats 1 --json "$out/$1-$3.json" >/dev/null \
    || die "the $suite suite failed with build $1 (round $3)"
}
for i in $(seq 1 "$rounds"); do
  echo "== round $i of $rounds"
  if [ $((i % 2)) -eq 1 ]; then run a "$a" "$i"; run b "$b" "$i"; else run b "$b" "$i"; run a "$a" "$i"; fi
done
"$b" merge --json "$out/baseline.json" "$out"/a-*.json >/dev/null
"$b" merge --json "$out/current.json" "$out"/b-*.json >/dev/null
echo "== $suite suite, $rounds rounds: $short (A, baseline) against the working tree (B)"
# shellcheck disable=SC2086
"$b" compare "$out/baseline.json" "$out/current.json" --tolerance "$tolerance" ${COMPARE_ARGS:-}
