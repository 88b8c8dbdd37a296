# shellcheck shell=bash
# max-sectors.sh: the guest's max_sectors_kb from run's --max-sectors-kb
# (sourced by vm-scripts/run and tests/scripts/test-run-max-sectors).

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
    local mode=$1 p mt='' kib
    shift
    case $mode in
        off) return 0 ;;
        auto)
            for p in "$@"; do
                case $p in max-transfer=*) mt=${p#max-transfer=} ;; esac
            done
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
