# shellcheck shell=bash
# qemu.sh: the benchmark guest in QEMU/TCG: its command line, start it,
# follow its console, wait for it, stop it.  Sourcing sets QEMU to
# qemu-system-x86_64 unless the environment names another binary.
# Sourced by run and crash; needs lib/common.sh.

QEMU=${QEMU:-qemu-system-x86_64}

# qemu_require: dies unless $QEMU is installed
qemu_require() { command -v "$QEMU" >/dev/null || die "$QEMU not found (apt-get install qemu-system-x86)"; }

# qemu_args GUEST CONSOLE RESULTS APPEND [SERIAL...]: the guest's QEMU
# command line but its drives, in QEMU_ARGS: TCG, one vCPU (with two the
# guest's TSC goes unsynchronised), 1 GiB, no display or monitor, no
# reboot; ttyS0 into the file CONSOLE, ttyS1 (the results) into the file
# RESULTS, each SERIAL (a -serial spec) after them; the kernel and
# initramfs of the built guest in folder GUEST, with the kernel command
# line "console=ttyS0 panic=-1 mitigations=off APPEND"
qemu_args() {
    local guest=$1 console=$2 results=$3 append=$4 serial
    shift 4
    QEMU_ARGS=(-accel tcg -cpu max -smp 1 -m 1G -nographic -nodefaults -no-user-config
        -no-reboot -monitor none -serial "file:$console" -serial "file:$results")
    for serial in "$@"; do QEMU_ARGS+=(-serial "$serial"); done
    QEMU_ARGS+=(-kernel "$guest/kernel" -initrd "$guest/initramfs.cpio"
        -append "console=ttyS0 panic=-1 mitigations=off $append")
}

# qemu_nbd_drive SOCK [RAW_OPTS]: a -drive value: a virtio disk on the NBD
# export at the unix socket SOCK, format raw (with RAW_OPTS, e.g.
# offset=N,size=N), no host cache
qemu_nbd_drive() { echo "file=nbd+unix:///?socket=$1,format=raw${2:+,$2},if=virtio,cache=none"; }

# qemu_start LOG: starts `$QEMU QEMU_ARGS...` in the background, its
# output in LOG and its command line in LOG's .cmd (qemu.log: qemu.cmd);
# sets QEMU_PID
qemu_start() {
    save_command "${1%.log}.cmd" "$QEMU" "${QEMU_ARGS[@]}"
    "$QEMU" "${QEMU_ARGS[@]}" < /dev/null > "$1" 2>&1 &
    # shellcheck disable=SC2034  # the caller's
    QEMU_PID=$!
}

# qemu_follow PID CONSOLE: copies the console file CONSOLE to stderr as it
# grows, in the background, until QEMU PID exits
qemu_follow() { tail -n +1 -f --pid="$1" "$2" >&2 2>/dev/null & }

# qemu_wait PID DEADLINE: waits for QEMU PID to exit; false if it still
# runs at the time DEADLINE (date +%s)
qemu_wait() {
    while running "$1"; do
        [ "$(date +%s)" -lt "$2" ] || return 1
        sleep 0.2
    done
}

# qemu_stop PID...: ends the QEMUs still running: SIGTERM, and SIGKILL
# half a second later
qemu_stop() {
    local pid any=0
    for pid in "$@"; do
        if running "$pid"; then
            kill "$pid" 2>/dev/null || true
            any=1
        fi
    done
    [ "$any" = 1 ] || return 0
    sleep 0.5
    for pid in "$@"; do kill -9 "$pid" 2>/dev/null || true; done
}

# qemu_kill PID: SIGKILL to QEMU PID at once (a guest whose power is cut:
# nothing more of it may reach the drive), and reaps it
qemu_kill() {
    kill -9 "$1" 2>/dev/null || true
    wait "$1" 2>/dev/null || true
}
