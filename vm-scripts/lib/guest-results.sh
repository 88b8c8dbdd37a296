# shellcheck shell=bash
# guest-results.sh: what a guest sends on its results port (ttyS1): a tar
# of its /results, base64, between HDDSIM-RESULTS-BEGIN and
# "HDDSIM-RESULTS-END rc=N" lines (guest/init).  Sourced by run and crash.

# results_sent FILE: true once the results port's output FILE holds the
# end line
results_sent() { grep -q '^HDDSIM-RESULTS-END' "$1"; }

# results_rc FILE: the guest's status N from the last end line in FILE, or
# nothing when it sent none
results_rc() { tr -d '\r' < "$1" | sed -n 's/^HDDSIM-RESULTS-END rc=\([0-9]*\).*/\1/p' | tail -n1; }

# results_extract FILE DIR: the tar in FILE unpacked into DIR (made);
# fails if it cannot be decoded
results_extract() {
    mkdir -p "$2"
    sed -n '/^HDDSIM-RESULTS-BEGIN/,/^HDDSIM-RESULTS-END/p' "$1" | sed '1d;$d' |
        tr -d '\r' | base64 -d | tar -x -C "$2"
}
