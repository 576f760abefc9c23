/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The TCI 1.0 registers of tracesbi's emulated trace components as the
 * test kernel knows them (written out from the TCI spec and docs/TRACE.md,
 * not shared with the firmware: the tests are the oracle), S-mode access
 * to them, and an N-Trace message parser (ntrace-spec-1.0.0-rc7.txt,
 * chapter 3) for what their sinks hold.  Used by t_trace.c and t_tci.c.
 */
#ifndef TARGET_TCI_REGS_H
#define TARGET_TCI_REGS_H

#include "testlib.h"

#define COMP_SIZE         0x1000u
#define COMP_STRIDE       0x2000u    /* docs/TRACE.md: encoder + sink per hart */

/* Trace encoder */
#define TE_CONTROL        0x000u
#define TE_IMPL           0x004u
#define TE_INST_FEATURES  0x008u
#define TE_INST_FILTERS   0x00Cu
#define TE_DATA_CONTROL   0x010u
#define TE_DATA_FILTERS   0x01Cu
#define TS_CONTROL        0x040u
#define TS_COUNTER_LOW    0x048u
#define TS_COUNTER_HIGH   0x04Cu
#define TE_TRIG_DBG       0x050u
#define TE_TRIG_EXT_IN    0x054u
#define TE_TRIG_EXT_OUT   0x058u
#define TE_FILTER(i)      (0x400u + 0x20u * (i))
#define TE_COMP(j)        (0x600u + 0x20u * (j))
#define FILTER_CONTROL    0x00u
#define FILTER_MATCH_INST 0x04u
#define COMP_CONTROL      0x00u
#define COMP_PMATCH_LOW   0x10u
#define COMP_PMATCH_HIGH  0x14u
#define COMP_SMATCH_LOW   0x18u
#define COMP_SMATCH_HIGH  0x1Cu
/* tracesbi's own registers (docs/TRACE.md, 0xE00-0xFFF) */
#define TSBI_INGRESS      0xE00u
#define TSBI_CALL_STACK   0xE04u
#define TSBI_STATUS       0xE08u
#define TSBI_BLOCKS_LOW   0xE10u
#define TSBI_BLOCKS_HIGH  0xE14u
#define TSBI_INSNS_LOW    0xE18u
#define TSBI_INSNS_HIGH   0xE1Cu
#define TSBI_TV_PARAMS    0xE20u

/* trTeControl */
#define TE_ACTIVE         (1u << 0)
#define TE_ENABLE         (1u << 1)
#define TE_INST_TRACING   (1u << 2)
#define TE_EMPTY          (1u << 3)
#define TE_MODE(m)        ((uint32_t)(m) << 4)
#define TE_MODE_MASK      (7u << 4)
#define TE_CONTEXT        (1u << 9)
#define TE_TRIG_ENABLE    (1u << 11)
#define TE_OVERFLOW       (1u << 12)   /* trTeInstStallOrOverflow */
#define TE_STALL_ENA      (1u << 13)
#define TE_INHIBIT_SRC    (1u << 15)
#define TE_SYNC_MODE(m)   ((uint32_t)(m) << 16)
#define TE_SYNC_MAX(m)    ((uint32_t)(m) << 20)
#define TE_FORMAT(f)      ((uint32_t)(f) << 24)
#define TE_FORMAT_MASK    (7u << 24)
#define MODE_OFF          0u
#define MODE_BTM          3u
#define MODE_HTM          6u

/* trTeInstFeatures */
#define F_NO_ADDR_DIFF    (1u << 0)
#define F_NO_TRAP_ADDR    (1u << 1)
#define F_SEQ_JUMP        (1u << 2)
#define F_IMPLICIT_RET    (1u << 3)
#define F_BRANCH_PRED     (1u << 4)
#define F_JUMP_CACHE      (1u << 5)
#define F_IR_MODE(m)      ((uint32_t)(m) << 6)
#define F_REPEATED_HIST   (1u << 8)
#define F_ALL_JUMPS       (1u << 9)
#define F_EXTEND_MSB      (1u << 10)
#define F_SRC_ID(v)       ((uint32_t)(v) << 16)
#define F_SRC_BITS(v)     ((uint32_t)(v) << 28)

