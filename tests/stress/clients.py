"""NBD clients for the stress tests and the soak benchmark (libnbd's
Python binding, Debian's python3-libnbd: run with /usr/bin/python3).

Each client runs in its own process, so that it can be killed with
SIGKILL like a crashed QEMU: `python3 clients.py ROLE SOCKET ARGS...`.

  hangup  SOCKET OFFSET LENGTH DEPTH
      keep DEPTH reads and writes in flight on [OFFSET, OFFSET+LENGTH)
      for ever; print "ready" once DEPTH are in flight.  Meant to be
      killed.
  verify  SOCKET OFFSET LENGTH SEED [FLUSH_EVERY]
      write a block, read it back, compare; every FLUSH_EVERY writes a
      flush.  Each block's content names its offset and generation, so
      a read that returns another block's or an older write's data is
      caught.  Runs until the file SOCKET.stop exists; prints one line
      "verify ops=N mismatches=M errors=E flushes=F".
  load    SOCKET OFFSET LENGTH DEPTH SEED FLUSH_EVERY
      like hangup, with a flush every FLUSH_EVERY requests, until
      SOCKET.stop exists; prints "load ops=N errors=E".
"""

import os
import random
import struct
import sys

import nbd

BLOCK = 4096


def connect(sock):
    h = nbd.NBD()
    h.connect_unix(sock)
    return h


def block_content(offset, generation):
    """4 KiB naming its offset and generation in every 16 bytes."""
    return struct.pack("<QQ", offset, generation) * (BLOCK // 16)


def stop_requested(sock):
    """The orchestrator asks a client to finish by creating SOCKET.stop
    (a signal would interrupt libnbd's poll and look like an error)."""
    return sock is not None and os.path.exists(sock + ".stop")


def keep_in_flight(h, offset, length, depth, rng, flush_every, on_ready,
                   sock=None):
    """Keep 'depth' requests queued; returns (ops, errors) once
    stop_requested(sock)."""
    blocks = length // BLOCK
    buf = nbd.Buffer(BLOCK)
    data = b"\xa5" * BLOCK
    cookies = set()
    ops = errors = 0
    ready = False
    while not stop_requested(sock):
        while len(cookies) < depth:
            n = ops + len(cookies)
            off = offset + rng.randrange(blocks) * BLOCK
            if flush_every and n % flush_every == flush_every - 1:
                cookies.add(h.aio_flush())
            elif rng.random() < 0.5:
                cookies.add(h.aio_pread(buf, off))
            else:
                cookies.add(h.aio_pwrite(data, off))
        if not ready:
            on_ready()
            ready = True
        h.poll(-1)
        for c in list(cookies):
            try:
                if h.aio_command_completed(c):
                    cookies.discard(c)
                    ops += 1
            except nbd.Error:
                cookies.discard(c)
                errors += 1
    while h.aio_in_flight() > 0:
        h.poll(-1)
    return ops, errors


def role_hangup(sock, offset, length, depth):
    h = connect(sock)

    def ready():
        print("ready", flush=True)

    keep_in_flight(h, int(offset), int(length), int(depth),
                   random.Random(), 0, ready)


def role_load(sock, offset, length, depth, seed, flush_every):
    h = connect(sock)
    ops, errors = keep_in_flight(h, int(offset), int(length), int(depth),
                                 random.Random(int(seed)), int(flush_every),
                                 lambda: print("ready", flush=True), sock)
    h.shutdown()
    print("load ops=%d errors=%d" % (ops, errors), flush=True)


def role_verify(sock, offset, length, seed, flush_every="8"):
    offset, length, flush_every = int(offset), int(length), int(flush_every)
    rng = random.Random(int(seed))
    generation = {}
    ops = mismatches = errors = flushes = 0
    h = connect(sock)
    print("ready", flush=True)
    while not stop_requested(sock):
        off = offset + rng.randrange(length // BLOCK) * BLOCK
        gen = generation.get(off, 0) + 1
        try:
            h.pwrite(block_content(off, gen), off)
            generation[off] = gen
            if flush_every and (ops + 1) % flush_every == 0:
                h.flush()
                flushes += 1
            got = h.pread(BLOCK, off)
        except nbd.Error as e:
            errors += 1
            print("verify: error at offset %d: %s" % (off, e),
                  file=sys.stderr, flush=True)
            if h.aio_is_dead() or h.aio_is_closed():
                break
            continue
        if got != block_content(off, gen):
            mismatches += 1
            print("verify: mismatch at offset %d generation %d"
                  % (off, gen), file=sys.stderr, flush=True)
        ops += 1
    if not (h.aio_is_dead() or h.aio_is_closed()):
        h.shutdown()
    print("verify ops=%d mismatches=%d errors=%d flushes=%d"
          % (ops, mismatches, errors, flushes), flush=True)


ROLES = {"hangup": role_hangup, "verify": role_verify, "load": role_load}

if __name__ == "__main__":
    if len(sys.argv) < 3 or sys.argv[1] not in ROLES:
        sys.exit("usage: clients.py hangup|verify|load SOCKET ARGS...")
    ROLES[sys.argv[1]](*sys.argv[2:])
