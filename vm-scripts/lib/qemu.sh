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

# KVM_DEV: the device KVM is opened through (the tests name another)
KVM_DEV=${HDDSIM_KVM_DEV:-/dev/kvm}

# kvm_usable: true where this user can open $KVM_DEV
kvm_usable() { [ -c "$KVM_DEV" ] && [ -r "$KVM_DEV" ] && [ -w "$KVM_DEV" ]; }

# KVM_PROBE_SECS: how long the benchmark guest may take to reach its
# /init on KVM before run takes KVM for unusable.  A working KVM gets
# there in a few seconds; a nested one without the host's help can be
# far slower than TCG (seen on a 2-core cloud VM: its /dev/kvm opened,
# QEMU 7.2 aborted on -cpu host's MSR 0x10a, and with that MSR off the
# kernel took 39 s to reach its memory set-up).
KVM_PROBE_SECS=${HDDSIM_KVM_PROBE_SECS:-30}

# GUEST_KERNEL: the guest's kernel when run builds the guest (run's
# --guest-kernel): own, the project's (build-kernel: 100 Hz, no
# nohz_full, drivers built in), whose guest does less in each wait for
# the drive and so keeps the drive's time beside host load
# (docs/repeatability.md, "A guest kernel of the project's own"); or
# debian, the host's /boot kernel, which needs no 12-25 minute build
GUEST_KERNEL=${GUEST_KERNEL:-${HDDSIM_GUEST_KERNEL:-own}}

# guest_dir: prints the built guest to boot: HDDSIM_GUEST_DIR, else
# build-guest's (next to the calling script, in $HERE) with
# GUEST_KERNEL's kernel; prints why not and fails when there is none.
# run's guests and the KVM probe boot it.
guest_dir() {
    local kdir
    if [ -n "${HDDSIM_GUEST_DIR:-}" ]; then
        [ -d "$HDDSIM_GUEST_DIR" ] || { echo "HDDSIM_GUEST_DIR=$HDDSIM_GUEST_DIR is not a directory"; return 1; }
        echo "$HDDSIM_GUEST_DIR"
        return 0
    fi
    case $GUEST_KERNEL in
        own) kdir=$("$HERE/build-kernel" --quiet) || { echo "build-kernel failed"; return 1; }
             "$HERE/build-guest" --quiet --kernel-dir "$kdir" || { echo "build-guest failed"; return 1; } ;;
        debian) "$HERE/build-guest" --quiet || { echo "build-guest failed"; return 1; } ;;
        *) echo "guest kernel '$GUEST_KERNEL': own or debian"; return 1 ;;
    esac
}

# guest_release GUEST: the release (uname -r) of the built guest GUEST's
# kernel, the rows' kernel column: unknown for a guest folder that does
# not say (a test's stand-in), no comma or blank in it
guest_release() {
    local r
    r=$(cat "$1/kernel-release" 2>/dev/null) && [ -n "$r" ] || r=unknown
    echo "${r//[, ]/_}"
}

