/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Record groups of the tandem-verification trace, built in the hart's
 * tv_stepper and written to the RAM sink (tv_record.c).
 */
#ifndef TRACE_TV_RECORD_H
#define TRACE_TV_RECORD_H

#include <stdint.h>
#include "firmware/trace/tv_stepper.h"

struct trace_hart;

void tv_group_begin(struct trace_hart *th);
/* End group; the group goes to the sink (engine_tv_write). */
void tv_group_end(struct trace_hart *th);

void tv_put_op(struct trace_hart *th, uint8_t opcode);
void tv_put_reg(struct trace_hart *th, unsigned int reg, uint64_t value);
void tv_put_state(struct trace_hart *th, uint8_t id, uint64_t value);
void tv_put_insn(struct trace_hart *th, uint32_t raw);

#endif /* TRACE_TV_RECORD_H */
