# cell-clock.awk: what a row of run's CSV (lib/out.sh) ran on, the part
# of a cell's key after workload, fs, guest_sched, sched, profile (and
# repeat): its clock (tcg in a CSV from before the clock column), then
# the project's own kernel's release after a "/".  Debian's kernels are
# no part of a cell: the rows from before the kernel column do not say
# which one ran.  Given with -f before the program that calls it (awk
# -f cell-clock.awk -f PROGRAM; mawk takes no -e).
function cell_clock() { return ((NF >= 11) ? $11 : "tcg") ($12 ~ /-hddsim$/ ? "/" $12 : "") }
