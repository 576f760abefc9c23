/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Tandem-verification (TV) mode: the ingress steps S/U-mode execution one
 * instruction at a time and emits, per instruction, one record group of the
 * Bluespec trace protocol (lib/tvtrace) into the hart's RAM sink.
 *
 * Two execute triggers, one M-mode visit per instruction:
 *   T0 sits on the address the pending instruction goes to, computed from
 *      the registers before it runs (pc + len, the branch outcome, the jump
 *      target, sepc for sret).  When it fires, the registers show the
 *      instruction's effects: its group goes out and T0 moves on.
 *   T1 sits on stvec: a trap the hardware delivers to S-mode fires it, and
 *      sepc/scause say whether the pending instruction trapped, ran, or was
 *      interrupted before it ran.
 * Traps that come to M-mode first (SBI calls, emulated accesses, redirects)
 * pass through the traced trap path (engine.c, trace_trap_enter).
 * docs/TRACE.md, "Tandem-verification mode", describes the records.
 */
#ifndef TRACE_TV_STEPPER_H
#define TRACE_TV_STEPPER_H

#include <stdbool.h>
#include <stdint.h>
#include "firmware/core/trap_regs.h"
#include "firmware/trace/tv_decode.h"
#include "lib/tvtrace/tvtrace.h"

#define TV_GROUP_MAX 112   /* bytes: an instruction's or a trap's whole group */

struct tv_stepper {
	bool on;
	bool pending;            /* an instruction was let run: its group is due */
	bool fetch_fault;        /* ... its fetch faults (no instruction bits)    */
	bool t1_on;
	bool t1_paused;          /* T1 off while the instruction at stvec runs   */
	bool need_init;          /* the initial-state group has not gone out     */
	bool returns_elsewhere;  /* the pending SBI call resumes S/U elsewhere   */
	uint8_t trig_type;       /* 2 (mcontrol) or 6 (mcontrol6)               */
	uint8_t priv;            /* privilege of the pending instruction         */
	uint64_t t0, t1;         /* armed addresses                             */
	/* The pending instruction, and what its pre-state decided. */
	uint64_t pc, next;
	uint32_t raw;
	struct tv_insn in;
	uint64_t eaddr, sdata;
	unsigned long vec_sepc, vec_scause;   /* t1_paused: to see a trap in it */
	struct tvtrace_params params;
	size_t len;              /* bytes of the group being built           */
	uint8_t group[TV_GROUP_MAX];
};

struct trace_hart;

/* Start: execution continues at pc in privilege priv (regs may be NULL). */
void tv_start(struct trace_hart *th, struct trap_regs *regs, uint64_t pc, unsigned int priv);
/* Stop: the pending instruction's group (regs: where the hart resumes;
 * NULL inside an SBI call), then triggers off. */
void tv_finish(struct trace_hart *th, const struct trap_regs *regs);
/* Triggers off, nothing reported (sink full, hart leaves S/U). */
void tv_off(struct trace_hart *th);
/* The S context went into an SBI call that does not return (HSM stop,
 * suspend, reset): its ecall's group, a trap into M-mode. */
void tv_enter_m(struct trace_hart *th);
/* The pending SBI call returns to pc, not past the ecall (SSE). */
void tv_sbi_returns_to(struct trace_hart *th, uint64_t pc);

/* TSBI_TE_TV_PARAMS of this hart (tci_encoder.h). */
uint32_t tv_params_word(void);

/* Traced trap path: a breakpoint (T0, T1 or S/U's own ebreak). */
void tv_breakpoint(struct trace_hart *th, struct trap_regs *regs);
/* Traced trap path: the firmware delivered a trap at epc to S-mode. */
void tv_redirected(struct trace_hart *th, struct trap_regs *regs, unsigned long epc);
/* A trap while the hart runs an LR/SC sequence (engine.c, lrsc_trap()):
 * the guard off, T1 back on stvec. */
void tv_lrsc_end(struct trace_hart *th);

#endif /* TRACE_TV_STEPPER_H */