# kvm_probe: boots the benchmark guest on KVM (the arguments runs use;
# Debian's kernel while the own one is not built) until its /init's
# first console line, for at most KVM_PROBE_SECS;
# prints "ok", or why KVM is not usable here.  Fails (and says why)
# when it could not try, which says nothing about KVM.
kvm_probe() {
    local guest dir con pid i QEMU_CLOCK=kvm QEMU_ARGS GUEST_KERNEL=$GUEST_KERNEL
    # whether KVM runs a guest here is no reason to wait 12-25 minutes for
    # the own kernel's build: until it is built, Debian's kernel is probed
    if [ -z "${HDDSIM_GUEST_DIR:-}" ] && [ "$GUEST_KERNEL" = own ] &&
       ! "$HERE/build-kernel" --cached --quiet > /dev/null 2>&1; then
        GUEST_KERNEL=debian
    fi
    guest=$(guest_dir) || { echo "no guest to probe it with ($guest)"; return 1; }
    dir=$(mktemp -d) && con=$dir/console.log || { echo "no temporary folder to probe it in"; return 1; }
    qemu_args "$guest" "$con" /dev/null ""
    "$QEMU" "${QEMU_ARGS[@]}" < /dev/null > "$dir/qemu.log" 2>&1 &
    pid=$!
    for ((i = 0; i < KVM_PROBE_SECS * 10; i++)); do
        grep -q '^hddsim-guest:' "$con" 2>/dev/null && break
        running "$pid" || break
        sleep 0.1
    done
    if grep -q '^hddsim-guest:' "$con" 2>/dev/null; then echo ok
    elif ! running "$pid"; then
        echo "QEMU on KVM failed: $(grep -v '^$' "$dir/qemu.log" | head -n 2 | paste -sd ' ')"
    else echo "the guest had not reached its /init after ${KVM_PROBE_SECS} s (KVM slower than TCG: nested?)"
    fi
    kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null
    rm -rf "$dir"
}

# kvm_works: true where KVM can be opened and boots the guest (kvm_probe),
# saying why not on stderr.  The verdict is kept for this host's boot
# and QEMU binary (its path and time) in the guest cache, so only the
# first run of a boot waits.
kvm_works() {
    local cache=${HDDSIM_VM_CACHE:-$HERE/.cache} boot bin key f verdict
    kvm_usable || return 1
    boot=$(cat /proc/sys/kernel/random/boot_id 2>/dev/null || echo unknown)
    bin=$(command -v "$QEMU") || bin=$QEMU
    key=$(printf '%s %s %s %s' "$boot" "$bin" "$(stat -c %Y "$bin" 2>/dev/null)" "$KVM_DEV" |
          cksum | cut -d' ' -f1)
    f=$cache/kvm-probe-$key
    if [ -s "$f" ]; then verdict=$(cat "$f")
    elif ! verdict=$(kvm_probe); then
        echo "note: $KVM_DEV is there but KVM was not tried: $verdict; the guest runs on TCG" >&2
        return 1
    else
        mkdir -p "$cache" && printf '%s\n' "$verdict" > "$f.$$" && mv "$f.$$" "$f"
    fi
    [ "$verdict" = ok ] && return 0
    echo "note: $KVM_DEV is there but KVM is not usable: $verdict; the guest runs on TCG (forget this verdict: rm $f)" >&2
    return 1
}

# qemu_clock ACCEL ICOUNT: prints the guest's clock (kvm, icountN, tcg)
# from run's --accel (auto, kvm, tcg) and --icount (shift=N, off, or
# empty: the default); on a combination that cannot be, prints what is
# wrong and fails.  auto takes KVM only where a guest boots on it
# (kvm_works, which says on stderr why not).
qemu_clock() {
    local accel=$1 icount=$2 n
    case $accel in
        auto) if kvm_works; then accel=kvm; else accel=tcg; fi ;;
        kvm) kvm_usable || { echo "--accel kvm: $KVM_DEV is missing or not readable and writable here"; return 1; } ;;
        tcg) ;;
        *) echo "--accel: auto, kvm or tcg (got '$accel')"; return 1 ;;
    esac
    case $icount in
        '') if [ "$accel" = kvm ]; then echo kvm; else echo "$QEMU_CLOCK_DEFAULT_TCG"; fi ;;
        off) echo "$accel" ;;
        shift=*)
            n=${icount#shift=}
            [[ $n =~ ^[0-9]$ ]] || { echo "--icount shift=N: N from 0 to 9 (2^N ns an instruction; got '$icount')"; return 1; }
            [ "$accel" = tcg ] || { echo "--icount $icount: instruction counting is TCG's; KVM runs the host's CPU (give --accel tcg, or --icount off)"; return 1; }
            echo "icount$n" ;;
        *) echo "--icount: shift=N or off (got '$icount')"; return 1 ;;
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
