# shellcheck shell=bash
# hddsim benchmarks: shared shell functions (source this file).
# Starts nbdkit with the built plugin on a unix socket, runs fio through
# its nbd engine, reads the plugin's stats.

set -euo pipefail

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
PLUGIN=${HDDSIM_PLUGIN:-$TOP/hddsim.so}
WORK=$(mktemp -d /tmp/hddsim-bench-XXXXXX)
NBDKIT_PID=

die () { echo "$(basename "$0"): $*" >&2; exit 1; }

bench_cleanup () {
  [ -n "$NBDKIT_PID" ] && kill "$NBDKIT_PID" 2>/dev/null && wait "$NBDKIT_PID" 2>/dev/null
  rm -rf "$WORK"
}
trap bench_cleanup EXIT

[ -f "$PLUGIN" ] || die "plugin $PLUGIN not built: run ./configure && make"
command -v fio >/dev/null || die "fio not installed (apt-get install fio)"
command -v nbdkit >/dev/null || die "nbdkit not installed (apt-get install nbdkit)"

# make_image SIZE: a sparse image in $WORK.
make_image () {
  IMAGE=$WORK/disk.img
  rm -f "$IMAGE"
  truncate -s "$1" "$IMAGE"
}

# start_server PARAMS...: hddsim on $SOCK with trace and stats in $WORK.
start_server () {
  SOCK=$WORK/nbd.sock
  TRACE=$WORK/trace.csv
  STATS=$WORK/stats.json
  rm -f "$SOCK" "$TRACE" "$STATS" "$WORK/pid"
  nbdkit -f -U "$SOCK" -P "$WORK/pid" "$PLUGIN" image="$IMAGE" \
    trace="$TRACE" stats="$STATS" "$@" 2>"$WORK/nbdkit.log" &
  NBDKIT_PID=$!
  for _ in $(seq 300); do
    [ -f "$WORK/pid" ] && return 0
    kill -0 "$NBDKIT_PID" 2>/dev/null || { cat "$WORK/nbdkit.log" >&2; die "nbdkit failed to start"; }
    sleep 0.05
  done
  die "nbdkit did not start"
}

stop_server () {
  kill "$NBDKIT_PID"
  wait "$NBDKIT_PID" || true
  NBDKIT_PID=
}

# run_fio NAME FIO-ARGS...: JSON output in $WORK/NAME.json.
run_fio () {
  local name=$1; shift
  fio --output-format=json --output="$WORK/$name.json" \
    --ioengine=nbd --uri="nbd+unix:///?socket=$SOCK" "$@" >/dev/null \
    || die "fio $name failed"
}

# json FILE PYTHON-EXPR: evaluate an expression over the parsed file 'j'.
json () {
  python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"
}
