# shellcheck shell=bash
# plugin.sh: the nbdkit plugin the vm-scripts load: which one, what kind,
# and what it says about itself.  Sourced by run, crash, demo and
# smoke-test; needs TOP (the source tree), NBDKIT (lib/nbdkit.sh) and die
# (lib/common.sh).

# plugin_path: the plugin to load: $HDDSIM_PLUGIN, else TOP's hddsim.so
plugin_path() { echo "${HDDSIM_PLUGIN:-$TOP/hddsim.so}"; }

# plugin_kind PLUGIN: "hddsim", or the stock nbdkit plugin PLUGIN names
# ("file", "memory" or "null", by name or file name), with which run can
# be tested before hddsim.so exists
plugin_kind() {
    local base=${1##*/} kind
    case $base in
        *hddsim*) echo hddsim ;;
        file|memory|null|nbdkit-file-plugin.so|nbdkit-memory-plugin.so|nbdkit-null-plugin.so)
            kind=${base#nbdkit-}
            echo "${kind%-plugin.so}" ;;
        *) echo hddsim ;;
    esac
}

# plugin_require PLUGIN: dies unless PLUGIN, when given as a path, exists
# (a bare name is nbdkit's to find)
plugin_require() {
    case $1 in
        */*) [ -f "$1" ] || die "plugin $1 not found (run 'make' in $TOP, or set HDDSIM_PLUGIN)" ;;
    esac
}

# plugin_dump PLUGIN: what nbdkit PLUGIN --dump-plugin says, stderr
# included; fails as nbdkit does
plugin_dump() { "$NBDKIT" "$1" --dump-plugin 2>&1; }

# plugin_knows PLUGIN WORD: true if PLUGIN's --help names WORD (a parameter)
plugin_knows() { "$NBDKIT" "$1" --help 2>/dev/null | grep -q "$2"; }
