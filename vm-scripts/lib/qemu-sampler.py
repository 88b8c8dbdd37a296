#!/usr/bin/python3
"""qemu-sampler: how a guest's QEMU fared on the host while it ran, so
that a run knows when it was disturbed.

  qemu-sampler.py sample PID OUT [--monitor SOCK] [--interval S]
      Every S seconds (default 0.5) until process PID ends, one line of
      OUT (tab-separated, a header first):
        t        host time (s since the epoch)
        cpu_s    the process's CPU time (user + system, all its threads)
        wait_s   the time its threads have waited on a run queue,
                 runnable but not running (/proc/PID/task/*/schedstat)
        load1    the host's 1-minute load average
        running  tasks running or runnable on the host (/proc/loadavg),
                 this sampler left out
        lag_ms   with --monitor (QEMU's HMP socket, -icount only): how
                 far the guest's clock is behind the host's, "info jit"'s
                 "Host - Guest clock"; else empty

  qemu-sampler.py summary SAMPLES CONSOLE QEMULOG START [WORKLOAD_S]
      The run's figures, as metric,value,unit lines, over the guest's
      timed part: from its "go" line (the start barrier) or, without
      one, WORKLOAD_S (guest_workload_s) before its "workload finished
      OK" line, to that line; both in the guest's clock, the uptime its
      console lines carry.  START is when QEMU was started (host time).
      The guest's clock is the host's since QEMU started, less lag_ms
      when there is one (-icount: the guest may fall behind).
        host_qemu_cpu_s        QEMU's CPU time, whole run
        host_qemu_cpu_frac     its CPU time / wall time, timed part
        host_qemu_wait_frac    its run-queue wait / wall time, timed part:
                               the share of the time the guest was
                               starved (its QEMU could have run, did not)
        host_runnable_mean     tasks runnable on the host, mean over the
                               timed part (the guests' QEMUs included)
        host_load1             1-minute load average at its end
        icount_lag_start_ms    (-icount) the guest's lag at its start
        icount_lag_range_ms    (-icount) the lag's largest change within
                               it (max - min): the guest's clock did not
                               keep pace with the host's by this much
        qemu_late_warnings     QEMU's "guest is now late by" warnings,
        qemu_late_max_s        and the largest lag they gave (whole run;
                               -icount align=on prints them, at most one
                               each 2 s, in steps of 1 s)
"""
import glob
import os
import re
import socket
import sys
import time

HEADER = "t\tcpu_s\twait_s\tload1\trunning\tlag_ms"


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


class Monitor:
    """QEMU's human monitor on a unix socket: 'info jit' for the lag.
    Connected at the first sample that finds the socket (QEMU makes it
    as it starts), so that a QEMU without one delays nothing."""

    def __init__(self, path):
        self.path, self.sock, self.gone = path, None, False

    def connect(self):
        try:
            s = socket.socket(socket.AF_UNIX)
            s.settimeout(5)
            s.connect(self.path)
            self.sock = s
            self.reply()
        except OSError:
            self.sock = None

    def reply(self):
        buf = b""
        while not buf.endswith(b"(qemu) "):
            chunk = self.sock.recv(65536)
            if not chunk:
                raise OSError("monitor closed")
            buf += chunk
        return buf.decode(errors="replace")

    def lag_ms(self):
        if self.gone:
            return ""
        if not self.sock:
            self.connect()
            if not self.sock:
                return ""
        try:
            self.sock.sendall(b"info jit\n")
            m = re.search(r"Host - Guest clock\s+(-?\d+) ms", self.reply())
            return m.group(1) if m else ""
        except OSError:
            # QEMU is ending: no lag from here on
            self.sock, self.gone = None, True
            return ""


