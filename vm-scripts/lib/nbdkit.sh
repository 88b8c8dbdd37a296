# shellcheck shell=bash
# nbdkit.sh: the nbdkit servers of a run: start one on a unix socket, wait
# for its socket, stop it (SIGTERM, then SIGKILL).  Sourcing sets NBDKIT
# to nbdkit unless the environment names another binary.  Sourced by run,
# crash and demo; needs lib/common.sh.

NBDKIT=${NBDKIT:-nbdkit}

# nbdkit_require: dies unless $NBDKIT is installed
nbdkit_require() { command -v "$NBDKIT" >/dev/null || die "$NBDKIT not found (apt-get install nbdkit)"; }

# nbdkit_socket NAME: a new unix socket path in $TMPDIR (or /tmp), named
# NAME.XXXXXX.sock; only the name: nbdkit makes the socket
nbdkit_socket() { mktemp -u "${TMPDIR:-/tmp}/$1.XXXXXX.sock"; }

# nbdkit_start LOG ARG...: starts `$NBDKIT ARG...` in the background (in
# a session of its own unless PROC_SESSION=inherit: start_in_session), its
# output in LOG and its command line in LOG's .cmd (nbdkit.log:
# nbdkit.cmd); sets NBDKIT_PID
nbdkit_start() {
    local log=$1
    shift
    save_command "${log%.log}.cmd" "$NBDKIT" "$@"
    (start_in_session "$NBDKIT" "$@") > "$log" 2>&1 &
    # shellcheck disable=SC2034  # the caller's
    NBDKIT_PID=$!
}

# nbdkit_wait_socket SOCK PID: waits up to 10 s for nbdkit PID to make its
# socket SOCK; true once it has and still runs, false if it exited first
# or the time ran out
nbdkit_wait_socket() {
    local sock=$1 pid=$2 _
    for _ in $(seq 1 100); do
        [ -S "$sock" ] && break
        running "$pid" || break
        sleep 0.1
    done
    [ -S "$sock" ] && running "$pid"
}

# nbdkit_stop PID...: SIGTERM to every nbdkit PID at once (hddsim writes
# its stats then), then waits up to 10 s for each and SIGKILLs it if it
# is still there.  Sets NBDKIT_EXIT[I], for the I-th PID from 0, to its
# exit status, or to "killed".
nbdkit_stop() {
    local pid i=0 st
    NBDKIT_EXIT=()
    for pid in "$@"; do kill -TERM "$pid" 2>/dev/null || true; done
    for pid in "$@"; do
        st=0
        if await_exit "$pid" 100; then
            wait "$pid" 2>/dev/null || st=$?
        else
            kill -9 "$pid" 2>/dev/null || true
            wait "$pid" 2>/dev/null || true
            st=killed
        fi
        # shellcheck disable=SC2034  # the caller's
        NBDKIT_EXIT[i]=$st
        i=$((i + 1))
    done
}
