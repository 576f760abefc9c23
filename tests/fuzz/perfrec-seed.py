#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""A seed for fuzz_perfrec: a tsbi-record recording (linux-trace/recording.h)
around N-Trace streams: header (Linux 6.1's 128-byte perf_event_attr with
attr.config CONFIG), COMM, MMAP2, ITRACE_START, then one PERF_RECORD_AUX per
NEX file (the last flagged truncated) and a PERF_RECORD_LOST.

    perfrec-seed.py OUT CONFIG NEX...
"""
import struct
import sys

SAMPLE_ID_ALL = 1 << 18
SAMPLE_TID_TIME_CPU = (1 << 1) | (1 << 2) | (1 << 7)
PID, TID = 100, 100


def pad8(b):
    return b + bytes(-len(b) % 8)


def sample_id(cpu, time):
    return struct.pack('<IIQII', PID, TID, time, cpu, 0)


def record(rtype, body, cpu=0, time=0, misc=0):
    body += sample_id(cpu, time)
    return struct.pack('<IHH', rtype, misc, 8 + len(body)) + body


def header(config):
    attr = bytearray(128)
    struct.pack_into('<II', attr, 0, 14, 128)
    struct.pack_into('<Q', attr, 8, config)
    struct.pack_into('<Q', attr, 24, SAMPLE_TID_TIME_CPU)
    struct.pack_into('<Q', attr, 40, SAMPLE_ID_ALL | (1 << 23))
    harts = struct.pack('<III', 2, 0, 1)
    used = 20 + len(attr) + len(harts)
    size = (used + 7) // 8 * 8
    return pad8(b'TSBIREC1' + struct.pack('<III', size, 1, len(attr)) + bytes(attr) + harts)


def main():
    out, config, nexes = sys.argv[1], int(sys.argv[2], 0), sys.argv[3:]
    data = header(config)
    data += record(3, struct.pack('<II', PID, TID) + pad8(b'prog\0'))
    data += record(10, struct.pack('<IIQQQIIQQII', PID, TID, 0x10000, 0x1000, 0, 8, 1, 7, 0, 5, 2)
                   + pad8(b'/bin/prog\0'))
    data += record(12, struct.pack('<II', PID, TID))
    offset = 0
    for i, path in enumerate(nexes):
        with open(path, 'rb') as f:
            nex = f.read()
        flags = 1 if i == len(nexes) - 1 else 0
        data += record(11, struct.pack('<QQQ', offset, len(nex), flags), cpu=i % 2, time=1000 * i)
        data += pad8(nex)
        offset += len(nex)
    data += record(2, struct.pack('<QQ', 1, 3), time=5000)
    with open(out, 'wb') as f:
        f.write(data)


if __name__ == '__main__':
    main()
