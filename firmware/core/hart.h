/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Per-hart state.  Each hart owns one HART_STACK_SIZE region, aligned to its
 * size; struct hart sits at the top of the region and the M-mode stack grows
 * down below it, from the trap frame just under the struct (trap.S: mscratch
 * holds the frame's address).  M-mode code finds its own struct from sp
 * (hart_self), so no register of the interrupted context is needed to find
 * it.  The lowest HART_PANIC_STACK bytes are the stack of the M-mode fault
 * report (panic.c), kept apart from the ordinary stack, whose limit a
 * canary word marks (hart_stack_canary_ok: checked on every trap that
 * takes the full path).
 *
 *   top   struct hart (HART_STRUCT_SIZE)
 *         trap frame (TRAP_REGS_SIZE)
 *         M-mode stack, growing down
 *         canary word
 *   base  panic stack (HART_PANIC_STACK)
 */
#ifndef FIRMWARE_HART_H
#define FIRMWARE_HART_H

#define MAX_HARTS          32
#define HART_STACK_SHIFT   13
#define HART_STACK_SIZE    (1 << HART_STACK_SHIFT)
#define HART_STRUCT_SIZE   512    /* space reserved for struct hart */
#define HART_PANIC_STACK   1024   /* bottom of the region: the fault report's stack */

#ifndef __ASSEMBLER__
#include <stdint.h>
#include <stdbool.h>
#include "firmware/core/sbi_spec.h"
#include "firmware/core/spinlock.h"

/* Bits of hart.ipi_pending: work another hart asked this hart to do. */
#define IPI_EVENT_SSIP   (1u << 0)   /* raise a supervisor software interrupt */
#define IPI_EVENT_FENCE  (1u << 1)   /* run the fences in fence_from */
#define IPI_EVENT_WAKE   (1u << 2)   /* just wake up and re-check state */
#define IPI_EVENT_TRACE  (1u << 3)   /* trace register accesses (trace.h) */
#define IPI_EVENT_HALT   (1u << 4)   /* another hart panicked: stop here */
#define IPI_EVENT_SSE    (1u << 5)   /* an SSE event may run here: checked on the
                                      * way back to S-mode (sse.h) */

enum fence_kind {
	FENCE_I,
	FENCE_SFENCE_VMA,
	FENCE_SFENCE_VMA_ASID,
	FENCE_HFENCE_GVMA_VMID,
	FENCE_HFENCE_GVMA,
	FENCE_HFENCE_VVMA_ASID,
	FENCE_HFENCE_VVMA,
};

struct pmu_hart;
struct trace_hart;
struct ctr_hart;
struct fw_events;

/* A trace register access one hart asks another to make (trace/mmio.c). */
struct trace_access {
	struct trace_hart *target;
	uint32_t offset;         /* in the target's encoder or sink block    */
	uint32_t value;          /* written value, or the value read         */
	bool sink;               /* RAM sink (else encoder) register          */
	bool write;
};

/* What the SBI FWFT features can control on this hart, found at boot by
 * what sticks in medeleg / menvcfg (features.c: probe_fwft). */
struct fwft_support {
	bool misaligned_deleg;           /* medeleg bits 4 and 6 writable */
	bool zicfilp, zicfiss;           /* menvcfg.LPE, menvcfg.SSE */
	bool ssdbltrp, svadu;            /* menvcfg.DTE, menvcfg.ADUE */
	uint8_t pmm_values;              /* bit v: menvcfg.PMM = v sticks (Ssnpm) */
};

/* The SBI FWFT features on this hart (fwft.c): what they can control,
 * their values and locks. */
struct fwft_hart {
	struct fwft_support support;
	uint8_t value[6];                /* by feature ID (0..5) */
	uint8_t supported;               /* bit f: feature f, from support */
	uint8_t locked;                  /* bit f: feature f is locked */
};

/* S-mode's debug triggers on this hart (SBI DBTR, dbtr.c): trigger i is
 * hardware trigger i; harts with more than DBTR_MAX_TRIGGERS offer that
 * many. */
#define DBTR_MAX_TRIGGERS 8
struct dbtr_hart {
	unsigned long shmem;                      /* physical; valid when shmem_on */
	bool shmem_on, probed;
	uint8_t trig_max;
	uint8_t disabled;                         /* bit i: trigger i is disabled */
	uint8_t types[DBTR_MAX_TRIGGERS];         /* bit t: hw trigger takes type t */
	unsigned long state[DBTR_MAX_TRIGGERS];   /* trig_state of each trig_idx */
	unsigned long tdata1[DBTR_MAX_TRIGGERS];  /* as installed (enables as saved) */
};

struct fence_request {
	enum fence_kind kind;
	unsigned long start, size, id;  /* id: ASID or VMID */
};

/* What probing found on this hart (features.c). */
struct hart_features {
	bool sstc, sscofpmf, h, smstateen, f, d, v;
	bool menvcfg;
	unsigned int pmp_count;          /* implemented pmpaddr registers */
	unsigned int pmp_granularity;    /* log2 bytes */
	bool mcountinhibit;              /* counters can be stopped (priv 1.11+) */
	bool time_csr;                   /* reading time does not trap */
	uint32_t hpm_mask;               /* bit n: mhpmcounter n exists (3..31) */
	unsigned int hpm_width;          /* bits of the first implemented one */
	unsigned int trigger_count;
	uint32_t trigger_types;          /* bit t: some trigger supports type t */
	unsigned int asid_bits, vmid_bits;
};

struct hart {
	unsigned long hartid;
	unsigned int index;              /* position in the hart table */
	volatile int hsm_state;          /* SBI_HSM_STATE_* or HSM_CLAIMED */
	unsigned long next_addr, next_arg1;  /* hart_start / resume target */
	unsigned long next_mode;         /* PRV_S or PRV_U */

	volatile uint32_t ipi_pending;   /* IPI_EVENT_* */
	volatile uint64_t fence_from;    /* bit i: hart i asked for a fence */
	struct fence_request fence;      /* this hart's outstanding request */
	volatile long fence_outstanding; /* acks still awaited */

	volatile uint32_t *msip;         /* ACLINT MSWI / CLINT register */
	volatile uint64_t *mtimecmp;     /* ACLINT MTIMER / CLINT register */

	struct hart_features feat;

	struct pmu_hart *pmu;            /* SBI PMU state (pmu.h) */
	volatile uint64_t smode_console_bytes;  /* written for S-mode (DBCN, legacy) */

	/* Which trap entry mtvec points at (trap_set_vector). */
	bool trap_counting;              /* PMU events 256..258 counted */
	bool trap_tracing;               /* the trace engine steps this hart */
	bool trap_fast;                  /* ... in a session that takes the fast
					    visit (trace/step_fast.S) */
	struct trace_hart *trace;        /* emulated trace components (trace.h) */
	volatile uint64_t trace_from;    /* bit i: hart i posted a trace access */
	struct trace_access trace_req;   /* this hart's access on another hart */
	volatile uint32_t trace_req_done;
	/* The hart runs no S/U code and does not step: other harts change its
	 * trace components themselves, under trace_lock; the hart sets and
	 * clears it under the lock (trace/mmio.c). */
	bool trace_parked;
	spinlock_t trace_lock;

	struct fwft_hart fwft;           /* SBI FWFT state (fwft.c) */
	struct dbtr_hart dbtr;           /* SBI DBTR state (dbtr.c) */
	struct ctr_hart *ctr;            /* Control Transfer Records (ctr/ctr.h) */
	/* The fast entry's full path (trap_set_vector), where the fast visit
	 * goes when it cannot finish (trace/step_fast.S). */
	unsigned long trap_fast_full;
	struct fw_events *fw_events;     /* the PMU's counts (fw_event.h) */
};

_Static_assert(sizeof(struct hart) <= HART_STRUCT_SIZE, "struct hart too big");

_Static_assert(MAX_HARTS <= 64, "fence_from is a 64-bit mask of hart indexes");

/* Internal HSM state: a starter has claimed a stopped hart and is filling
 * in next_addr; reported as START_PENDING. */
#define HSM_CLAIMED  100

#ifdef TSBI_HOST_CSR
struct hart *hart_self(void);    /* host tests (riscv_csr.h): the test's hart */
#else
static inline struct hart *hart_self(void)
{
	unsigned long sp;
	__asm__("mv %0, sp" : "=r"(sp));
	return (struct hart *)((sp | (HART_STACK_SIZE - 1)) + 1 - HART_STRUCT_SIZE);
}
#endif

/* The canary at the limit of the M-mode stack of the hart whose struct is h
 * (just above the panic stack), and its expected value. */
#define HART_STACK_CANARY 0x5AFEC0DE57ACCA11UL
static inline volatile unsigned long *hart_stack_canary(const struct hart *h)
{
	unsigned long top = (unsigned long)h + HART_STRUCT_SIZE;

	return (volatile unsigned long *)(top - HART_STACK_SIZE + HART_PANIC_STACK - 8);
}

static inline bool hart_stack_canary_ok(const struct hart *h)
{
	return *hart_stack_canary(h) == HART_STACK_CANARY;
}

extern unsigned int hart_count;
extern unsigned long hart_ids[MAX_HARTS];
extern struct hart *hart_table[MAX_HARTS];

/* The struct of hart `hartid`, or NULL when the platform has no such hart. */
struct hart *hart_by_id(unsigned long hartid);
struct hart *hart_by_index(unsigned int index);

/*
 * Walk a hart mask as the SBI binary encoding defines it (hart_mask_base -1:
 * every hart).  Returns SBI_ERR_INVALID_PARAM if any selected hartid is not
 * a hart of the platform, else calls fn for each (stopping at its first
 * error, which is returned).
 */
typedef long (*hart_mask_fn)(struct hart *target, void *arg);
long hart_mask_validate(unsigned long mask, unsigned long base);
long hart_mask_for_each(unsigned long mask, unsigned long base, hart_mask_fn fn, void *arg);

/* Never-returning transfers (entry.S). */
void __attribute__((noreturn)) hart_enter_lower(unsigned long addr, unsigned long a0,
						unsigned long a1, unsigned long mode);
void __attribute__((noreturn)) hart_reset_stack_and_call(void (*fn)(struct hart *),
							 struct hart *h);
#endif
#endif
