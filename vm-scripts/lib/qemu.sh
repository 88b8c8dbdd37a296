# shellcheck shell=bash
# qemu.sh: the benchmark guest in QEMU: its clock (KVM, TCG, or TCG on an
# instruction-counted clock), its command line, start it, follow its
# console, wait for it, stop it.  Sourcing sets QEMU to
# qemu-system-x86_64 unless the environment names another binary.
# Sourced by run and crash; needs lib/common.sh.

QEMU=${QEMU:-qemu-system-x86_64}

# The guest's clock, QEMU_CLOCK, which the rows' clock column records:
#   kvm      KVM (the host's CPU, -cpu host): where /dev/kvm exists
#   icountN  TCG on an instruction-counted clock, -icount shift=N,
#            align=on: the guest executes one instruction each 2^N ns
#            of its clock (N=3: 125 million a second) and is held back
#            so that its clock keeps pace with the host's, so its speed
#            does not depend on what else the host runs (as long as
#            the host can give it that much; docs/repeatability.md).
#            sleep=on, QEMU's default, is what lets the drive's delays
#            reach the guest: an idle guest's clock follows the host's;
#            sleep=off would warp it to the next timer and the drive's
#            time would vanish from the guest's.  TCG only.
#   tcg      TCG at whatever speed the host leaves it (before issue 22)
# QEMU_CLOCK_DEFAULT_TCG is the clock run uses on TCG unless told
# otherwise: the fastest instruction-counted speed at which this 2-core
# host gave a guest the drive's time, quietly and beside two busy
# loops.  A faster icount guest loses time while QEMU works for it
# without executing its instructions (device emulation, the host's run
# queue), more than align=on can take back: on icount3 a QD1 reader of
# a 10 ms drive saw 8.6 ms on a quiet host, and readers beside a
# writer a mean 9-15% below what the drive gave them beside load;
# icount5 gave 10.5 and 10.2 ms, quiet and loaded (9.67 ms in three
# later loaded runs: docs/repeatability.md).
QEMU_CLOCK=${QEMU_CLOCK:-tcg}
QEMU_CLOCK_DEFAULT_TCG=icount5

# kvm_usable: true where this user can open /dev/kvm
kvm_usable() { [ -c /dev/kvm ] && [ -r /dev/kvm ] && [ -w /dev/kvm ]; }

# qemu_clock ACCEL ICOUNT: prints the guest's clock (kvm, icountN, tcg)
# from run's --accel (auto, kvm, tcg) and --icount (shift=N, off, or
# empty: the default); says what is wrong on stderr and fails on a
# combination that cannot be
qemu_clock() {
    local accel=$1 icount=$2 n
    case $accel in
        auto) if kvm_usable; then accel=kvm; else accel=tcg; fi ;;
        kvm) kvm_usable || { echo "--accel kvm: /dev/kvm is missing or not readable and writable here" >&2; return 1; } ;;
        tcg) ;;
        *) echo "--accel: auto, kvm or tcg (got '$accel')" >&2; return 1 ;;
    esac
    case $icount in
        '') if [ "$accel" = kvm ]; then echo kvm; else echo "$QEMU_CLOCK_DEFAULT_TCG"; fi ;;
        off) echo "$accel" ;;
        shift=*)
            n=${icount#shift=}
            [[ $n =~ ^[0-9]$ ]] || { echo "--icount shift=N: N from 0 to 9 (2^N ns an instruction; got '$icount')" >&2; return 1; }
            [ "$accel" = tcg ] || { echo "--icount $icount: instruction counting is TCG's; KVM runs the host's CPU (give --accel tcg, or --icount off)" >&2; return 1; }
            echo "icount$n" ;;
        *) echo "--icount: shift=N or off (got '$icount')" >&2; return 1 ;;
    esac
}

# qemu_clock_args CLOCK: the accelerator, CPU and clock arguments of a
# guest on CLOCK, one a line
qemu_clock_args() {
    case $1 in
        kvm) printf '%s\n' -accel kvm -cpu host ;;
        icount*) printf '%s\n' -accel tcg -cpu max -icount "shift=${1#icount},align=on,sleep=on" ;;
        *) printf '%s\n' -accel tcg -cpu max ;;
    esac
}

# qemu_require: dies unless $QEMU is installed
qemu_require() { command -v "$QEMU" >/dev/null || die "$QEMU not found (apt-get install qemu-system-x86)"; }

# qemu_args GUEST CONSOLE RESULTS APPEND [SERIAL...]: the guest's QEMU
# command line but its drives, in QEMU_ARGS: QEMU_CLOCK's accelerator,
# one vCPU (with two the guest's TSC goes unsynchronised), 1 GiB, no
# display or monitor, no reboot; ttyS0 into the file CONSOLE, ttyS1 (the
# results) into the file RESULTS, each SERIAL (a -serial spec) after
# them; the kernel and initramfs of the built guest in folder GUEST,
# with the kernel command line "console=ttyS0 panic=-1 mitigations=off
# APPEND"
qemu_args() {
    local guest=$1 console=$2 results=$3 append=$4 serial
    shift 4
    mapfile -t QEMU_ARGS < <(qemu_clock_args "$QEMU_CLOCK")
    QEMU_ARGS+=(-smp 1 -m 1G -nographic -nodefaults -no-user-config
        -no-reboot -monitor none -serial "file:$console" -serial "file:$results")
    for serial in "$@"; do QEMU_ARGS+=(-serial "$serial"); done
    QEMU_ARGS+=(-kernel "$guest/kernel" -initrd "$guest/initramfs.cpio"
        -append "console=ttyS0 panic=-1 mitigations=off $append")
}

# qemu_disk_controller BUS: the controller the disks of BUS hang on
# (virtio-blk needs none), in QEMU_ARGS
qemu_disk_controller() {
    case $1 in
        virtio-scsi) QEMU_ARGS+=(-device virtio-scsi-pci,id=scsi0) ;;
        ahci) QEMU_ARGS+=(-device ahci,id=ahci0) ;;
    esac
}

# qemu_nbd_disk BUS I SOCK [RAW_OPTS]: disk I (from 0) on BUS, the NBD
# export at the unix socket SOCK, format raw (with RAW_OPTS, e.g.
# offset=N,size=N), no host cache, in QEMU_ARGS.  SCSI id I and AHCI
# port I keep the guest's sda, sdb, ... in the drives' order.
qemu_nbd_disk() {
    local bus=$1 i=$2 file="file=nbd+unix:///?socket=$3,format=raw${4:+,$4}"
    case $bus in
        virtio) QEMU_ARGS+=(-drive "$file,if=virtio,cache=none") ;;
        virtio-scsi) QEMU_ARGS+=(-drive "$file,if=none,cache=none,id=disk$i"
                                 -device "scsi-hd,drive=disk$i,bus=scsi0.0,scsi-id=$i,lun=0") ;;
        ahci) QEMU_ARGS+=(-drive "$file,if=none,cache=none,id=disk$i" -device "ide-hd,drive=disk$i,bus=ahci0.$i") ;;
    esac
}

# qemu_start LOG: starts `$QEMU QEMU_ARGS...` in the background (in a
# session of its own unless PROC_SESSION=inherit: start_in_session), its
# output in LOG and its command line in LOG's .cmd (qemu.log: qemu.cmd);
# sets QEMU_PID
qemu_start() {
    save_command "${1%.log}.cmd" "$QEMU" "${QEMU_ARGS[@]}"
    (start_in_session "$QEMU" "${QEMU_ARGS[@]}") < /dev/null > "$1" 2>&1 &
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
