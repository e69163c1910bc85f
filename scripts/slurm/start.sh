#!/usr/bin/env bash
# Start a throwaway single-node Slurm cluster on this machine, by hand (no
# systemd), from Debian 12's packages (slurmctld, slurmd, slurm-client, munge).
#
#   scripts/slurm/start.sh [STATE_DIR]        # default: /tmp/cutoff-slurm
#   export SLURM_CONF=STATE_DIR/slurm.conf    # then sbatch, sinfo, ... find it
#   scripts/slurm/stop.sh [STATE_DIR]
#
# Everything lives under STATE_DIR: slurm.conf, munge key and socket, spool and
# state folders, logs and pid files. The node is this machine (`hostname -s`),
# with the CPUs and memory `slurmd -C` reports. It installs nothing (see ci.sh)
# and returns once `sinfo` shows the node idle, or fails after
# START_TIMEOUT seconds (default 30) with the logs' tails.
# Environment: SLURMCTLD_PORT (default 6817), SLURMD_PORT (default 6818).
set -euo pipefail

die() { echo "start.sh: $*" >&2; exit 1; }

state=${1:-/tmp/cutoff-slurm}
timeout=${START_TIMEOUT:-30}
ctld_port=${SLURMCTLD_PORT:-6817}
slurmd_port=${SLURMD_PORT:-6818}

for bin in munged slurmctld slurmd sinfo scontrol; do
    command -v "$bin" >/dev/null 2>&1 || [[ -x /usr/sbin/$bin ]] ||
        die "$bin not found: install slurmctld slurmd slurm-client munge (apt-get install -y --no-install-recommends slurmctld slurmd slurm-client munge)"
done
# The daemons live in /usr/sbin, which a non-login root shell may lack.
PATH=$PATH:/usr/sbin

mkdir -p "$state"
state=$(cd "$state" && pwd)
conf=$state/slurm.conf
log=$state/log
run=$state/run

alive() { [[ -s $1 ]] && kill -0 "$(cat "$1")" 2>/dev/null; }
for p in munged slurmctld slurmd; do
    alive "$run/$p.pid" && die "$p already running (pid $(cat "$run/$p.pid")); run scripts/slurm/stop.sh $state first"
done

# munged wants its key in a private folder, and its socket in one that all
# may enter but none other than the owner may write to.
umask 022
mkdir -p "$state/munge" "$state/spool/ctld" "$state/spool/slurmd" "$log" "$run"
chmod 755 "$state" "$run"
chmod 700 "$state/munge"
rm -f "$run"/*.pid
key=$state/munge/munge.key
if [[ ! -s $key ]]; then
    (umask 077 && head -c 1024 /dev/urandom >"$key")
    chmod 400 "$key"
fi
socket=$run/munge.socket

host=$(hostname -s)
# First line of `slurmd -C`: NodeName=... CPUs=... Boards=... RealMemory=...
node=$(slurmd -C | head -n 1)
[[ $node == NodeName=* ]] || die "unexpected 'slurmd -C' output: $node"
node=${node/NodeName=* CPUs=/NodeName=$host CPUs=}

# Addresses pinned to 127.0.0.1 so that a hostname that does not resolve in a
# container does not matter. Plugins chosen to need no cgroups, no systemd
# and no accounting database.
cat >"$conf" <<EOF
# Written by scripts/slurm/start.sh: single-node cluster on $host.
ClusterName=cutoff
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$socket
StateSaveLocation=$state/spool/ctld
SlurmdSpoolDir=$state/spool/slurmd
SlurmctldPidFile=$run/slurmctld.pid
SlurmdPidFile=$run/slurmd.pid
SlurmctldLogFile=$log/slurmctld.log
SlurmdLogFile=$log/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/backfill
# Start batch jobs as soon as they can run, not in batches every 3 s (the
# default, for clusters that take thousands of submissions a second).
SchedulerParameters=batch_sched_delay=0
MpiDefault=none
ReturnToService=2
MailProg=/bin/true
# A merge job whose afterok can no longer be met is cancelled, not left pending.
DependencyParameters=kill_invalid_depend
# Finished jobs stay visible to scontrol for a while (no accounting to ask).
MinJobAge=300
$node NodeAddr=127.0.0.1 State=UNKNOWN
PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF=$conf

tails() {
    for f in "$log"/*.log; do
        [[ -f $f ]] || continue
        echo "--- $f" >&2
        tail -n 15 "$f" >&2
    done
}
fail() { echo "start.sh: $*" >&2; tails; exit 1; }

munged --socket="$socket" --key-file="$key" --pid-file="$run/munged.pid" \
    --log-file="$log/munged.log" --seed-file="$state/munge/munged.seed" ||
    fail "munged failed to start"
# -c: a fresh controller each time, no jobs carried over from an earlier run.
slurmctld -c || fail "slurmctld failed to start"

# Start slurmd once the controller answers, so its registration is not lost
# to a retry interval; then wait for the node to be idle.
t0=${EPOCHREALTIME/./}
deadline=$((SECONDS + timeout))
until scontrol ping 2>/dev/null | grep -q UP; do
    ((SECONDS < deadline)) || fail "slurmctld not answering after ${timeout}s"
    sleep 0.1
done
slurmd || fail "slurmd failed to start"
until [[ $(sinfo -h -n "$host" -o %t 2>/dev/null) == idle ]]; do
    ((SECONDS < deadline)) || fail "node $host not idle after ${timeout}s (state: $(sinfo -h -n "$host" -o %t 2>&1 || true))"
    sleep 0.1
done
for p in munged slurmctld slurmd; do
    alive "$run/$p.pid" || fail "$p has no live pid in $run/$p.pid"
done
ms=$(((${EPOCHREALTIME/./} - t0) / 1000))
echo "slurm: node $host idle after $((ms / 1000)).$(printf %03d $((ms % 1000)))s; export SLURM_CONF=$conf"