/* trTsControl */
#define TS_ACTIVE         (1u << 0)
#define TS_COUNT          (1u << 1)
#define TS_RESET          (1u << 2)
#define TS_RUN_IN_DEBUG   (1u << 3)
#define TS_MODE(m)        ((uint32_t)(m) << 4)
#define TS_PRESCALE(p)    ((uint32_t)(p) << 8)
#define TS_ENABLE         (1u << 15)
#define TS_WIDTH(w)       ((uint32_t)(w) << 24)

/* tsbiTeStatus */
#define ST_INGRESS_OK     (1u << 0)
#define ST_STEPPING       (1u << 1)
#define ST_PAUSED         (1u << 2)
#define ST_LOST_TRACK     (1u << 3)
#define ST_TRIGGERS(v)    (((v) >> 8) & 0xFFu)

/* RAM sink */
#define RAM_CONTROL       0x000u
#define RAM_IMPL          0x004u
#define RAM_START_LOW     0x010u
#define RAM_START_HIGH    0x014u
#define RAM_LIMIT_LOW     0x018u
#define RAM_LIMIT_HIGH    0x01Cu
#define RAM_WP_LOW        0x020u
#define RAM_WP_HIGH       0x024u
#define RAM_RP_LOW        0x028u
#define RAM_RP_HIGH       0x02Cu
#define RAM_DATA          0x040u
/* trRamControl */
#define RAM_ACTIVE        (1u << 0)
#define RAM_ENABLE        (1u << 1)
#define RAM_EMPTY         (1u << 3)
#define RAM_MODE_SMEM     (1u << 4)
#define RAM_STOP_ON_WRAP  (1u << 8)
#define RAM_WRAP          (1u << 0)    /* trRamWPLow bit 0 */

/* The values docs/TRACE.md gives. */
#define TE_IMPL_VALUE     0x00010101u  /* v1.0, type 1, N-Trace 1.0 */
#define RAM_IMPL_VALUE    0x00003901u  /* v1.0, type 9, HasSRAM, HasSMEM */
#define TE_RELEASED       (TE_ACTIVE | TE_EMPTY | TE_MODE(MODE_HTM) | TE_FORMAT(1))
#define SRAM_LIMIT        0xFFCu       /* 4 KiB SRAM */
#define TS_WIDTH_BITS     56u
#define QEMU_TRIGGERS     2u           /* QEMU 7.2's Sdtrig triggers per hart */

/* N-Trace (ntrace-spec-1.0.0-rc7.txt): TCODEs, SYNC and EVCODE values. */
#define TCODE_DIRECT_BRANCH  3
#define TCODE_ERROR          8
#define TCODE_SYNC           9
#define TCODE_CORRELATION    33
#define SYNC_TRACE_ENABLE    5
#define SYNC_OVERRUN         7
#define EVCODE_DISABLED      4
#define ECODE_PROGRAM_LOST   0x4
#define IDLE                 0xFFu

static inline volatile uint32_t *reg(uint64_t base, uint32_t off)
{
	return (volatile uint32_t *)(uintptr_t)(base + off);
}

static inline uint32_t rd(uint64_t base, uint32_t off)
{
	return *reg(base, off);
}

static inline void wr(uint64_t base, uint32_t off, uint32_t val)
{
	*reg(base, off) = val;
}

/* A message parsed back: segment i holds the bits of the fields up to the
 * i-th end of a variable field (segment 0 starts with the TCODE). */
struct msg {
	unsigned tcode;
	int nseg;
	uint64_t seg[4];
	size_t at, len;
};

/* The next message from *pos (idle bytes skipped); false at the end of the
 * bytes or when they end inside a message. */
bool next_msg(const volatile uint8_t *b, size_t n, size_t *pos, struct msg *m);
/* Every byte of [0, n) belongs to a complete message or is idle (a failed
 * check naming `what` when not); *count messages, the last in *last. */
bool all_messages(const volatile uint8_t *b, size_t n, int *count, struct msg *last,
		  const char *what);

#endif
