# hddsim scheduler benchmarks: shared settings and fio JSON helpers.
# Sourced by bench/sched-*.sh after bench/lib.sh.

. "$TOP/vm-scripts/lib/policies.sh"
POLICIES=${POLICIES:-$(hddsim_policies "$PLUGIN" | tr , ' ')}
[ -n "$POLICIES" ] || die "no policies (set POLICIES)"
PROFILE=${PROFILE:-st340014a}
OUTDIR=${OUTDIR:-$TOP/docs/schedulers}
mkdir -p "$OUTDIR"

# fio_group FILE GROUPID DIR FIELD: one number from a group's entry
# (group_reporting gives one entry per group): bw (KiB/s), mean (ns),
# p50/p99 (ns, completion latency), max (ns), ios.
fio_group () {
  python3 - "$@" <<'PY'
import json, sys
path, gid, d, field = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
j = json.load(open(path))
jobs = [x for x in j["jobs"] if x.get("groupid", 0) == gid]
tot_bw = sum(x[d]["bw"] for x in jobs)
ios = sum(x[d]["total_ios"] for x in jobs)
if field == "bw":
    print(tot_bw)
elif field == "ios":
    print(ios)
elif field == "mean":
    # weighted by I/Os when a group has several entries
    s = sum(x[d]["lat_ns"]["mean"] * x[d]["total_ios"] for x in jobs)
    print(s / ios if ios else 0)
elif field == "max":
    print(max(x[d]["clat_ns"]["max"] for x in jobs))
elif field in ("p50", "p99"):
    key = "50.000000" if field == "p50" else "99.000000"
    vals = [x[d]["clat_ns"].get("percentile", {}).get(key, 0) for x in jobs]
    print(max(vals))
PY
}

# ms NS / mbs KIBPS: formatting for the tables
ms () { python3 -c "import sys; print('%.1f' % (float(sys.argv[1]) / 1e6))" "$1"; }
mbs () { python3 -c "import sys; print('%.2f' % (float(sys.argv[1]) * 1024 / 1e6))" "$1"; }

# make_full_image SIZE: like make_image, but with every block written,
# so that the host's block allocation (first writes into a sparse file)
# does not slow the first policy's writes more than the later ones'.
make_full_image () {
  make_image "$1"
  dd if=/dev/zero of="$IMAGE" bs=1M count="$(($(stat -c %s "$IMAGE") >> 20))" \
    conv=notrunc status=none
}
