#!/usr/bin/env python3
"""Write binary blktrace files (what blktrace records: one file per CPU,
NAME.blktrace.CPU) from an event list, so that blkparse itself prints
them as text:

    make-blktrace.py sdb EVENTS && blkparse -i sdb > OUT

Each record is struct blk_io_trace of blktrace_api.h (magic, sequence,
time, sector, bytes, action, pid, device, cpu, error, pdu_len), its
action the category bits (BLK_TC_*) << 16 | the action (__BLK_TA_*); a
process-name notify record (BLK_TN_PROCESS) names each pid.  EVENTS is
Python calling comm(PID, NAME) and ev(TIME_NS, ACTION, FLAGS, SECTOR,
SECTORS, PID, cpu=0).
"""
import struct
import sys

MAGIC = 0x65617407          # BLK_IO_TRACE_MAGIC | version 7
DEVICE = (8 << 20) | 16     # 8,16 as the kernel's dev_t (MKDEV)
TC = dict(R=1 << 0, W=1 << 1, FLUSH=1 << 2, SYNC=1 << 3, QUEUE=1 << 4,
          REQUEUE=1 << 5, ISSUE=1 << 6, COMPLETE=1 << 7, FS=1 << 8,
          NOTIFY=1 << 10, DISCARD=1 << 13, FUA=1 << 15)
TA = dict(Q=1, M=2, F=3, G=4, R=6, D=7, C=8, I=12)
CATEGORY = dict(Q='QUEUE', M='QUEUE', F='QUEUE', G='QUEUE', I='QUEUE',
                R='REQUEUE', D='ISSUE', C='COMPLETE')
RECORD = '<IIQQIIIIIHH'

records = {}                # cpu -> [(time, bytes)]
names = []


def comm(pid, name):
    names.append((pid, name))


def ev(t, act, flags, sector, nsect, pid, cpu=0):
    cat = TC[CATEGORY[act]] | TC['FS']
    for f in ([flags] if isinstance(flags, str) else flags):
        cat |= TC[f]
    records.setdefault(cpu, []).append(
        (t, TA[act] | cat << 16, sector, nsect * 512, pid))


exec(open(sys.argv[2]).read())
for cpu, evs in records.items():
    with open('%s.blktrace.%d' % (sys.argv[1], cpu), 'wb') as out:
        for pid, name in names:
            pdu = name.encode() + b'\0'
            out.write(struct.pack(RECORD, MAGIC, 0, 0, 0, 0,
                                  TC['NOTIFY'] << 16, pid, DEVICE, cpu, 0,
                                  len(pdu)) + pdu)
        for seq, (t, action, sector, nbytes, pid) in enumerate(sorted(evs)):
            out.write(struct.pack(RECORD, MAGIC, seq + 1, t, sector, nbytes,
                                  action, pid, DEVICE, cpu, 0, 0))
