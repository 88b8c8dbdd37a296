# The record appender of vm-scripts/crash and its check (busybox awk in
# the guest; also run on the host by `vm-scripts/crash --self-test`).
#
# Record N is one line fully determined by N, so the check regenerates it
# and compares every byte; it also carries an Adler-32 of its body, so a
# line that is torn or holds another line's data is wrong on its own.
#
#   awk -v mode=write -v file=F -v out=TTY -f crash-records.awk
#       append records 1, 2, ... to F, fsync F (busybox `sync F`) after
#       each, and print "HDDSIM-DURABLE rec N" on TTY once it returned
#       and F holds the N records' bytes; stops at the first failed
#       fsync or short file
#   awk -v mode=check -v durable=N -f crash-records.awk F
#       F with NULs turned into newlines; prints metric lines
#       (lost_durable_records, first_lost_record, bad_record_lines,
#       records_beyond_durable, last_intact_record)

function adler(s,   i, a, b) {
    a = 1; b = 0
    for (i = 1; i <= length(s); i++) { a = (a + ORD[substr(s, i, 1)]) % 65521; b = (b + a) % 65521 }
    # two halves: %d in busybox awk overflows past 2^31
    return sprintf("%05d%05d", b, a)
}
function body(n,   s, i) {
    s = sprintf("R%08d", n)
    for (i = 1; i <= 48; i++) s = s sprintf(" %08d", (n * 2654435761 + i * 40503) % 99999989)
    return s
}
function record(n,   b) { b = body(n); return b " A" adler(b) }
function size(f,   cmd, s) { cmd = "wc -c < " f; s = -1; cmd | getline s; close(cmd); return s + 0 }

BEGIN {
    for (i = 32; i < 127; i++) ORD[sprintf("%c", i)] = i
    if (mode == "write") {
        RECLEN = length(record(1)) + 1
        for (n = 1; ; n++) {
            print record(n) >> file
            fflush(file)
            if (system("sync " file) != 0) { print "records: fsync failed at record " n > "/dev/stderr"; exit 1 }
            # awk does not report a failed write(2), and an fsync with
            # nothing to write succeeds even on a filesystem that went
            # read-only (btrfs after the cut's failed flush: issue 12's
            # "btrfs anomaly"); so the record must be in the file too
            if ((got = size(file)) != n * RECLEN) {
                printf "records: record %d is not in the file after its fsync returned (%d bytes, expected %d): a write failed unreported\n", n, got, n * RECLEN > "/dev/stderr"
                exit 1
            }
            printf "HDDSIM-DURABLE rec %d\n", n > out; fflush(out)
        }
    }
    if (mode != "check") { print "crash-records.awk: mode must be write or check" > "/dev/stderr"; exit 2 }
}
$0 == "" { next }
{
    # busybox awk reads a leading 0 as octal: strip the zeros
    s = substr($0, 2, 8); sub(/^0+/, "", s); n = s + 0
    if (substr($0, 1, 1) == "R" && $0 == record(n)) { ok[n] = 1; if (n > maxok) maxok = n } else bad++
}
END {
    if (mode != "check") exit
    for (n = 1; n <= durable; n++) if (!(n in ok)) { lost++; if (!first) first = n }
    for (n in ok) if (n + 0 > durable) after++
    printf "lost_durable_records,%d,count\n", lost
    printf "first_lost_record,%d,\n", first
    printf "bad_record_lines,%d,count\n", bad
    printf "records_beyond_durable,%d,count\n", after
    printf "last_intact_record,%d,\n", maxok
}
