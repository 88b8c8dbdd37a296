# shellcheck shell=bash
# max-sectors.sh: the drive's command size where a real system puts it,
# from run's --max-sectors-kb: the plugin's max-transfer= and NBD maximum
# block size, and the guest's max_sectors_kb (sourced by vm-scripts/run,
# vm-scripts/demo and tests/scripts/test-run-max-sectors).

# size_kib SIZE: a max-transfer= value (bytes, or with a K, M or G suffix,
# powers of 1024 as the plugin reads them) in KiB; fails unless whole KiB
size_kib() {
    local n=${1%[kKmMgG]} mul=1
    [[ $n =~ ^[0-9]+$ ]] || return 1
    case $1 in
        *[kK]) mul=1024 ;;
        *[mM]) mul=$((1024 * 1024)) ;;
        *[gG]) mul=$((1024 * 1024 * 1024)) ;;
    esac
    n=$((n * mul))
    [ $((n % 1024)) = 0 ] || return 1
    echo $((n / 1024))
}

# max_sectors_kb MODE PARAM...: prints the KiB to set for --max-sectors-kb
# MODE (N, auto or off; nothing for off), given the plugin parameters.
# auto copies max-transfer= as a kernel copies a real drive's max transfer;
# without one the drive has no limit to copy, which is an error rather than
# a silent guess.  Says what is wrong on stderr and fails on bad input.
max_sectors_kb() {
    local mode=$1 mt kib
    shift
    case $mode in
        off) return 0 ;;
        auto)
            mt=$(param_value max-transfer "$@")
            if [ -z "$mt" ] || [ "$mt" = 0 ]; then
                echo "--max-sectors-kb auto: no max-transfer= (or max-transfer=0, no limit) in the plugin parameters; pass max-transfer=SIZE (the profile's real one: hddsim_max_transfer_real_NAME in nbdkit hddsim.so --dump-plugin) or a number of KiB" >&2
                return 1
            fi
            kib=$(size_kib "$mt") || {
                echo "--max-sectors-kb auto: max-transfer=$mt is not a whole number of KiB" >&2
                return 1
            } ;;
        *)
            [[ $mode =~ ^[1-9][0-9]*$ ]] || {
                echo "--max-sectors-kb must be a number of KiB, auto or off (got '$mode')" >&2
                return 1
            }
            kib=$mode ;;
    esac
    # the kernel takes no less than a page
    if [ "$kib" -lt 4 ]; then
        echo "--max-sectors-kb: $kib KiB is below the guest's page size (4 KiB)" >&2
        return 1
    fi
    echo "$kib"
}

# param_value KEY PARAM...: the last KEY= among the plugin parameters (as
# the plugin takes the last), or nothing
param_value() {
    local key=$1 p v=''
    shift
    for p in "$@"; do
        case $p in "$key"=*) v=${p#"$key"=} ;; esac
    done
    echo "$v"
}

# dump_max_transfer_real PROFILE: the profile's real command size from
# nbdkit --dump-plugin on stdin (the default profile without a name);
# nothing for a profile file, which carries its own max-transfer=
dump_max_transfer_real() {
    local profile=$1 dump
    dump=$(cat)
    if [ -z "$profile" ]; then
        profile=$(sed -n 's/^hddsim_default_profile=//p' <<< "$dump")
    fi
    # a profile file (a path) is not in the list
    case $profile in ''|*[!A-Za-z0-9_]*) return 0 ;; esac
    sed -n "s/^hddsim_max_transfer_real_$profile=//p" <<< "$dump"
}

# drive_command_params REAL PARAM...: the plugin parameters that give the
# drive its real command size (REAL, from dump_max_transfer_real), one a
# line: max-transfer=REAL unless one is given, and nbd-max-block=auto
# unless given, so QEMU sends no request longer than a command.  Nothing
# when the drive ends up with no limit.
drive_command_params() {
    local real=$1 mt
    shift
    mt=$(param_value max-transfer "$@")
    if [ -z "$mt" ] && [ -n "$real" ] && [ "$real" != 0 ]; then
        echo "max-transfer=$real"
        mt=$real
    fi
    [ -n "$mt" ] && [ "$mt" != 0 ] || return 0
    [ -n "$(param_value nbd-max-block "$@")" ] || echo "nbd-max-block=auto"
}
