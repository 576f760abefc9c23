// SPDX-License-Identifier: BSD-2-Clause
/*
 * Every offset of a C structure, and every C constant, that the firmware's
 * assembly uses (trap.S, step_fast.S, ecall_pmu_fast.S, entry.S).  Not
 * linked: the build compiles this file to assembly only, where every
 * OFFSET()/VALUE() leaves a line "@@ NAME value", and turns those lines
 * into asm_offsets.h (mk/80-firmware.mk).  So the assembly reads the
 * fields where the C code has them, whatever the layout.  Here, at the top
 * of the firmware, because it sees the structures of every part.
 */
#include <stddef.h>
#include "firmware/trace/trace_hart.h"
#include "firmware/trace/stepper.h"
#include "firmware/trace/step_fast.h"
#include "firmware/core/hart.h"
#include "firmware/core/trap_regs.h"
#include "firmware/pmu/pmu.h"

#define VALUE(name, v) __asm__ volatile(".ascii \"\\n@@ " #name " %0\\n\"" : : "i"(v))
#define OFFSET(name, type, member) VALUE(name, offsetof(type, member))

void asm_offsets(void);

void asm_offsets(void)
{
	/* the trap frame, struct hart */
	OFFSET(TRAP_REGS_MEPC, struct trap_regs, mepc);
	OFFSET(TRAP_REGS_MSTATUS, struct trap_regs, mstatus);
	VALUE(TRAP_REGS_SIZE, sizeof(struct trap_regs));
	OFFSET(HART_PMU_OFFSET, struct hart, pmu);
	OFFSET(HART_TRACE_OFFSET, struct hart, trace);
	OFFSET(HART_TRAP_FAST_FULL, struct hart, trap_fast_full);

	/* struct pmu_hart: the counts of events 256..258 and the trap entry's
	 * minstret (trap.S), what counter_stop's fast path reads
	 * (ecall_pmu_fast.S) */
	VALUE(PMU_OFF_SBI_CALLS, PMU_FW_EVENT_OFFSET(PMU_FW_SBI_CALLS));
	VALUE(PMU_OFF_M_TRAPS, PMU_FW_EVENT_OFFSET(PMU_FW_M_TRAPS));
	VALUE(PMU_OFF_M_INSTRET, PMU_FW_EVENT_OFFSET(PMU_FW_M_INSTRET));
	OFFSET(PMU_OFF_ENTRY_INSTRET, struct pmu_hart, trap_entry_instret);
	OFFSET(PMU_OFF_HW_COUNT, struct pmu_hart, hw_count);
	OFFSET(PMU_OFF_HW_NUM, struct pmu_hart, hw_num);
	OFFSET(PMU_OFF_SSCOFPMF, struct pmu_hart, sscofpmf);
	OFFSET(PMU_OFF_HPM_CONTIGUOUS, struct pmu_hart, hpm_contiguous);
	OFFSET(PMU_OFF_HPM_MASK, struct pmu_hart, hpm_mask);
	OFFSET(PMU_OFF_STATE, struct pmu_hart, state);
	OFFSET(PMU_OFF_SNAPSHOT_ADDR, struct pmu_hart, snapshot_addr);
	OFFSET(PMU_OFF_SNAPSHOT_ON, struct pmu_hart, snapshot_on);
	OFFSET(PMU_OFF_HW, struct pmu_hart, hw);
	VALUE(PMU_HW_COUNTER_SIZE, sizeof(struct pmu_hw_counter));
	VALUE(PMU_ASM_CONFIGURED, PMU_CONFIGURED);
	VALUE(PMU_ASM_RUNNING, PMU_RUNNING);
	VALUE(PMU_ASM_FREE, PMU_FREE);
	VALUE(PMU_ASM_STOP_RESET, PMU_STOP_RESET);
	VALUE(PMU_ASM_STOP_TAKE_SNAPSHOT, PMU_STOP_TAKE_SNAPSHOT);
	VALUE(PMU_ASM_FW_COUNTERS, PMU_FW_COUNTERS);
	VALUE(PMU_ASM_FW_STD_COUNT, PMU_FW_STD_COUNT);

	/* a firmware counter, p->fw[i] (its stop in ecall_pmu_fast.S) */
	OFFSET(PMU_OFF_FW, struct pmu_hart, fw);
	VALUE(PMU_FW_COUNTER_SIZE, sizeof(struct pmu_fw_counter));
	OFFSET(PMU_FW_OFF_SOURCE, struct pmu_fw_counter, source);

	/* (value = *source + offset; event_idx and event_data: its event) */
	OFFSET(PMU_FW_OFF_OFFSET, struct pmu_fw_counter, offset);
	OFFSET(PMU_FW_OFF_EVENT_DATA, struct pmu_fw_counter, event_data);
	OFFSET(PMU_FW_OFF_EVENT_IDX, struct pmu_fw_counter, event_idx);

	/* struct trace_hart and its stepper, encoder statistics, encoder */
	OFFSET(TH_OVERFLOW_NOW, struct trace_hart, overflow_now);
	OFFSET(TH_TE_BLOCKS, struct trace_hart, te.blocks);
	OFFSET(TH_TE_INSNS, struct trace_hart, te.insns);
	OFFSET(TH_PRIV, struct trace_hart, step.priv);
	OFFSET(TH_ALIGN4, struct trace_hart, step.align4);
	OFFSET(TH_T0, struct trace_hart, step.t0);
	OFFSET(TH_T1, struct trace_hart, step.t1);
	OFFSET(TH_BLK, struct trace_hart, step.blk);
	OFFSET(TH_CACHE, struct trace_hart, step.cache);
	OFFSET(TH_CACHE_MASK, struct trace_hart, step.cache_mask);
	OFFSET(TH_FAST_TAG, struct trace_hart, step.fast_tag);
	OFFSET(TH_FAST, struct trace_hart, step.fast);
	OFFSET(TH_FAST_PTIME, struct trace_hart, step.fast_ptime);
	OFFSET(TH_TIME_MMIO, struct trace_hart, step.time_mmio);
	OFFSET(TH_FAST_RESOLVE, struct trace_hart, step.fast_resolve);
	OFFSET(TH_FAST_IT1, struct trace_hart, step.fast_it1);
	OFFSET(TH_FAST_IT2, struct trace_hart, step.fast_it2);
	OFFSET(TH_FAST_H1, struct trace_hart, step.fast_h1);
	OFFSET(TH_FAST_H2, struct trace_hart, step.fast_h2);
	OFFSET(TH_FAST_END, struct trace_hart, step.fast_end);
	OFFSET(TH_ENC, struct trace_hart, enc);
	OFFSET(ENC_SLOW, struct ntrace_encoder, run.slow);
	OFFSET(ENC_ICNT, struct ntrace_encoder, run.icnt);
	OFFSET(ENC_ICNT_CHECK, struct ntrace_encoder, run.icnt_check);
	OFFSET(ENC_HIST, struct ntrace_encoder, run.hist);
	OFFSET(ENC_HIST_LIMIT, struct ntrace_encoder, run.hist_limit);
	OFFSET(ENC_PENDING, struct ntrace_encoder, run.pending);
	OFFSET(ENC_PENDING_BTYPE, struct ntrace_encoder, run.pending_btype);
	OFFSET(ENC_PENDING_TSTAMP, struct ntrace_encoder, run.pending_tstamp);
	OFFSET(ENC_CUR_PRIV, struct ntrace_encoder, run.cur_priv);
	OFFSET(ENC_CUR_CONTEXT, struct ntrace_encoder, run.cur_context);
	OFFSET(ENC_RECORDS, struct ntrace_encoder, stats.records);
	OFFSET(ENC_ACTIVE, struct ntrace_encoder, active);

	/* struct step_block */
	VALUE(BLK_SIZE, sizeof(struct step_block));
	OFFSET(BLK_START, struct step_block, start);
	OFFSET(BLK_END, struct step_block, end);
	OFFSET(BLK_TARGET, struct step_block, target);
	OFFSET(BLK_COUNT, struct step_block, count);
	OFFSET(BLK_END_SIZE, struct step_block, size);
	OFFSET(BLK_COND, struct step_block, cond);
	OFFSET(BLK_RS1, struct step_block, rs1);
	OFFSET(BLK_RS2, struct step_block, rs2);
	OFFSET(BLK_ITYPE_TAKEN, struct step_block, itype_taken);
	OFFSET(BLK_FAST_OP, struct step_block, fast_op);
	OFFSET(BLK_FAST_H, struct step_block, fast_h);
	OFFSET(BLK_TAG, struct step_block, tag);

	/* constants */
	VALUE(FAST_BRANCH, STEP_FAST_BRANCH);
	VALUE(FAST_JAL, STEP_FAST_JAL);
	VALUE(FAST_JALR, STEP_FAST_JALR);
	VALUE(FAST_PENDING, STEP_FAST_PENDING);
	VALUE(FAST_TWO, STEP_FAST_TWO);
	VALUE(FAST_RAN, STEP_FAST_RAN);
	VALUE(TAG_OUT, STEP_TAG_OUT);
	VALUE(INLINE_HIST, NTRACE_INLINE_HIST);
	VALUE(INLINE_COUNT, NTRACE_INLINE_COUNT);
	VALUE(INLINE_INFER, NTRACE_INLINE_INFER);
	VALUE(INLINE_PENDING, NTRACE_INLINE_PENDING);
	VALUE(INLINE_DIRECT, NTRACE_INLINE_DIRECT);
	VALUE(FAST_END_TS, STEP_FAST_END_TS);
	VALUE(PEND_DIRECT, NTRACE_PEND_DIRECT);
	VALUE(PEND_INDIRECT, NTRACE_PEND_INDIRECT);
	_Static_assert(NTRACE_PEND_RETURN_CHECK == NTRACE_PEND_INDIRECT + 1 &&
			       NTRACE_PEND_INDIRECT == NTRACE_PEND_DIRECT + 1,
		       "step_fast.S: the three branch waits are adjacent");
	VALUE(BTYPE_INDIRECT, NTRACE_BTYPE_INDIRECT);
	VALUE(ITYPE_NOT_TAKEN, RV_ITYPE_NOT_TAKEN_BRANCH);
	VALUE(ITYPE_TAKEN, RV_ITYPE_TAKEN_BRANCH);
}
