# shellcheck shell=bash
# keep-awake.sh: run --keep-awake's spinners, which keep the host's CPUs
# from halting while the drive and the guests run.
#
# Why: on a quiet two-vCPU cloud VM a process that wakes (nbdkit at a
# completion's time, QEMU at a guest timer) often finds its vCPU halted,
# and the hypervisor takes milliseconds to run it again; beside busy
# loops the vCPUs never halt and a wake-up is a preemption.  So a quiet
# host made the drive late more often than a loaded one (11 of 25 quiet
# runs, 1 of 15 loaded: docs/repeatability.md).  A spinner at
# SCHED_IDLE, in a session of its own whose autogroup is at nice 19,
# takes only the CPU nothing else wants: it keeps the vCPU busy without
# taking a share from QEMU or nbdkit.
#
#   keep_awake_check   prints why not and fails where SCHED_IDLE cannot be had
#   keep_awake_start   one spinner per online CPU (KEEP_AWAKE_PIDS; their
#                      number in KEEP_AWAKE_SPINNERS, for the rows)
#   keep_awake_stop    ends them

KEEP_AWAKE_PIDS=() KEEP_AWAKE_SPINNERS=0

keep_awake_check() {
    command -v chrt > /dev/null || { echo "--keep-awake needs chrt (util-linux)"; return 1; }
    chrt --idle 0 true 2> /dev/null || { echo "--keep-awake: chrt --idle 0 fails here (no SCHED_IDLE)"; return 1; }
}

keep_awake_start() {
    local i n
    n=$(getconf _NPROCESSORS_ONLN)
    # shellcheck disable=SC2034  # run's rows say how many
    KEEP_AWAKE_SPINNERS=$n
    for ((i = 0; i < n; i++)); do
        (PROC_SESSION=own PROC_NICE=19 start_in_session \
            chrt --idle 0 sh -c 'while :; do :; done') < /dev/null > /dev/null 2>&1 &
        KEEP_AWAKE_PIDS+=("$!")
    done
}

# shellcheck disable=SC2317  # also called from run's EXIT trap
keep_awake_stop() {
    [ ${#KEEP_AWAKE_PIDS[@]} -eq 0 ] && return 0
    kill "${KEEP_AWAKE_PIDS[@]}" 2> /dev/null || true
    wait "${KEEP_AWAKE_PIDS[@]}" 2> /dev/null || true
    KEEP_AWAKE_PIDS=()
}
