#!/usr/bin/env bash
# Checks `cutoff distribute --backend mpi` under a real `mpirun` on this machine: for a few
# Connect Four positions, the value of an MPI run (rank 0 driving, the other ranks workers)
# against `cutoff solve`'s, and that only rank 0 prints (one JSON line). Then a fault: an
# MPI run killed whole (mpirun and every rank, SIGKILL) after a few seconds, started again on
# its folder, must give the same value from the answers it had (`resumed` over 0).
#
#   scripts/mpi-check.sh BINARY          (a cutoff built with `--features mpi`)
#
# Environment: NP (ranks, default 4: a driver and 3 workers), KILL_AFTER (seconds before the
# fault, default 2). Prints one line per check; exits 1 if any fails, 2 on a usage error or
# without mpirun.
set -euo pipefail

usage() { echo "usage: scripts/mpi-check.sh BINARY   (cutoff built with --features mpi)" >&2; exit 2; }
[[ $# -eq 1 ]] || usage
bin=$1
[[ -x $bin ]] || { echo "mpi-check.sh: no executable at '$bin'" >&2; exit 2; }
bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")
command -v mpirun >/dev/null || { echo "mpi-check.sh: no mpirun (apt-get install openmpi-bin)" >&2; exit 2; }
np=${NP:-4}
kill_after=${KILL_AFTER:-2}

work=$(mktemp -d "${TMPDIR:-/tmp}/cutoff-mpi-check.XXXXXX")
session=
# kill_session: SIGKILL to every process of the fault run's session: mpirun and its ranks
# (Open MPI puts each rank in a process group of its own, so a group's kill misses them).
kill_session() {
    local pids
    pids=$(pgrep -s "$session" || true)
    # shellcheck disable=SC2086
    [[ -z $pids ]] || kill -KILL $pids 2>/dev/null || true
}
cleanup() {
    [[ -z $session ]] || kill_session
    rm -rf "$work"
}
trap cleanup EXIT

# Root is refused by Open MPI's mpirun unless told; more ranks than cores need
# --oversubscribe. The ranks share the machine's memory (vader) and loopback.
mpirun=(mpirun --allow-run-as-root --oversubscribe -np "$np")
export OMPI_MCA_btl=self,vader,tcp OMPI_MCA_btl_tcp_if_include=lo OMPI_MCA_oob_tcp_if_include=lo

bad=0
field() { python3 -c 'import json, sys; print(json.loads(sys.argv[1])[sys.argv[2]])' "$1" "$2"; }

# mpi_run NAME ARGS...: the MPI run's standard output; its standard error in NAME.err.
mpi_run() {
    local name=$1
    shift
    "${mpirun[@]}" "$bin" distribute connect4 "$@" --dir "$work/$name" --backend mpi --json -q \
        2>"$work/$name.err"
}

# check NAME DEPTH POSITION...: an MPI run against the direct solve (POSITION: the position
# and any --board).
check() {
    local name=$1 depth=$2
    shift 2
    local direct out lines start secs
    direct=$(field "$("$bin" solve connect4 "$@" --json -q)" value)
    start=$(date +%s%N)
    if ! out=$(mpi_run "$name" "$@" --depth "$depth"); then
        echo "FAIL $name: the MPI run failed: $(tail -n 3 "$work/$name.err" | tr '\n' ' ')"
        bad=1
        return
    fi
    secs=$(awk -v ns="$(($(date +%s%N) - start))" 'BEGIN { printf "%.1f", ns / 1e9 }')
    lines=$(printf '%s\n' "$out" | wc -l)
    if [[ $lines != 1 ]]; then
        echo "FAIL $name: $lines lines on standard output (only rank 0 prints, one JSON line)"
        bad=1
        return
    fi
    local value workers backend
    value=$(field "$out" value)
    workers=$(field "$out" workers)
    backend=$(field "$out" backend)
    if [[ $value == "$direct" && $backend == mpi && $workers == $((np - 1)) ]]; then
        echo "ok   $name: value $value (solve $value), $workers workers, $secs s"
    else
        echo "FAIL $name: value $value, solve $direct (backend $backend, $workers workers)"
        bad=1
    fi
}

check 44444432 2 44444432
check 4453 2 4453
check 3246313 2 3246313
check 6x6-empty 2 --board 6x6

# The fault: the whole run killed mid-way, then the same command again on its folder.
# Large enough to outlast the kill on two cores (about 10 s under mpirun with 4 ranks on the
# development machine; 4453 took 1.9 s once the graded claimeven bound came, too soon to kill).
fault_pos=44
fault_args=("$fault_pos" --depth 3)
direct=$(field "$("$bin" solve connect4 "$fault_pos" --json -q)" value)
# A session of its own (setsid: mpirun leads it, its pid the session's id), so that the
# kill finds mpirun and every rank it started.
setsid "${mpirun[@]}" "$bin" distribute connect4 "${fault_args[@]}" --dir "$work/fault" \
    --backend mpi --json -q >"$work/fault.out" 2>"$work/fault.err" &
session=$!
# Not this shell's job any more: its kill is expected, not reported.
disown "$session"
sleep "$kill_after"
if ! kill -0 "$session" 2>/dev/null; then
    echo "FAIL fault: the run ended within $kill_after s, before it could be killed (a larger position, or KILL_AFTER lower)"
    exit 1
fi
ranks=$(($(pgrep -s "$session" | wc -l) - 1))
kill_session
# Count the answers the run left once every rank is gone.
for _ in $(seq 100); do
    pgrep -s "$session" >/dev/null || break
    sleep 0.05
done
if pgrep -s "$session" >/dev/null; then
    echo "FAIL fault: processes of the killed run still alive 5 s after SIGKILL"
    exit 1
fi
session=
killed=$(wc -l <"$work/fault/answers.jsonl" 2>/dev/null || echo 0)
if out=$(mpi_run fault "${fault_args[@]}"); then
    value=$(field "$out" value)
    resumed=$(field "$out" resumed)
    if [[ $value == "$direct" && $resumed -gt 0 ]]; then
        echo "ok   fault: mpirun and its $ranks ranks killed after $kill_after s ($killed answers kept); run again: value $value (solve $direct), $resumed answers resumed"
    else
        echo "FAIL fault: run again after the kill: value $value (solve $direct), $resumed answers resumed"
        bad=1
    fi
else
    echo "FAIL fault: the run after the kill failed: $(tail -n 3 "$work/fault.err" | tr '\n' ' ')"
    bad=1
fi
exit $bad
