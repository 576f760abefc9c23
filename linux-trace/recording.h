/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * tsbi-record's recording file (linux-trace/recorder/README.md defines it):
 * the constants shared by the recorder (tsbi-record, riscv64 Linux) and its
 * reader (`ntrace perf`, on the host).  Everything is little endian.
 *
 *   byte 0   magic "TSBIREC1"
 *   byte 8   u32 header size: bytes before the first record, a multiple of 8
 *   byte 12  u32 version (1)
 *   byte 16  u32 A = size of the perf_event_attr that follows (its attr.size)
 *   byte 20  the perf_event_attr the event was opened with (A bytes)
 *   20 + A   u32 N = number of CPUs, then N u32: each CPU's RISC-V hart ID
 *            (/proc/cpuinfo "hart"), TSBIREC_HART_UNKNOWN when not known
 *   ...      zeros up to the header size
 *   then     the kernel's records, each as it was in the ring buffer
 *            (struct perf_event_header + body, header.size bytes); every
 *            PERF_RECORD_AUX is followed by its aux_size bytes of AUX data
 *            and zeros up to a multiple of 8.
 *
 * The perf ABI's numbers below (attr offsets and bits, record types, sample
 * types) are those of perf_event_open(2) and include/uapi/linux/
 * perf_event.h, under our names, so the host reader needs no Linux headers;
 * the recorder checks them against <linux/perf_event.h> at compile time.
 */
#ifndef TSBI_RECORDING_H
#define TSBI_RECORDING_H

/* ---- The file ------------------------------------------------------------ */

#define TSBIREC_MAGIC           "TSBIREC1"
#define TSBIREC_MAGIC_LEN       8
#define TSBIREC_VERSION         1u
#define TSBIREC_OFF_HEADER_SIZE 8
#define TSBIREC_OFF_VERSION     12
#define TSBIREC_OFF_ATTR_SIZE   16
#define TSBIREC_OFF_ATTR        20
#define TSBIREC_ALIGN           8u      /* records and AUX data start at multiples of it */
#define TSBIREC_ATTR_MIN        64u     /* PERF_ATTR_SIZE_VER0 */
#define TSBIREC_ATTR_MAX        4096u   /* a kernel's attr is 136 bytes in 6.1 */
#define TSBIREC_MAX_CPUS        4096u
#define TSBIREC_HART_UNKNOWN    0xffffffffu

/* ---- struct perf_event_attr: byte offsets and flag bits ------------------ */

#define TSBIREC_ATTR_TYPE         0     /* u32 */
#define TSBIREC_ATTR_SIZE         4     /* u32 */
#define TSBIREC_ATTR_CONFIG       8     /* u64 */
#define TSBIREC_ATTR_SAMPLE_TYPE  24    /* u64 */
#define TSBIREC_ATTR_FLAGS        40    /* u64: the bit-fields from "disabled" on */

#define TSBIREC_FLAG_DISABLED       (1ull << 0)
#define TSBIREC_FLAG_INHERIT        (1ull << 1)
#define TSBIREC_FLAG_EXCLUDE_USER   (1ull << 4)
#define TSBIREC_FLAG_EXCLUDE_KERNEL (1ull << 5)
#define TSBIREC_FLAG_MMAP           (1ull << 8)
#define TSBIREC_FLAG_COMM           (1ull << 9)
#define TSBIREC_FLAG_ENABLE_ON_EXEC (1ull << 12)
#define TSBIREC_FLAG_TASK           (1ull << 13)
#define TSBIREC_FLAG_SAMPLE_ID_ALL  (1ull << 18)
#define TSBIREC_FLAG_MMAP2          (1ull << 23)
#define TSBIREC_FLAG_CONTEXT_SWITCH (1ull << 26)

/* attr.sample_type bits; those in struct sample_id, in its order: TID, TIME,
 * ID, STREAM_ID, CPU, IDENTIFIER (8 bytes each). */
#define TSBIREC_SAMPLE_TID        (1ull << 1)
#define TSBIREC_SAMPLE_TIME       (1ull << 2)
#define TSBIREC_SAMPLE_ID         (1ull << 6)
#define TSBIREC_SAMPLE_CPU        (1ull << 7)
#define TSBIREC_SAMPLE_STREAM_ID  (1ull << 9)
#define TSBIREC_SAMPLE_IDENTIFIER (1ull << 16)
/* What tsbi-record asks for, and what `ntrace perf` needs. */
#define TSBIREC_SAMPLE_NEEDED (TSBIREC_SAMPLE_TID | TSBIREC_SAMPLE_TIME | TSBIREC_SAMPLE_CPU)

