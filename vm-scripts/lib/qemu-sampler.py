#!/usr/bin/python3
"""qemu-sampler: how a guest's QEMU fared on the host while it ran, so
that a run knows when it was disturbed.

  qemu-sampler.py sample PID OUT CONSOLE CLOCK [--interval S]
      Until process PID ends: every S seconds (default 0.5) one line of
      OUT (tab-separated, a header first):
        t        host time (s since the epoch)
        cpu_s    the process's CPU time (user + system, all its threads)
        wait_s   the time its threads have waited on a run queue,
                 runnable but not running (/proc/PID/task/*/schedstat)
        load1    the host's 1-minute load average
        running  tasks running or runnable on the host (/proc/loadavg),
                 this sampler left out
      and, as they appear, the guest's console lines that carry its
      clock ("hddsim-guest: [UPTIME] ...") from the file CONSOLE, each
      stamped with the host's time as it arrives, into CLOCK:
        t  guest_s  text
      (an icount guest says "tick" each second of its clock, so that its
      lag behind the host's can be followed: guest/init)

  qemu-sampler.py summary SAMPLES CLOCK CONSOLE QEMULOG START [WORKLOAD_S]
      The run's figures, as metric,value,unit lines, over the guest's
      timed part: from its "go" line to its "workload finished OK" line
      (without a "go" line, WORKLOAD_S, guest_workload_s, before the
      latter), as the host stamped them (CLOCK); without stamps, the
      CONSOLE's lines, the guest's uptime taken as host time after START,
      when QEMU was started.
        host_qemu_cpu_s        QEMU's CPU time, whole run
        host_qemu_cpu_frac     its CPU time / wall time, timed part
        host_qemu_wait_frac    its run-queue wait / wall time, timed part:
                               the share of the time the guest was
                               starved (its QEMU could have run, did not)
        host_runnable_mean     tasks runnable on the host, mean over the
                               timed part (the guests' QEMUs included)
        host_load1             1-minute load average at its end
        icount_lag_start_ms    (a ticking guest) how far its clock was
                               behind the host's at the start, counted
                               from its first console line
        icount_lag_range_ms    (a ticking guest) the lag's largest change
                               within the timed part (max - min): the
                               guest's clock did not keep pace with the
                               host's by this much
        qemu_late_warnings     QEMU's "guest is now late by" warnings,
        qemu_late_max_s        and the largest lag they gave (whole run;
                               -icount align=on prints them, at most one
                               each 2 s, in steps of 1 s)
      The lag is read from the console rather than from QEMU's monitor:
      its "info jit" walks every translated block and held QEMU's main
      loop (the guest's I/O) for 30-44 ms a time on this host.
      Precision: the guest's uptime has 10 ms steps, and the stamps come
      late when the host starves this sampler too (so a lag is never
      understated).
"""
import glob
import os
import re
import subprocess
import sys
import threading
import time

HEADER = "t\tcpu_s\twait_s\tload1\trunning"
GUEST_LINE = re.compile(r"hddsim-guest: \[([0-9.]+)\] (.*)$")


