// SPDX-License-Identifier: BSD-2-Clause
/*
 * Record groups of the tandem-verification trace: records are written with
 * lib/tvtrace into the hart's group buffer, which goes to the sink at the
 * end of the group (an instruction's group always fits: one sink write),
 * or when the next record might not fit (the initial state's group).
 */
#include "firmware/trace/trace_hart.h"
#include "firmware/trace/tv_record.h"

/* The largest record: full register, 16-bit address, 64-bit value. */
#define RECORD_MAX 11

static void flush(struct trace_hart *th)
{
	struct tv_stepper *s = &th->tv;

	if (s->len)
		engine_tv_write(th, s->group, s->len);
	s->len = 0;
}

static void put(struct trace_hart *th, const struct tvtrace_record *r)
{
	struct tv_stepper *s = &th->tv;
	int n;

	if (sizeof(s->group) - s->len < RECORD_MAX)
		flush(th);
	n = tvtrace_write(&s->params, r, NULL, s->group + s->len, sizeof(s->group) - s->len);
	/* The values the stepper writes always fit their fields. */
	if (n > 0)
		s->len += (size_t)n;
}

/* Begin/end group, increment pc, state initialization: opcodes with no
 * payload (chapter 2, "Payload Length" 0) are their opcode byte; most of a
 * group's records are these, so they skip the table-driven writer. */
void tv_put_op(struct trace_hart *th, uint8_t opcode)
{
	struct tv_stepper *s = &th->tv;

	if (sizeof(s->group) - s->len < RECORD_MAX)
		flush(th);
	s->group[s->len++] = opcode;
}

void tv_put_reg(struct trace_hart *th, unsigned int reg, uint64_t value)
{
	struct tvtrace_record r = { .opcode = TVTRACE_OP_FULL_REG, .reg = (uint16_t)reg,
				    .value = value };

	put(th, &r);
}

void tv_put_state(struct trace_hart *th, uint8_t id, uint64_t value)
{
	struct tvtrace_record r = { .opcode = TVTRACE_OP_STATE, .state_id = id, .value = value };

	put(th, &r);
}

void tv_put_insn(struct trace_hart *th, uint32_t raw)
{
	struct tvtrace_record r = { .insn = raw };

	r.opcode = (raw & 3) == 3 ? TVTRACE_OP_INSN32 : TVTRACE_OP_INSN16;
	put(th, &r);
}

void tv_group_begin(struct trace_hart *th)
{
	th->tv.len = 0;
	tv_put_op(th, TVTRACE_OP_BEGIN_GROUP);
}

void tv_group_end(struct trace_hart *th)
{
	tv_put_op(th, TVTRACE_OP_END_GROUP);
	flush(th);
}