/* ---- Records --------------------------------------------------------------- */

#define TSBIREC_HEADER_BYTES 8          /* struct perf_event_header: u32 type, u16 misc, u16 size */

enum tsbirec_type {
	TSBIREC_MMAP = 1,               /* pid, tid, addr, len, pgoff, filename */
	TSBIREC_LOST = 2,               /* id, lost */
	TSBIREC_COMM = 3,               /* pid, tid, comm */
	TSBIREC_EXIT = 4,
	TSBIREC_FORK = 7,
	TSBIREC_SAMPLE = 9,             /* no sample_id trailer: its own layout */
	TSBIREC_MMAP2 = 10,             /* pid, tid, addr, len, pgoff, maj, min, ino,
					   ino_generation (or a build ID), prot, flags, filename */
	TSBIREC_AUX = 11,               /* aux_offset, aux_size, flags */
	TSBIREC_ITRACE_START = 12,      /* pid, tid */
	TSBIREC_LOST_SAMPLES = 13,      /* lost */
	TSBIREC_SWITCH = 14,
};

/* Byte offsets in a record (from its perf_event_header). */
#define TSBIREC_MMAP_NAME         40    /* after pid, tid, addr, len, pgoff */
#define TSBIREC_MMAP2_PROT        64
#define TSBIREC_MMAP2_NAME        72
#define TSBIREC_COMM_NAME         16
#define TSBIREC_AUX_BODY          32    /* header + aux_offset, aux_size, flags */
#define TSBIREC_LOST_BODY         24    /* header + id, lost */
#define TSBIREC_LOST_SAMPLES_BODY 16    /* header + lost */
#define TSBIREC_ITRACE_START_BODY 16    /* header + pid, tid */

/* PERF_RECORD_AUX flags */
#define TSBIREC_AUX_TRUNCATED     0x01ull       /* the sink or the AUX area filled */
#define TSBIREC_AUX_OVERWRITE     0x02ull
#define TSBIREC_AUX_PARTIAL       0x04ull
#define TSBIREC_AUX_COLLISION     0x08ull

#define TSBIREC_PROT_EXEC         0x4u          /* MMAP2 prot */
#define TSBIREC_MISC_MMAP_DATA    (1u << 13)    /* MMAP, MMAP2 misc: not an exec mapping */

/* ---- The tracesbi_trace PMU: what attr.config says ---------------------------
 * Its sysfs format attributes (/sys/bus/event_source/devices/tracesbi_trace/
 * format/NAME), which tsbi-record reads by name; the reader turns them into
 * the encoder's registers (trTeControl, trTeInstFeatures, trTsControl) as
 * the firmware's boot option does (docs/TRACE.md, "Boot option"). */
#define TSBI_PMU_NAME             "tracesbi_trace"
#define TSBI_CFG_BTM              (1ull << 0)   /* 0 HTM, 1 BTM */
#define TSBI_CFG_SEQJUMP          (1ull << 1)
#define TSBI_CFG_IMPLICITRET      (1ull << 2)   /* implicit return, mode 3 */
#define TSBI_CFG_REPEAT           (1ull << 3)
#define TSBI_CFG_ALLJUMPS         (1ull << 4)
#define TSBI_CFG_EXTADDR          (1ull << 5)
#define TSBI_CFG_TS               (1ull << 8)   /* timestamps */
#define TSBI_CFG_CTX              (1ull << 9)   /* Ownership messages */
#define TSBI_CFG_SYNC_SHIFT       16            /* trTeInstSyncMode, 0..3 */
#define TSBI_CFG_SYNC_MASK        (0xfull << 16)
#define TSBI_CFG_SYNCMAX_SHIFT    20            /* trTeInstSyncMax */
#define TSBI_CFG_SYNCMAX_MASK     (0xfull << 20)
#define TSBI_CFG_KNOWN (TSBI_CFG_BTM | TSBI_CFG_SEQJUMP | TSBI_CFG_IMPLICITRET | TSBI_CFG_REPEAT | \
			TSBI_CFG_ALLJUMPS | TSBI_CFG_EXTADDR | TSBI_CFG_TS | TSBI_CFG_CTX | \
			TSBI_CFG_SYNC_MASK | TSBI_CFG_SYNCMAX_MASK)

#endif /* TSBI_RECORDING_H */
