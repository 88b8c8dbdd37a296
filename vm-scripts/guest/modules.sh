# modules.sh: loading a driver in the benchmark guest (busybox sh),
# sourced by /init and /crash-init.
#
# load_module NAME: modprobe NAME, unless the kernel has it built in.
# The project's own guest kernel (vm-scripts/build-kernel) has no
# modules at all, and busybox's modprobe fails on a built-in driver;
# modules.builtin lists them (by file: kernel/fs/ext4/ext4.ko, where a
# module's name may spell '-' as '_').  MODULES_BUILTIN names another
# list (tests/scripts/test-guest-kernel).
load_module() {
    grep -q "/$(echo "$1" | sed 's/[-_]/[-_]/g')\.ko\$" \
        "${MODULES_BUILTIN:-/lib/modules/$(uname -r)/modules.builtin}" 2>/dev/null ||
        modprobe "$1"
}
