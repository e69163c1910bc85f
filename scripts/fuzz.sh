#!/usr/bin/env bash
# Fuzzes every parser for a bounded time: the cargo fuzz targets in fuzz/ (tree files,
# Connect Four move strings, tic-tac-toe boards, control matrices, Sim move strings, every
# game's move notation, test-set lines, the two judge formats, split files, merge and plan on
# split files with shard results, CFR states through --resume, books through analyse --book).
#
#   scripts/fuzz.sh [SECONDS] [TARGET...]
#
# Builds all targets once (nightly toolchain, address sanitizer), then runs each target in
# turn, one process at a time, for SECONDS seconds (default 60)
# with -rss_limit_mb=2048 and -timeout=20 (an input taking more than 20 s counts as a
# finding). Each run starts from the committed seeds in fuzz/corpus/<target> plus what earlier
# runs on this machine found (fuzz/corpus-run/<target>, where new inputs are written, so the
# seeds stay as committed). Prints per target the executions, the time and the result; a
# crashing input is kept in fuzz/artifacts/<target>/ (replay it with
# `cargo +nightly fuzz run <target> <file>`), the full log in fuzz/logs/<target>.log.
#
# Exit status: 0 nothing found, 1 a target crashed, timed out or ran out of memory, 2 the
# build failed. Installs cargo-fuzz and the nightly toolchain when they are missing.
#
# Environment: FUZZ_ARGS, more libFuzzer flags (e.g. "-max_len=8192"); CARGO_FUZZ_ARGS, more
# cargo fuzz build flags (e.g. "--no-default-features", which leaves out the judge targets
# and their dependency on the command-line crate; name the other targets then).
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
shift || true
case $seconds in
'' | *[!0-9]*) echo "usage: scripts/fuzz.sh [SECONDS] [TARGET...]" >&2; exit 2 ;;
esac

start=$(date +%s)
rustup toolchain list | grep -q '^nightly' || rustup toolchain install nightly --profile minimal
cargo +nightly fuzz --version >/dev/null 2>&1 || cargo install cargo-fuzz

if [ $# -gt 0 ]; then
    targets=("$@")
else
    mapfile -t targets < <(cargo +nightly fuzz list)
fi

echo "building ${#targets[@]} fuzz targets..."
# shellcheck disable=SC2086 # word splitting of the flags is wanted
if ! cargo +nightly fuzz build ${CARGO_FUZZ_ARGS:-} >fuzz/build.log 2>&1; then
    cat fuzz/build.log >&2
    echo "error: the fuzz targets do not build" >&2
    exit 2
fi
built=$(date +%s)
echo "built in $((built - start)) s"

mkdir -p fuzz/logs
failed=0
printf '%-18s %8s %12s %10s  %s\n' target seconds executions exec/s result
for t in "${targets[@]}"; do
    mkdir -p "fuzz/corpus-run/$t" "fuzz/artifacts/$t"
    log=fuzz/logs/$t.log
    t0=$(date +%s)
    set +e
    # One process, one job: no -jobs or -fork, so the 2 cores of CI are not oversubscribed.
    # The outer timeout only guards against a hang libFuzzer itself does not catch.
    # shellcheck disable=SC2086
    timeout $((seconds + 300)) cargo +nightly fuzz run ${CARGO_FUZZ_ARGS:-} "$t" \
        "fuzz/corpus-run/$t" "fuzz/corpus/$t" -- \
        -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=20 -print_final_stats=1 \
        ${FUZZ_ARGS:-} >"$log" 2>&1
    rc=$?
    set -e
    took=$(($(date +%s) - t0))
    execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | tail -1 | grep -o '[0-9]*$' || true)
    rate=$(grep -o 'stat::average_exec_per_sec: *[0-9]*' "$log" | tail -1 | grep -o '[0-9]*$' || true)
    if [ $rc -eq 0 ]; then
        result=ok
    else
        failed=1
        what=$(grep -m1 -oE 'ERROR: libFuzzer: [a-z -]+|panicked at [^ ]+' "$log" || echo "exit status $rc")
        artifact=$(grep -m1 -o 'Test unit written to .*' "$log" | sed 's/^Test unit written to //' || true)
        result="FOUND ($what) ${artifact:-see $log}"
    fi
    printf '%-18s %8s %12s %10s  %s\n' "$t" "$took" "${execs:-?}" "${rate:-?}" "$result"
    if [ $rc -ne 0 ]; then
        grep -m1 -A3 'panicked at' "$log" | sed 's/^/    /' || true
    fi
done
echo "total $(($(date +%s) - start)) s (build $((built - start)) s)"
exit $failed
