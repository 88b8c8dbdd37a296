# The plugin's scheduling policies, as the plugin lists them
# (--dump-plugin's hddsim_policies=): the one list, so that a new
# policy reaches the scripts and benchmarks without editing them.
#   hddsim_policies PLUGIN   prints e.g. "fifo,cscan,deadline,satf,cfq"
hddsim_policies () {
    local list
    list=$(nbdkit "$1" --dump-plugin 2>/dev/null | sed -n 's/^hddsim_policies=//p')
    [ -n "$list" ] || { echo "cannot list the policies of $1 (nbdkit $1 --dump-plugin)" >&2; return 1; }
    echo "$list"
}