def sample(argv):
    pid, out = int(argv[0]), argv[1]
    mon_path, interval = None, 0.5
    rest = argv[2:]
    while rest:
        if rest[0] == "--monitor":
            mon_path, rest = rest[1], rest[2:]
        elif rest[0] == "--interval":
            interval, rest = float(rest[1]), rest[2:]
        else:
            sys.exit("qemu-sampler: unknown argument %s" % rest[0])
    tick = os.sysconf("SC_CLK_TCK")
    mon = Monitor(mon_path) if mon_path else None
    with open(out, "w") as f:
        f.write(HEADER + "\n")
        while True:
            try:
                t = time.time()
                cpu, wait = proc_cpu(pid, tick), proc_wait(pid)
            except (OSError, IndexError, ValueError):
                break
            load1, running = host_load()
            lag = mon.lag_ms() if mon else ""
            f.write("%.3f\t%.2f\t%.3f\t%.2f\t%d\t%s\n" % (t, cpu, wait, load1, running, lag))
            f.flush()
            time.sleep(interval)


def read_samples(path):
    rows = []
    with open(path) as f:
        next(f, None)
        for line in f:
            w = line.rstrip("\n").split("\t")
            if len(w) < 6:
                continue
            rows.append({"t": float(w[0]), "cpu": float(w[1]), "wait": float(w[2]),
                         "load1": float(w[3]), "running": int(w[4]),
                         "lag": float(w[5]) if w[5] else None})
    return rows


def timed_part(console, workload_s):
    """(start, end) of the timed part in the guest's clock, or None."""
    start = end = None
    pat = re.compile(r"^hddsim-guest: \[([0-9.]+)\] (.*)$")
    with open(console, errors="replace") as f:
        for line in f:
            m = pat.match(line.rstrip("\r\n"))
            if not m:
                continue
            if m.group(2) == "go":
                start = float(m.group(1))
            elif m.group(2) == "workload finished OK":
                end = float(m.group(1))
    if end is None:
        return None
    if start is None:
        if workload_s is None:
            return None
        start = end - workload_s
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
    samples, console, qemu_log, start = argv[0], argv[1], argv[2], float(argv[3])
    workload_s = float(argv[4]) if len(argv) > 4 and argv[4] not in ("", "NaN") else None
    rows = read_samples(samples)
    out = []
    if rows:
        out.append(("host_qemu_cpu_s", "%.2f" % rows[-1]["cpu"], "s"))
    part = timed_part(console, workload_s) if os.path.exists(console) else None
    if part:
        # the guest's clock at each sample: the host's since QEMU started,
        # less the lag when -icount let the guest fall behind
        inside = [r for r in rows
                  if part[0] <= r["t"] - start - (r["lag"] or 0) / 1000.0 <= part[1]]
        if len(inside) >= 2:
            a, b = inside[0], inside[-1]
            wall = b["t"] - a["t"]
            out.append(("host_qemu_cpu_frac", "%.4f" % ((b["cpu"] - a["cpu"]) / wall), "fraction"))
            out.append(("host_qemu_wait_frac", "%.4f" % ((b["wait"] - a["wait"]) / wall), "fraction"))
            out.append(("host_runnable_mean", "%.2f" % (sum(r["running"] for r in inside) / len(inside)), "tasks"))
            out.append(("host_load1", "%.2f" % b["load1"], "load"))
            lags = [r["lag"] for r in inside if r["lag"] is not None]
            if lags:
                out.append(("icount_lag_start_ms", "%.0f" % lags[0], "ms"))
                out.append(("icount_lag_range_ms", "%.0f" % (max(lags) - min(lags)), "ms"))
    # QEMU's own warnings, where it can give them (-icount align=on)
    n, top = late_warnings(qemu_log)
    if n or any(r["lag"] is not None for r in rows):
        out.append(("qemu_late_warnings", "%d" % n, "count"))
        out.append(("qemu_late_max_s", "%g" % top, "s"))
    for m, v, u in out:
        print("%s,%s,%s" % (m, v, u))


def main():
    if len(sys.argv) < 2 or sys.argv[1] not in ("sample", "summary"):
        sys.exit(__doc__)
    if sys.argv[1] == "sample":
        if len(sys.argv) < 4:
            sys.exit(__doc__)
        sample(sys.argv[2:])
    else:
        if len(sys.argv) < 6:
            sys.exit(__doc__)
        summary(sys.argv[2:])


if __name__ == "__main__":
    main()
