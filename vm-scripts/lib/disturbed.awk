# disturbed.awk: the runs of run's long-form CSV that the host disturbed,
# by the figures each run records (run --help; lib/qemu-sampler.py), one
# rule for report (which marks them) and matrix --redo-disturbed (which
# runs them again).  Prints one line per disturbed run:
#   workload,fs,guest_sched,sched,profile,repeat,clock <TAB> reasons
# A run is disturbed when any of its guests
#   - was starved: its QEMU waited on the host's run queue, runnable but
#     not running, more than wait_bound (a fraction, default 0.05) of
#     the timed part (host_qemu_wait_frac);
#   - on an icount clock, fell behind the host's clock by more than
#     lag_bound_ms (default 100) within the timed part
#     (icount_lag_range_ms): its clock then ran slow, and the drive's
#     time did not reach it as time;
# or when the drive's lateness p99 (the plugin delivering completions
# after the model's time; late_p99_ms) exceeds late_bound_ms (default 2).
# Rows without a clock column are clock tcg; runs before these figures
# existed have none and are never marked.
BEGIN {
    FS = ","
    if (wait_bound == "") wait_bound = 0.05
    if (lag_bound_ms == "") lag_bound_ms = 100
    if (late_bound_ms == "") late_bound_ms = 2
}
FNR == 1 { next }
NF < 9 { next }
{
    clock = (NF >= 11) ? $11 : "tcg"
    run = $1 "," $2 "," $3 "," $4 "," $5 "," $6 "," clock
    g = (NF >= 10) ? $10 : 1
    who = ($1 ~ /:/ && g != 0) ? "guest " g " " : ""
    v = $8 + 0
    if ($7 == "host_qemu_wait_frac" && v > wait_bound)
        note(run, sprintf("%sstarved: waited %.0f%% of the timed part (bound %.0f%%)", who, 100 * v, 100 * wait_bound))
    else if ($7 == "icount_lag_range_ms" && v > lag_bound_ms)
        note(run, sprintf("%sclock lag: %.0f ms within the timed part (bound %g ms)", who, v, lag_bound_ms))
    else if ($7 == "late_p99_ms" && v > late_bound_ms)
        note(run, sprintf("drive late: p99 %.2f ms (bound %g ms)", v, late_bound_ms))
}
function note(run, why) {
    if (run in reasons) { reasons[run] = reasons[run] "; " why; return }
    order[++n] = run
    reasons[run] = why
}
END { for (i = 1; i <= n; i++) printf "%s\t%s\n", order[i], reasons[order[i]] }
