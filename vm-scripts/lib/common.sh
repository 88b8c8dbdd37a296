# shellcheck shell=bash
# common.sh: what the vm-scripts say and check the same way: messages,
# argument checks, background processes' pids and command lines, time
# differences.  Sourced by run, crash, demo and smoke-test; needs PROG,
# the script's name, which prefixes its messages.

# die MSG...: says "PROG: error: MSG" on stderr and exits 1
die() { echo "$PROG: error: $*" >&2; exit 1; }

# log MSG...: says "PROG: MSG" on stderr
log() { echo "$PROG: $*" >&2; }

# in_list WORD LIST: true if WORD is one of the space-separated LIST
in_list() { local x; for x in $2; do [ "$x" = "$1" ] && return 0; done; return 1; }

# need_arg OPTION N: dies unless OPTION, with N words left on the command
# line (itself included), has its argument
need_arg() { [ "$2" -ge 2 ] || die "$1 needs an argument"; }

# running PID: true while the process PID runs (false for an empty PID)
running() { kill -0 "$1" 2>/dev/null; }

# await_exit PID TENTHS: waits up to TENTHS tenths of a second for PID to
# exit; true if it has
await_exit() {
    local _
    for _ in $(seq 1 "$2"); do
        running "$1" || return 0
        sleep 0.1
    done
    ! running "$1"
}

# PROC_SESSION: own (the default) or inherit: how start_in_session
# starts; PROC_NICE: the nice of such a session's group (empty: 0, the
# kernel's default for a new one)
PROC_SESSION=own
PROC_NICE=

# start_in_session CMD ARG...: execs CMD ARG... in a session of its own
# (its group's nice PROC_NICE) when PROC_SESSION is own, else as it is.
# Why: under the Linux scheduler's autogroups
# (kernel.sched_autogroup_enabled=1, Debian's default) the CPU is shared
# between sessions first and between a session's processes second, so a
# guest's QEMU in the caller's session competes with everything started
# from there (busy loops, make -j) one process to one, and with the
# caller's session's nice; in its own session it gets a group's share,
# at a nice of its own (docs/repeatability.md).  The group's nice is set
# by the process itself once it leads the session (set from outside, it
# could still be the caller's group).  Started in the background
# (CMD &) by a script, the child leads no process group, so setsid(1)
# and bash exec in place: $! is CMD's own pid.
start_in_session() {
    if [ "$PROC_SESSION" = own ]; then
        exec setsid bash -c '[ -z "$1" ] || echo "$1" 2>/dev/null > /proc/self/autogroup || true
            shift; exec "$@"' start_in_session "$PROC_NICE" "$@"
    fi
    exec "$@"
}

# session_nice_allowed N: true if this user may give a session of its
# own the group nice N (below 0 needs CAP_SYS_NICE: root)
session_nice_allowed() {
    setsid bash -c 'echo "$1" 2>/dev/null > /proc/self/autogroup' _ "$1" < /dev/null
}

# save_command FILE WORD...: the command WORD..., shell-quoted, as one
# line in FILE (run's and crash's nbdkit.cmd, qemu.cmd)
save_command() {
    local file=$1
    shift
    printf '%q ' "$@" > "$file"
    echo >> "$file"
}

# seconds_between T0 T1 FORMAT: T1 - T0, two `date +%s.%N` times,
# printed with the printf FORMAT (e.g. %.2f)
seconds_between() { awk -v t0="$1" -v t1="$2" -v f="$3" 'BEGIN { printf f, t1 - t0 }'; }