def proc_cpu(pid, tick):
    """user + system seconds of PID (its threads, the ended ones too)."""
    with open("/proc/%d/stat" % pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / tick


def proc_wait(pid):
    """seconds the live threads of PID have waited on a run queue."""
    total = 0
    for path in glob.glob("/proc/%d/task/*/schedstat" % pid):
        try:
            with open(path) as f:
                total += int(f.read().split()[1])
        except (OSError, IndexError, ValueError):
            pass
    return total / 1e9


def host_load():
    """(1-minute load average, tasks runnable now but the caller)."""
    with open("/proc/loadavg") as f:
        w = f.read().split()
    return float(w[0]), int(w[3].split("/")[0]) - 1


def stamp_console(console, out, follower):
    """The guest's clock lines of the console as they arrive (tail -F, so
    inotify's), each with the host's time."""
    with open(out, "w") as f:
        for raw in follower.stdout:
            t = time.time()
            m = GUEST_LINE.search(raw.decode(errors="replace").rstrip("\r\n"))
            if m:
                f.write("%.4f\t%s\t%s\n" % (t, m.group(1), m.group(2)))
                f.flush()


def sample(argv):
    pid, out, console, clock = int(argv[0]), argv[1], argv[2], argv[3]
    interval = float(argv[5]) if len(argv) > 5 and argv[4] == "--interval" else 0.5
    tick = os.sysconf("SC_CLK_TCK")
    follower = subprocess.Popen(["tail", "-n", "+1", "-F", console],
                                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    stamper = threading.Thread(target=stamp_console, args=(console, clock, follower), daemon=True)
    stamper.start()
    with open(out, "w") as f:
        f.write(HEADER + "\n")
        while True:
            try:
                t = time.time()
                cpu, wait = proc_cpu(pid, tick), proc_wait(pid)
            except (OSError, IndexError, ValueError):
                break
            load1, running = host_load()
            f.write("%.3f\t%.2f\t%.3f\t%.2f\t%d\n" % (t, cpu, wait, load1, running))
            f.flush()
            time.sleep(interval)
    # the console's last lines (QEMU has ended: it writes no more)
    time.sleep(0.2)
    follower.terminate()
    follower.wait()
    stamper.join(timeout=2)


def read_samples(path):
    rows = []
    with open(path) as f:
        next(f, None)
        for line in f:
            w = line.rstrip("\n").split("\t")
            if len(w) < 5:
                continue
            rows.append({"t": float(w[0]), "cpu": float(w[1]), "wait": float(w[2]),
                         "load1": float(w[3]), "running": int(w[4])})
    return rows


def read_clock(path):
    """[(host time, guest time, text)] of the stamped console lines."""
    out = []
    try:
        with open(path) as f:
            for line in f:
                w = line.rstrip("\n").split("\t", 2)
                if len(w) == 3:
                    out.append((float(w[0]), float(w[1]), w[2]))
    except OSError:
        pass
    return out


def timed_part(lines, workload_s):
    """(start, end) lines of the timed part: (host, guest) pairs, or None."""
    start = end = None
    for h, g, text in lines:
        if text == "go":
            start = (h, g)
        elif text == "workload finished OK":
            end = (h, g)
    if end is None:
        return None
    if start is None:
        if workload_s is None:
            return None
        # the guest's clock back from the end; the host's the same way
        start = (end[0] - workload_s, end[1] - workload_s)
    return start, end


def late_warnings(qemu_log):
    """(how many "late by" warnings, the largest upper bound, s)."""
    n, top = 0, 0.0
    try:
        with open(qemu_log, errors="replace") as f:
            for line in f:
                m = re.search(r"guest is now late by [0-9.]+ to ([0-9.]+) seconds", line)
                if m:
                    n += 1
                    top = max(top, float(m.group(1)))
    except OSError:
        pass
    return n, top


def summary(argv):
    samples, clock, console, qemu_log = argv[0], argv[1], argv[2], argv[3]
    start = float(argv[4])
    workload_s = float(argv[5]) if len(argv) > 5 and argv[5] not in ("", "NaN") else None
    rows = read_samples(samples)
    lines = read_clock(clock)
    if not lines:
        # no stamps: the guest's uptime as the host's time since START
        lines = [(start + g, g, text) for g, text in console_lines(console)]
    out = []
    if rows:
        out.append(("host_qemu_cpu_s", "%.2f" % rows[-1]["cpu"], "s"))
    part = timed_part(lines, workload_s)
    if part:
        (h0, g0), (h1, g1) = part
        inside = [r for r in rows if h0 <= r["t"] <= h1]
        if len(inside) >= 2:
            a, b = inside[0], inside[-1]
            wall = b["t"] - a["t"]
            out.append(("host_qemu_cpu_frac", "%.4f" % ((b["cpu"] - a["cpu"]) / wall), "fraction"))
            out.append(("host_qemu_wait_frac", "%.4f" % ((b["wait"] - a["wait"]) / wall), "fraction"))
            out.append(("host_runnable_mean", "%.2f" % (sum(r["running"] for r in inside) / len(inside)), "tasks"))
            out.append(("host_load1", "%.2f" % b["load1"], "load"))
        ticks = any(text == "tick" for _, _, text in lines)
        if ticks:
            # lag: how much more host time than guest time has passed
            # since the guest's first console line
            hf, gf = lines[0][0], lines[0][1]
            lags = [(h - hf) - (g - gf) for h, g, _ in lines if g0 <= g <= g1]
            if lags:
                out.append(("icount_lag_start_ms", "%.0f" % (1000 * lags[0]), "ms"))
                out.append(("icount_lag_range_ms", "%.0f" % (1000 * (max(lags) - min(lags))), "ms"))
    n, top = late_warnings(qemu_log)
    if n or any(text == "tick" for _, _, text in lines):
        out.append(("qemu_late_warnings", "%d" % n, "count"))
        out.append(("qemu_late_max_s", "%g" % top, "s"))
    for m, v, u in out:
        print("%s,%s,%s" % (m, v, u))


def console_lines(path):
    """[(guest time, text)] of a console file's clock lines."""
    out = []
    try:
        with open(path, errors="replace") as f:
            for line in f:
                m = GUEST_LINE.search(line.rstrip("\r\n"))
                if m:
                    out.append((float(m.group(1)), m.group(2)))
    except OSError:
        pass
    return out


def main():
    if len(sys.argv) < 2 or sys.argv[1] not in ("sample", "summary"):
        sys.exit(__doc__)
    if sys.argv[1] == "sample":
        if len(sys.argv) < 6:
            sys.exit(__doc__)
        sample(sys.argv[2:])
    else:
        if len(sys.argv) < 7:
            sys.exit(__doc__)
        summary(sys.argv[2:])


if __name__ == "__main__":
    main()
