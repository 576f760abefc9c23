// SPDX-License-Identifier: BSD-2-Clause
/* tvtrace tool: a whole trace file parsed into records, and their names. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "tvtrace_tool.h"

static int push_item(struct tv_trace *t, size_t *cap, const struct tvtrace_record *rec,
		     size_t offset)
{
	if (t->count == *cap) {
		size_t n = *cap ? *cap * 2 : 256;
		struct tv_item *v = realloc(t->v, n * sizeof(*v));

		if (!v)
			return -1;
		t->v = v;
		*cap = n;
	}
	t->v[t->count++] = (struct tv_item){ .rec = *rec, .offset = offset };
	return 0;
}

static bool all_pad(const uint8_t *buf, size_t len, int pad)
{
	for (size_t i = 0; i < len; i++)
		if (buf[i] != pad)
			return false;
	return true;
}

int tv_trace_parse(const struct tvtrace_params *params, const uint8_t *buf,
		   size_t len, int pad, struct tv_trace *out, struct nt_err *err)
{
	struct tvtrace_parser p;
	size_t off = 0, cap = 0;

	memset(out, 0, sizeof(*out));
	if (!tvtrace_params_valid(params)) {
		nt_err_set(err, "unsupported XLEN/FLEN/MLEN");
		return -1;
	}
	tvtrace_parser_init(&p, params);
	while (off < len) {
		struct tvtrace_record rec;
		size_t start = off;

		if (pad != TV_PAD_NONE && all_pad(buf + off, len - off, pad)) {
			out->padding = len - off;
			break;
		}
		int rc = tvtrace_parse(&p, buf, len, &off, &rec);

		if (rc != TVTRACE_OK) {
			nt_err_set(err, "byte 0x%zx (%zu): record %zu (opcode 0x%02x at byte 0x%zx): %s",
				   p.err_offset, p.err_offset, out->count, buf[start], start,
				   tvtrace_strerror(rc));
			return -1;
		}
		if (push_item(out, &cap, &rec, start)) {
			nt_err_set(err, "out of memory at record %zu", out->count);
			return -1;
		}
	}
	return 0;
}

void tv_trace_free(struct tv_trace *t)
{
	free(t->v);
	memset(t, 0, sizeof(*t));
}

/* The CSRs a trace of S/U-mode execution and its traps names most. */
static const struct { uint16_t num; const char *name; } csr_names[] = {
	{ 0x001, "fflags" },   { 0x002, "frm" },        { 0x003, "fcsr" },
	{ 0x100, "sstatus" },  { 0x104, "sie" },        { 0x105, "stvec" },
	{ 0x106, "scounteren" }, { 0x10a, "senvcfg" },  { 0x140, "sscratch" },
	{ 0x141, "sepc" },     { 0x142, "scause" },     { 0x143, "stval" },
	{ 0x144, "sip" },      { 0x14d, "stimecmp" },   { 0x180, "satp" },
	{ 0x300, "mstatus" },  { 0x301, "misa" },       { 0x302, "medeleg" },
	{ 0x303, "mideleg" },  { 0x304, "mie" },        { 0x305, "mtvec" },
	{ 0x306, "mcounteren" }, { 0x340, "mscratch" }, { 0x341, "mepc" },
	{ 0x342, "mcause" },   { 0x343, "mtval" },      { 0x344, "mip" },
	{ 0xb00, "mcycle" },   { 0xb02, "minstret" },   { 0xc00, "cycle" },
	{ 0xc01, "time" },     { 0xc02, "instret" },
};

void tv_reg_name(uint16_t reg, char *buf, size_t size)
{
	if (reg >= TVTRACE_REG_GPR_FIRST && reg < TVTRACE_REG_FPR_FIRST) {
		snprintf(buf, size, "x%u", reg - TVTRACE_REG_GPR_FIRST);
		return;
	}
	if (reg >= TVTRACE_REG_FPR_FIRST && reg <= TVTRACE_REG_FPR_LAST) {
		snprintf(buf, size, "f%u", reg - TVTRACE_REG_FPR_FIRST);
		return;
	}
	for (size_t i = 0; i < sizeof(csr_names) / sizeof(csr_names[0]); i++) {
		if (csr_names[i].num == reg) {
			snprintf(buf, size, "%s", csr_names[i].name);
			return;
		}
	}
	snprintf(buf, size, reg <= TVTRACE_REG_CSR_LAST ? "csr 0x%03x" : "reg 0x%04x", reg);
}

const char *tv_opcode_name(uint8_t opcode)
{
	switch (opcode) {
	case TVTRACE_OP_BEGIN_GROUP:  return "begin-group";
	case TVTRACE_OP_END_GROUP:    return "end-group";
	case TVTRACE_OP_INCR_PC:      return "incr-pc";
	case TVTRACE_OP_FULL_REG:     return "full-reg";
	case TVTRACE_OP_INCR_REG_ADD: return "incr-reg-add";
	case TVTRACE_OP_INCR_REG_OR:  return "incr-reg-or";
	case TVTRACE_OP_STATE:        return "state";
	case TVTRACE_OP_MEM_REQ:      return "mem-req";
	case TVTRACE_OP_MEM_RSP:      return "mem-rsp";
	case TVTRACE_OP_HART_RESET:   return "hart-reset";
	case TVTRACE_OP_STATE_INIT:   return "state-init";
	case TVTRACE_OP_INSN16:       return "insn16";
	case TVTRACE_OP_INSN32:       return "insn32";
	default:                      return "?";
	}
}

const char *tv_mem_op_name(uint8_t op)
{
	static const char *const names[] = {
		"load", "store", "lr", "sc", "amoswap", "amoadd", "amoxor",
		"amoand", "amoor", "amomin", "amomax", "amominu", "amomaxu", "fetch",
	};

	return op < sizeof(names) / sizeof(names[0]) ? names[op] : "?";
}

const char *tv_state_name(uint8_t id)
{
	static const char *const names[] = {
		[TVTRACE_STATE_PRIV] = "priv",         [TVTRACE_STATE_PADDR] = "paddr",
		[TVTRACE_STATE_EADDR] = "eaddr",       [TVTRACE_STATE_DATA8] = "store-data8",
		[TVTRACE_STATE_DATA16] = "store-data16", [TVTRACE_STATE_DATA32] = "store-data32",
		[TVTRACE_STATE_DATA64] = "store-data64", [TVTRACE_STATE_MTIME] = "mtime",
		[TVTRACE_STATE_PC_PADDR] = "pc-paddr", [TVTRACE_STATE_PC] = "pc",
	};

	return id < sizeof(names) / sizeof(names[0]) && names[id] ? names[id] : "?";
}
