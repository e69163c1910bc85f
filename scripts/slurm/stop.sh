#!/usr/bin/env bash
# Stop the single-node Slurm cluster that scripts/slurm/start.sh started:
# slurmd, slurmctld, then munged, by the pids in STATE_DIR/run (no pkill by
# name, so another Slurm on the machine is left alone). Safe to run twice.
#
#   scripts/slurm/stop.sh [STATE_DIR]        # default: /tmp/cutoff-slurm
set -euo pipefail

state=${1:-/tmp/cutoff-slurm}
run=$state/run

# slurmd first (it may still report to the controller), munged last (both
# daemons need it to authenticate until they are gone).
status=0
# Running: alive and not a zombie (an exited daemon is reparented to pid 1,
# which in a container may be slow to reap it).
running() {
    local st=""
    kill -0 "$1" 2>/dev/null || return 1
    read -r _ _ st _ <"/proc/$1/stat" 2>/dev/null || return 0
    [[ $st != Z ]]
}
for p in slurmd slurmctld munged; do
    f=$run/$p.pid
    [[ -s $f ]] || continue
    pid=$(cat "$f")
    # A pid file left from a crash may name an unrelated process by now.
    if running "$pid" && [[ $(cat "/proc/$pid/comm" 2>/dev/null) == "$p" ]]; then
        kill -TERM "$pid" 2>/dev/null || true
        for _ in $(seq 100); do
            running "$pid" || break
            sleep 0.05
        done
        if running "$pid"; then
            echo "stop.sh: $p (pid $pid) ignored SIGTERM for 5s; sending SIGKILL" >&2
            kill -KILL "$pid" 2>/dev/null || true
            status=1
        fi
    fi
    rm -f "$f"
done
exit "$status"
