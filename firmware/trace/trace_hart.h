/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * One hart's emulated trace components and the software encoder behind
 * them.  The registers (te, ram) are read by any hart; while the owner
 * hart runs, every change is made by the owner itself (mmio.c sends it
 * there), so the data plane needs no lock; while it is parked, by any
 * hart under its lock (hart.trace_parked, hart.trace_lock: mmio.c).
 */
#ifndef TRACE_TRACE_HART_H
#define TRACE_TRACE_HART_H

#include <stdbool.h>
#include <stdint.h>
#include "lib/ntrace/ntrace.h"
#include "lib/ntrace/ntrace_ingress.h"
#include "lib/tci/tci_filter.h"
#include "firmware/trace/tci_encoder.h"
#include "firmware/trace/tci_ramsink.h"
#include "firmware/trace/stepper.h"
#include "firmware/trace/tv_stepper.h"
#include "firmware/core/trap_regs.h"

#define TRACE_SRAM_SIZE 4096     /* SRAM-mode buffer of each RAM sink */

struct hart;

struct trace_hart {
	struct hart *hart;
	struct tci_encoder te;
	struct tci_ramsink ram;
	/* Owner only. */
	union {
		struct {
			bool tracing;        /* encoder started, stepping (or paused) */
			bool paused;         /* the sink refused bytes: not stepping  */
			bool overflow_now;   /* the sink refused bytes during this event */
			bool ctr_recording;  /* emulated CTR records: the hart steps for it */
			bool start_pending;  /* start once the hart is back in S/U-mode */
		};
		uint64_t flags;          /* the first four tested at once
					    (engine_block_inline()) */
	};
	/* bit p: records of privilege p (PRV | V << 2) are qualified by
	 * privilege alone and traced (no comparator, a filter takes p, p is
	 * not M): set with the qualifier, at the start of a session. */
	uint8_t block_privs;
	bool tv_mode;            /* this session: TV records, not N-Trace      */
	/* Before the encoder (whose buffer is large): the fields of every
	 * visit are then within a load's 12-bit offset of the struct. */
	struct ntrace_ingress ingress;
	struct stepper step;
	struct ntrace_encoder enc;
	struct ntrace_enc_config cfg;   /* as taken at the start */
	struct tci_qualifier qual;
	struct tv_stepper tv;
	uint8_t sram[TRACE_SRAM_SIZE];
};

_Static_assert(__builtin_offsetof(struct trace_hart, paused) ==
		       __builtin_offsetof(struct trace_hart, tracing) + 1 &&
	       __builtin_offsetof(struct trace_hart, overflow_now) ==
		       __builtin_offsetof(struct trace_hart, tracing) + 2 &&
	       __builtin_offsetof(struct trace_hart, ctr_recording) ==
		       __builtin_offsetof(struct trace_hart, tracing) + 3 &&
	       __builtin_offsetof(struct trace_hart, flags) ==
		       __builtin_offsetof(struct trace_hart, tracing),
	       "engine_block_inline(): the flags' low four bytes");

struct trace_hart *trace_hart_of(const struct hart *h);

/* The trace hart whose stepper s is (struct stepper is only ever a
 * trace_hart's `step`). */
static inline struct trace_hart *trace_hart_of_step(struct stepper *s)
{
	return (struct trace_hart *)((char *)s - __builtin_offsetof(struct trace_hart, step));
}

/* ... whose encoder e is. */
static inline struct trace_hart *trace_hart_of_enc(struct ntrace_encoder *e)
{
	return (struct trace_hart *)((char *)e - __builtin_offsetof(struct trace_hart, enc));
}

/* mmio.c, on the owner: it stops / starts running S/U code (the stepping
 * already off / not yet on: hart.trace_parked).  Parking serves the
 * accesses posted before. */
void components_park(struct trace_hart *th);
void components_unpark(struct trace_hart *th);

/* engine.c: start/stop of instruction tracing on the owner.  regs is the
 * frame of the trap the owner is in (its S/U context), or NULL when the
 * owner is in M-mode for other reasons (an SBI call, HSM stopped). */
void engine_start(struct trace_hart *th, struct trap_regs *regs);
void engine_stop(struct trace_hart *th, struct trap_regs *regs);
/* A register write made by the owner: applies its effects. */
void engine_encoder_write(struct trace_hart *th, uint32_t off, uint32_t val,
			  struct trap_regs *regs);
void engine_sink_write(struct trace_hart *th, uint32_t off, uint32_t val, struct trap_regs *regs);
/* Timestamp of an event now (0 when timestamps are off). */
uint64_t engine_timestamp(const struct trace_hart *th);
/* ... for an event at time_now() value `now`. */
uint64_t engine_timestamp_at(const struct trace_hart *th, uint64_t now);
/* The encoder overflowed into a full/disabled sink: stop stepping. */
void engine_pause(struct trace_hart *th);
/* After an event on the owner: pause on overflow, start what waited for a
 * frame (regs may be NULL). */
void engine_apply_pending(struct trace_hart *th, struct trap_regs *regs);

/* TV mode: a record group's bytes into the sink (tv_record.c). */
void engine_tv_write(struct trace_hart *th, const uint8_t *data, size_t len);

/* Emulated CTR (ctr_hart.c) around an access to its registers from S/U
 * (regs, the access at regs->mepc): begin reports what ran before it and
 * stops stepping (returns whether it did); end steps again, from the
 * access on, if N-Trace or CTR's registers as they are now want it. */
bool engine_ctr_access_begin(struct trace_hart *th, struct trap_regs *regs);
void engine_ctr_access_end(struct trace_hart *th, struct trap_regs *regs, uint64_t pc,
			   bool stopped);

/* Records from the stepper into the qualified encoder and CTR. */
void engine_block(struct trace_hart *th, const struct ntrace_block *b,
		  const struct ntrace_retired *end);
void engine_record(struct trace_hart *th, const struct ntrace_retired *r);
void engine_ctr_record(struct trace_hart *th, const struct ntrace_retired *r);

/*
 * engine_block() for the stepper's common case: a run of `count` records
 * (`halfwords` I-CNT units, privilege priv, context 0) and its end, when
 * the ingress qualifies the whole run and the encoder only adds it to I-CNT
 * and HIST (ntrace_enc_block_inline()).  The same state and statistics as
 * engine_block(), without the block.  False: nothing changed.
 */
static inline __attribute__((always_inline)) bool engine_block_inline(struct trace_hart *th, uint64_t addr, uint32_t halfwords,
				       unsigned count, uint8_t priv, const struct ntrace_retired *end)
{
	struct ntrace_ingress *in = &th->ingress;

	/* (engine_block() feeds CTR too, and no encoder while paused; the
	 * ingress's filter is th->qual, which block_privs sums up; a stopped
	 * encoder declines the block itself) */
	/* tracing, not paused, no overflow during this event, no CTR
	 * recording: the flags' low four bytes are 1, 0, 0, 0 (little-endian) */
	if ((uint32_t)th->flags != 1 || !in->tracing ||
	    end->priv != priv || !((th->block_privs >> priv) & 1) ||
	    !ntrace_enc_block_inline(&th->enc, addr, halfwords, count, priv, 0, end))
		return false;
	in->any = true;
	in->reported_off = false;
	th->te.blocks++;
	th->te.insns += count + (end->size ? 1u : 0u);
	return true;
}

#endif /* TRACE_TRACE_HART_H */
