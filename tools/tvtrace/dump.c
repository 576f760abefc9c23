// SPDX-License-Identifier: BSD-2-Clause
/*
 * tvtrace dump: one line per record, "index offset record", the records of
 * a group indented under its begin-group line.
 */
#include <inttypes.h>

#include "tvtrace_tool.h"

static const char *priv_name(uint64_t priv)
{
	static const char *const names[] = { "U", "S", "H (reserved)", "M" };

	return priv < 4 ? names[priv] : "?";
}

static void print_state(FILE *out, const struct tvtrace_record *r)
{
	fprintf(out, " %s = ", tv_state_name(r->state_id));
	if (r->state_id == TVTRACE_STATE_PRIV)
		fprintf(out, "%" PRIu64 " (%s)", r->value, priv_name(r->value));
	else
		fprintf(out, "0x%" PRIx64, r->value);
}

static void print_record(FILE *out, const struct tvtrace_record *r)
{
	char reg[24];

	fputs(tv_opcode_name(r->opcode), out);
	switch (r->opcode) {
	case TVTRACE_OP_FULL_REG:
		tv_reg_name(r->reg, reg, sizeof(reg));
		fprintf(out, " %s = 0x%" PRIx64, reg, r->value);
		break;
	case TVTRACE_OP_INCR_REG_ADD:
		tv_reg_name(r->reg, reg, sizeof(reg));
		fprintf(out, " %s += %d", reg, r->reg_offset);
		break;
	case TVTRACE_OP_INCR_REG_OR:
		tv_reg_name(r->reg, reg, sizeof(reg));
		fprintf(out, " %s |= 0x%02x", reg, r->reg_mask);
		break;
	case TVTRACE_OP_STATE:
		print_state(out, r);
		break;
	case TVTRACE_OP_MEM_REQ:
		fprintf(out, " %s %uB addr 0x%" PRIx64, tv_mem_op_name(r->mem_op),
			1u << r->mem_size, r->addr);
		if (r->has_data)
			fprintf(out, " data 0x%" PRIx64, r->value);
		break;
	case TVTRACE_OP_MEM_RSP:
		fprintf(out, " %uB %s", 1u << r->mem_size,
			r->mem_result == TVTRACE_MEM_SUCCESS ? "success" : "failure");
		if (r->has_data)
			fprintf(out, " data 0x%" PRIx64, r->value);
		break;
	case TVTRACE_OP_INSN16:
		fprintf(out, " 0x%04" PRIx32, r->insn & 0xffff);
		break;
	case TVTRACE_OP_INSN32:
		fprintf(out, " 0x%08" PRIx32, r->insn);
		break;
	default:
		break;
	}
}

void tv_dump(FILE *out, const struct tv_trace *t)
{
	bool in_group = false;
	size_t groups = 0;

	fprintf(out, "# record  offset    what\n");
	for (size_t i = 0; i < t->count; i++) {
		const struct tvtrace_record *r = &t->v[i].rec;

		if (r->opcode == TVTRACE_OP_BEGIN_GROUP)
			in_group = false;       /* an open group ends here (chapter 3) */
		fprintf(out, "%8zu  0x%06zx  %s", i, t->v[i].offset, in_group ? "  " : "");
		print_record(out, r);
		if (r->opcode == TVTRACE_OP_BEGIN_GROUP)
			fprintf(out, " #%zu", groups++);
		fputc('\n', out);
		if (r->opcode == TVTRACE_OP_BEGIN_GROUP)
			in_group = true;
		else if (r->opcode == TVTRACE_OP_END_GROUP)
			in_group = false;
	}
}
