/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Register model of tracesbi's emulated trace encoder component (Trace
 * Control Interface 1.0, "Trace Encoder Control Interface", with the N-Trace
 * specific controls of the N-Trace spec, chapter "N-Trace Specific Trace
 * Controls").  Pure: no CSR, no memory outside the struct; the time for the
 * timestamp unit is passed in.  A write returns what the owner of the
 * encoder must do (start, stop, ...); docs/TRACE.md lists every register
 * and its WARL choices.
 */
#ifndef TRACE_TCI_ENCODER_H
#define TRACE_TCI_ENCODER_H

#include <stdbool.h>
#include <stdint.h>
#include "lib/tci/tci_spec.h"
#include "lib/tci/tci_filter.h"

/* tracesbi's implementation-specific registers (0xE00-0xFFF). */
#define TSBI_TE_INGRESS       0xE00u  /* RW: how the ingress reports execution */
#define TSBI_TE_CALL_STACK    0xE04u  /* RW: implicit-return call stack depth 1..32 */
#define TSBI_TE_STATUS        0xE08u  /* RO: what the ingress can do here */
#define TSBI_TE_BLOCKS_LOW    0xE10u  /* RO: blocks stepped since tracing started */
#define TSBI_TE_BLOCKS_HIGH   0xE14u
#define TSBI_TE_INSNS_LOW     0xE18u  /* RO: instructions reported since tracing started */
#define TSBI_TE_INSNS_HIGH    0xE1Cu
#define TSBI_TE_TV_PARAMS     0xE20u  /* RO: TV mode's XLEN/FLEN/MLEN in bytes */

/* TSBI_TE_INGRESS bits. */
#define TSBI_INGRESS_ECALL_NO_RETIRE (1u << 0) /* ratified 1.0: ecall/ebreak do not retire */
#define TSBI_INGRESS_SINGLE_STEP     (1u << 1) /* step one instruction at a time */
#define TSBI_INGRESS_TV              (1u << 2) /* tandem-verification records, not N-Trace */
#define TSBI_INGRESS_MASK            (TSBI_INGRESS_ECALL_NO_RETIRE | TSBI_INGRESS_SINGLE_STEP | \
				      TSBI_INGRESS_TV)

/* TSBI_TE_TV_PARAMS fields (bytes; Bluespec trace protocol, chapter 3). */
#define TSBI_TV_XLEN_SHIFT 0
#define TSBI_TV_FLEN_SHIFT 8
#define TSBI_TV_MLEN_SHIFT 16

/* TSBI_TE_STATUS bits. */
#define TSBI_STATUS_INGRESS_OK    (1u << 0)  /* execute triggers available */
#define TSBI_STATUS_STEPPING      (1u << 1)  /* the hart is being stepped now */
#define TSBI_STATUS_PAUSED        (1u << 2)  /* stepping paused: sink full */
#define TSBI_STATUS_LOST_TRACK    (1u << 3)  /* the ingress lost track once (Error + resync) */
#define TSBI_STATUS_TRIGGERS_BUSY (1u << 4)  /* a start was refused: S-mode holds DBTR triggers */
#define TSBI_STATUS_TRIGGERS_SHIFT 8         /* bits 15:8: execute triggers of the hart */

/* The timestamp counter (Internal System: the `time` CSR) is 56 bits wide. */
#define TSBI_TS_WIDTH 56

struct tci_encoder {
	uint32_t control;         /* trTeControl without trTeEmpty         */
	uint32_t inst_features;   /* trTeInstFeatures                      */
	struct tci_filter_regs filters;
	uint32_t ts_control;      /* trTsControl without trTsReset          */
	uint64_t ts_held;         /* counter value at ts_since              */
	uint64_t ts_since;        /* time of the last counter (re)start     */
	uint32_t ingress;         /* TSBI_TE_INGRESS                        */
	uint32_t call_stack;      /* TSBI_TE_CALL_STACK                     */
	uint32_t tv_params;       /* TSBI_TE_TV_PARAMS (set by the owner)    */
	/* Run-time status, kept up to date by the encoder's owner. */
	bool empty;               /* trTeEmpty                              */
	uint32_t status;          /* TSBI_TE_STATUS                         */
	uint64_t blocks, insns;   /* statistics                             */
};

/* What the owner must do after a write (bits). */
#define TE_FX_START  (1u << 0)  /* instruction tracing starts now          */
#define TE_FX_STOP   (1u << 1)  /* instruction tracing stops: flush          */

/* Power-on state: trTeActive = 0 (component in reset). */
void tci_encoder_init(struct tci_encoder *te);

uint32_t tci_encoder_read(const struct tci_encoder *te, uint32_t off, uint64_t now);
uint32_t tci_encoder_write(struct tci_encoder *te, uint32_t off, uint32_t val, uint64_t now);

/* Instruction tracing is on: Active, Enable, InstTracing and a mode. */
bool tci_encoder_tracing(const struct tci_encoder *te);

/* The timestamp for an event at `now`, and whether messages carry one. */
uint64_t tci_encoder_timestamp(const struct tci_encoder *te, uint64_t now);
/* Timestamps on: trTsActive, trTsEnable and the internal system-timer mode. */
static inline bool tci_encoder_ts_enabled(const struct tci_encoder *te)
{
	uint32_t on = TRTS_ACTIVE | TRTS_ENABLE;

	return (te->ts_control & on) == on &&
	       (te->ts_control & TRTS_MODE_MASK) >> TRTS_MODE_SHIFT == TRTS_MODE_INTERNAL_SYSTEM;
}

/* The encoder's overflow report (trTeInstStallOrOverflow := 1). */
static inline void tci_encoder_set_overflow(struct tci_encoder *te)
{
	te->control |= TRTE_INST_STALL_OR_OVERFLOW;
}

#endif /* TRACE_TCI_ENCODER_H */
