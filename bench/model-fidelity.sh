#!/usr/bin/env bash
# hddsim benchmark: does the served drive do what its parameters say?
#
#   bench/model-fidelity.sh [SECONDS] [PROFILE...]
#       (default 10 s per measurement; st340014a st4000nm0033 st500lt012)
#   DONE_ONLY=1 bench/model-fidelity.sh [SECONDS]    (issue 3's check only)
#
# For each built-in profile, on a 4 GiB image spread over the full
# stroke (placement=spread), fio's nbd engine measures through nbdkit:
#   QD1 4K random-read mean latency (cache=off),
#   QD1 1M sequential-read MB/s at the image's outer and inner edges,
#   QD1 4K random-write IOPS with the write cache on (wb) and off,
#   QD1 4K random writes each followed by a flush (fsync=1), per second,
# and prints each beside the model's expectation, worked out here from
# the profile's parameters with the formulas of docs/model.md (not from
# the model's code).  The last lines check issue 3's "done when".
source "$(dirname "$0")/lib.sh"

secs=${1:-10}; shift || true
profiles=("$@")
[ ${#profiles[@]} -gt 0 ] || profiles=(st340014a st4000nm0033 st500lt012)

# The profile's parameter values, printed by the model's own table.
CORE=${HDDSIM_CORE:-$TOP/build/libhddsim-core.a}
[ -f "$CORE" ] || die "$CORE not built: run make"
cat > "$WORK/params.c" <<'C'
#include <stdio.h>
#include "hdd.h"
#include "../profile/profile.h"
int
main (int argc, char **argv)
{
  struct hdd_params *p = hdd_params_new ();
  char err[HDD_ERRLEN];
  int i;
  if (hdd_params_load_profile (p, argv[1], err, sizeof err) == -1)
    { fprintf (stderr, "%s\n", err); return 1; }
  for (i = 2; i + 1 < argc; i += 2)
    if (hdd_params_set (p, argv[i], argv[i + 1], err, sizeof err) != 0)
      { fprintf (stderr, "%s\n", err); return 1; }
  hdd_params_print_values (p, stdout);
  return 0;
}
C
cc -std=gnu11 -I"$TOP/model" -o "$WORK/params" "$WORK/params.c" "$CORE" \
  -linih -lbsd -lm || die "cannot build the parameter printer"

# expect PROFILE: the model's expectations, as name=value lines.
expect () {
  "$WORK/params" "$1" > "$WORK/params-$1.txt"
  python3 - "$WORK/params-$1.txt" <<'PY'
import math, re, sys
p = dict(l.strip().split("=", 1) for l in open(sys.argv[1]) if "=" in l)
def dur(s):
    m = re.fullmatch(r"([0-9.]+)(ns|us|ms|s)", s)
    return float(m.group(1)) * {"ns": 1, "us": 1e3, "ms": 1e6, "s": 1e9}[m.group(2)]
rpm = float(p["rpm"]); rev = 60e9 / rpm
so, si = float(p["sectors-outer"]), float(p["sectors-inner"])
h = float(p["surfaces"]); iface = float(p["iface-rate"])
ov = dur(p["overhead"]); settle = dur(p["write-settle"])
st, sa, sf = dur(p["seek-track"]), dur(p["seek-avg"]), dur(p["seek-full"])
hs = dur(p["head-switch"])
ts = dur(p["track-skew"]) or hs
cs = dur(p["cyl-skew"]) or st + settle
def rate(spt):      # sustained bytes/s of a zone: skews cost time per track
    if p["layout"] == "serpentine":
        return spt * 512 / ((rev + cs) / 1e9)
    return h * spt * 512 / ((h * rev + (h - 1) * ts + cs) / 1e9)
x4k = 8 / ((so + si) / 2) * rev                 # media time of 4K
io4k = 4096 / iface * 1e9
rand_read = sa + rev / 2 + x4k + ov + 512 / iface * 1e9
media_write = sa + settle + rev / 2 + x4k + ov
# Write-back, QD1 random writes (a lower bound): the cache fills, then
# each write waits for one destage write; the arm destages back to back
# through the K dirty 4K blocks, K the cache's bytes over 4K or
# write-cache-entries=, the fewer (issue 25).  In C-LOOK (ascending LBA)
# order, as the bound below; by Write Cache Reordering (the drive's
# order with the entries bounded: the soonest of the K), no slower.  Sparse (fewer
# than one per track of the image's footprint): each costs a seek of
# about 1/K of the stroke (square-root law between seek-track and
# seek-full), the settle and half a revolution.  Dense: the sweep
# passes each track once, a revolution and a switch per track, shared
# by the blocks on it.
cap = float(p["capacity"]); k = float(p["cache-size"]) / 4096
entries = float(p.get("write-cache-entries", "0") or 0)
if entries > 0 and p.get("legacy", "false") != "true":
    k = min(k, entries)
spt = (so + si) / 2
ncyl = cap / (h * 512 * spt)
tracks = 4 * 2**30 / 512 / spt          # the 4 GiB image's footprint
if k <= tracks:
    d = ncyl / k
    seek_k = st + (sf - st) * math.sqrt(max(d - 1, 0) / (ncyl - 1))
    wb_write = seek_k + settle + rev / 2 + x4k
else:
    wb_write = (rev + cs) * tracks / k + x4k
fsync_pair = 2 * ov + io4k + media_write - ov
print("rr_ms=%.3f" % (rand_read / 1e6))
print("seq_outer=%.1f" % (rate(so) / 1e6))
# The image's last 64M are the second half of its last 128M chunk,
# which placement=spread puts 31/32 of the way into the drive's LBAs:
# find that zone.  Zones have equal
# numbers of cylinders, just enough for the capacity (the innermost is
# cut short), and sectors per track falling linearly.
nz = int(p["zones"]); oi, ii = int(p["sectors-outer"]), int(p["sectors-inner"])
spts = [oi - ((oi - ii) * z + (nz - 1) // 2) // (nz - 1) if nz > 1 else oi
        for z in range(nz)]
sectors = int(p["capacity"]) // 512
per_zone = -(-sectors // (int(h) * sum(spts)))
left, target = sectors, sectors // 32 * 31 + 3 * 2**26 // 2 // 512
for z_spt in spts:
    left -= min(per_zone * int(h) * z_spt, left)
    if sectors - left > target:
        break
print("seq_inner=%.1f" % (rate(z_spt) / 1e6))
print("wr_wb=%.0f" % (1e9 / wb_write))
print("wr_off=%.0f" % (1e9 / media_write))
print("wr_fsync=%.0f" % (1e9 / fsync_pair))
# Seconds for fio (at 2000 writes/s or so) to fill the cache while the
# drive destages.
print("wb_ramp=%d" % (k / max(2000 - 1e9 / wb_write, 500) + 5))
PY
}

make_image 4G
base=(sched=fifo placement=spread seed=1)
rr () { run_fio "$1" --name=rr --rw=randread --bs=4k --iodepth=1 \
          --size=4G --runtime="$secs" --time_based; }
# The first and the last 64M of the image: with placement=spread, on
# the outermost and the innermost zone of the drive.
seqrd () { run_fio "$1" --name=seq --rw=read --bs=1M --iodepth=1 \
           --offset="$2" --size=64M --runtime="$secs" --time_based; }
rw () { run_fio "$1" --name=rw --rw=randwrite --bs=4k --iodepth=1 \
          --size=4G --runtime="$secs" --time_based "${@:2}"; }

# Mean lateness of the completions (delivered minus modeled), from
# the plugin's trace: how much of a difference is the host's.
late () {
  python3 -c 'import csv,sys
r=[int(x["late_ns"]) for x in csv.DictReader(open(sys.argv[1])) if x["late_ns"]]
print("%.3f" % (sum(r)/len(r)/1e6))' "$TRACE"
}
printf '%-13s %-24s %9s %9s %6s %8s\n' profile measurement model fio ratio late_ms
row () {
  printf '%-13s %-24s %9s %9.3f %6.3f %8s\n' "$1" "$2" "$3" "$4" \
    "$(python3 -c "print($4/$3)")" "$5"
}
# DONE_ONLY=1: just the "done when" check at the end.
[ -z "${DONE_ONLY:-}" ] || profiles=()
for prof in "${profiles[@]}"; do
  eval "$(expect "$prof")"
  start_server profile="$prof" "${base[@]}" cache=off
  rr "rr-$prof"
  stop_server
  row "$prof" "randread QD1 mean ms" "$rr_ms" \
    "$(json "$WORK/rr-$prof.json" 'j["jobs"][0]["read"]["lat_ns"]["mean"]/1e6')" \
    "$(late)"

  start_server profile="$prof" "${base[@]}"
  seqrd "so-$prof" 0
  stop_server
  row "$prof" "seq 1M outer MB/s" "$seq_outer" \
    "$(json "$WORK/so-$prof.json" 'j["jobs"][0]["read"]["bw_bytes"]/1e6')" \
    "$(late)"
  start_server profile="$prof" "${base[@]}"
  seqrd "si-$prof" 4032M
  stop_server
  row "$prof" "seq 1M inner MB/s" "$seq_inner" \
    "$(json "$WORK/si-$prof.json" 'j["jobs"][0]["read"]["bw_bytes"]/1e6')" \
    "$(late)"

  start_server profile="$prof" "${base[@]}" cache=wb
  # Measured once the cache has filled (the large caches take a while).
  rw "wb-$prof" --ramp_time="$wb_ramp"
  stop_server
  row "$prof" "randwrite wb IOPS >=" "$wr_wb" \
    "$(json "$WORK/wb-$prof.json" 'j["jobs"][0]["write"]["iops"]')" \
    "$(late)"
  start_server profile="$prof" "${base[@]}" cache=off
  rw "off-$prof"
  stop_server
  row "$prof" "randwrite off IOPS" "$wr_off" \
    "$(json "$WORK/off-$prof.json" 'j["jobs"][0]["write"]["iops"]')" \
    "$(late)"
  start_server profile="$prof" "${base[@]}" cache=wb
  rw "fs-$prof" --fsync=1
  stop_server
  row "$prof" "write+fsync per s" "$wr_fsync" \
    "$(json "$WORK/fs-$prof.json" 'j["jobs"][0]["write"]["iops"]')" \
    "$(late)"
done

# Issue 3, "done when": st340014a at 7200 rpm, seek-avg 8.5 ms, no
# cache, no overhead, spread over a 4 GiB image.
done_args=(profile=st340014a rpm=7200 seek-avg=8.5ms cache=off overhead=0
           placement=spread sched=fifo seed=1)
start_server "${done_args[@]}"
rr done-rr
seqrd done-so 0
seqrd done-si 4032M
stop_server
mean=$(json "$WORK/done-rr.json" 'j["jobs"][0]["read"]["lat_ns"]["mean"]/1e6')
so=$(json "$WORK/done-so.json" 'j["jobs"][0]["read"]["bw_bytes"]/1e6')
si=$(json "$WORK/done-si.json" 'j["jobs"][0]["read"]["bw_bytes"]/1e6')
python3 - "$mean" "$so" "$si" <<'PY'
import sys
mean, so, si = map(float, sys.argv[1:])
target = 8.5 + 60e3 / 7200 / 2
ok1 = target <= mean <= 1.06 * target
ok2 = so >= 1.3 * si
print("done-when: randread QD1 mean %.3f ms vs 8.5 ms + half a rev = %.3f ms "
      "(+%.1f%%, must be 0..6%%): %s" % (mean, target, (mean / target - 1) * 100,
                                        "ok" if ok1 else "FAIL"))
print("done-when: seq 1M outer %.1f MB/s / inner %.1f MB/s = %.2f (>= 1.3): %s"
      % (so, si, so / si, "ok" if ok2 else "FAIL"))
sys.exit(0 if ok1 and ok2 else 1)
PY
