# disturbed.awk: the runs of run's long-form CSV that the host disturbed,
# by the figures each run records (run --help; lib/qemu-sampler.py), one
# rule for report (which marks them) and matrix --redo-disturbed (which
# runs them again).  Prints one line per disturbed run:
#   workload,fs,guest_sched,sched,profile,repeat,clock <TAB> reasons
# A run is disturbed when any of its guests
#   - on plain TCG or KVM, was starved: its QEMU waited on the host's
#     run queue, runnable but not running, more than wait_bound (a
#     fraction, default 0.05) of the timed part (host_qemu_wait_frac):
#     its CPU then ran at the speed the host left it.  Not on an icount
#     clock, whose guest runs at the clock's speed whatever it waits
#     (quiet icount5 runs waited 10-15% and still saw a 10 ms drive as
#     10.1-10.5 ms, docs/repeatability.md); what waiting can do to it,
#     lose time from its clock, the next rule sees;
#   - saw its reads take less than the drive took: its readers' p99 by
#     its own clock (reader_lat_p99_ms) is more than clock_bound (a
#     fraction, default 0.05) below the response p99 the drive gave its
#     reads (conn_read_resp_p99_ms: arrival to completion at the drive,
#     over the guest's part of the trace).  A guest adds its own time to
#     every read, so a shorter latency than the drive's means the
#     guest's clock lost time while it waited (an icount clock does
#     when QEMU spends host time for it without running it: virtio,
#     run-queue waits), and its latencies are short by that much;
#   - on an icount clock, fell behind the host's clock by more than
#     lag_bound_ms within the timed part (icount_lag_range_ms); off by
#     default: the lag grows while the guest computes, not only while
#     it waits, and icount5 runs whose latencies matched the drive's
#     lagged 2-7 s (docs/repeatability.md);
# or when the drive's lateness p99 (the plugin delivering completions
# after the model's time; late_p99_ms) exceeds late_bound_ms (default 2).
# Rows without a clock column are clock tcg; runs before these figures
# existed have none and are never marked.
BEGIN {
    FS = ","
    if (wait_bound == "") wait_bound = 0.05
    if (clock_bound == "") clock_bound = 0.05
    if (late_bound_ms == "") late_bound_ms = 2
}
FNR == 1 { next }
NF < 9 { next }
{
    clock = cell_clock()
    run = $1 "," $2 "," $3 "," $4 "," $5 "," $6 "," clock
    g = (NF >= 10) ? $10 : 1
    who = ($1 ~ /:/ && g != 0) ? "guest " g " " : ""
    v = $8 + 0
    if ($7 == "host_qemu_wait_frac" && clock !~ /^icount/ && v > wait_bound)
        note(run, sprintf("%sstarved: waited %.0f%% of the timed part (bound %.0f%%)", who, 100 * v, 100 * wait_bound))
    else if ($7 == "icount_lag_range_ms" && lag_bound_ms != "" && v > lag_bound_ms + 0)
        note(run, sprintf("%sclock lag: %.0f ms within the timed part (bound %g ms)", who, v, lag_bound_ms))
    else if ($7 == "late_p99_ms" && v > late_bound_ms)
        note(run, sprintf("drive late: p99 %.2f ms (bound %g ms)", v, late_bound_ms))
    else if ($7 == "reader_lat_p99_ms" || $7 == "conn_read_resp_p99_ms") {
        if (!((run, g) in who_of)) { pairs[++np] = run SUBSEP g; who_of[run, g] = who }
        p99[run, g, $7] = v
    }
}
# guest_clock_slow: a guest's readers' p99 against its reads' at the drive
function guest_clock_slow(i,   k, run, g, guest, drive) {
    split(pairs[i], k, SUBSEP); run = k[1]; g = k[2]
    if (!((run, g, "reader_lat_p99_ms") in p99) || !((run, g, "conn_read_resp_p99_ms") in p99)) return
    guest = p99[run, g, "reader_lat_p99_ms"]; drive = p99[run, g, "conn_read_resp_p99_ms"]
    if (drive > 0 && guest < (1 - clock_bound) * drive)
        note(run, sprintf("%sclock slow: readers' p99 %.1f ms by the guest's clock, %.1f ms at the drive (%.2fx, bound %.2fx)",
                          who_of[run, g], guest, drive, guest / drive, 1 - clock_bound))
}
function note(run, why) {
    if (run in reasons) { reasons[run] = reasons[run] "; " why; return }
    order[++n] = run
    reasons[run] = why
}
END {
    for (i = 1; i <= np; i++) guest_clock_slow(i)
    for (i = 1; i <= n; i++) printf "%s\t%s\n", order[i], reasons[order[i]] }
