// SPDX-License-Identifier: BSD-2-Clause
/*
 * Bluespec tandem-verification trace protocol: writer and parser.
 * Chapter and table references are to bluespec-trace-protocol-2018-11-20.txt.
 */
#include <string.h>

#include "tvtrace.h"

/*
 * The payload of every opcode as a list of fields (chapter 2).  A field's
 * width is fixed, or one of the negotiated lengths, or decided by an
 * earlier field of the same record (state identifier, memory size).
 */
enum field_kind {
	FIELD_END = 0,
	FIELD_REG,         /* 16-bit register address                         */
	FIELD_REG_VALUE,   /* XLEN or FLEN, by the register address           */
	FIELD_OFFSET,      /* 8-bit signed offset                             */
	FIELD_MASK,        /* 8-bit OR mask                                   */
	FIELD_STATE_ID,    /* 8-bit identifier                                */
	FIELD_STATE_VALUE, /* width by the identifier                         */
	FIELD_ADDR,        /* MLEN                                            */
	FIELD_OP_SIZE,     /* op:4 (bits 3:0), size:4 (bits 7:4)              */
	FIELD_SIZE_RESULT, /* size:4 (bits 3:0), result:4 (bits 7:4)          */
	FIELD_MEM_DATA,    /* 1 << size bytes when the record has data        */
	FIELD_INSN16,
	FIELD_INSN32,
};

#define MAX_FIELDS 4

struct layout {
	uint8_t opcode;
	uint8_t fields[MAX_FIELDS];
};

static const struct layout layouts[] = {
	{ TVTRACE_OP_BEGIN_GROUP,  { FIELD_END } },
	{ TVTRACE_OP_END_GROUP,    { FIELD_END } },
	{ TVTRACE_OP_INCR_PC,      { FIELD_END } },
	{ TVTRACE_OP_FULL_REG,     { FIELD_REG, FIELD_REG_VALUE } },
	{ TVTRACE_OP_INCR_REG_ADD, { FIELD_REG, FIELD_OFFSET } },
	{ TVTRACE_OP_INCR_REG_OR,  { FIELD_REG, FIELD_MASK } },
	{ TVTRACE_OP_STATE,        { FIELD_STATE_ID, FIELD_STATE_VALUE } },
	{ TVTRACE_OP_MEM_REQ,      { FIELD_ADDR, FIELD_OP_SIZE, FIELD_MEM_DATA } },
	{ TVTRACE_OP_MEM_RSP,      { FIELD_SIZE_RESULT, FIELD_MEM_DATA } },
	{ TVTRACE_OP_HART_RESET,   { FIELD_END } },
	{ TVTRACE_OP_STATE_INIT,   { FIELD_END } },
	{ TVTRACE_OP_INSN16,       { FIELD_INSN16 } },
	{ TVTRACE_OP_INSN32,       { FIELD_INSN32 } },
};

static const struct layout *layout_of(uint8_t opcode)
{
	for (size_t i = 0; i < sizeof(layouts) / sizeof(layouts[0]); i++)
		if (layouts[i].opcode == opcode)
			return &layouts[i];
	return NULL;
}

bool tvtrace_params_valid(const struct tvtrace_params *params)
{
	if (!params)
		return false;
	if (params->xlen_bytes != 4 && params->xlen_bytes != 8)
		return false;
	if (params->flen_bytes != 0 && params->flen_bytes != 4 &&
	    params->flen_bytes != 8)
		return false;
	return params->mlen_bytes == 4 || params->mlen_bytes == 5 ||
	       params->mlen_bytes == 8;
}

/* Loads, lr and fetches carry no request data; stores, sc and AMOs do. */
bool tvtrace_mem_req_has_data(uint8_t mem_op)
{
	return mem_op != TVTRACE_MEM_LOAD && mem_op != TVTRACE_MEM_LR &&
	       mem_op != TVTRACE_MEM_FETCH;
}

/* Stores and sc return no data ("0 for store"); the rest read memory. */
bool tvtrace_mem_rsp_has_data(uint8_t mem_op)
{
	return mem_op != TVTRACE_MEM_STORE && mem_op != TVTRACE_MEM_SC;
}

/* Width in bytes of a full register's data: FLEN for FPRs, else XLEN. */
static int reg_width(const struct tvtrace_params *params, uint16_t reg)
{
	if (reg >= TVTRACE_REG_FPR_FIRST && reg <= TVTRACE_REG_FPR_LAST)
		return params->flen_bytes ? params->flen_bytes
					  : -TVTRACE_ERR_REGISTER;
	return params->xlen_bytes;
}

/* Width in bytes of an additional state value (chapter 2, "Identifier"). */
static int state_width(const struct tvtrace_params *params, uint8_t id)
{
	switch (id) {
	case TVTRACE_STATE_PRIV:
	case TVTRACE_STATE_DATA8:
		return 1;
	case TVTRACE_STATE_DATA16:
		return 2;
	case TVTRACE_STATE_DATA32:
		return 4;
	case TVTRACE_STATE_DATA64:
	case TVTRACE_STATE_MTIME:
		return 8;
	case TVTRACE_STATE_PADDR:
	case TVTRACE_STATE_EADDR:
	case TVTRACE_STATE_PC_PADDR:
		return params->mlen_bytes;
	case TVTRACE_STATE_PC:
		return params->xlen_bytes;
	default:
		return -TVTRACE_ERR_STATE_ID;
	}
}

static bool fits(uint64_t v, int width)
{
	return width >= 8 || (v >> (8 * width)) == 0;
}

static void put_le(uint8_t *dst, uint64_t v, int width)
{
	for (int i = 0; i < width; i++)
		dst[i] = (uint8_t)(v >> (8 * i));
}

static uint64_t get_le(const uint8_t *src, int width)
{
	uint64_t v = 0;

	for (int i = 0; i < width; i++)
		v |= (uint64_t)src[i] << (8 * i);
	return v;
}

/*
 * The width of one field of rec, or -TVTRACE_ERR_*.  Shared by writer and
 * parser: the parser calls it once the earlier fields of rec are filled in.
 */
static int field_width(const struct tvtrace_params *params,
		       const struct tvtrace_record *rec, uint8_t kind)
{
	switch (kind) {
	case FIELD_REG:
	case FIELD_INSN16:
		return 2;
	case FIELD_INSN32:
		return 4;
	case FIELD_OFFSET:
	case FIELD_MASK:
	case FIELD_STATE_ID:
	case FIELD_OP_SIZE:
	case FIELD_SIZE_RESULT:
		return 1;
	case FIELD_REG_VALUE:
		return reg_width(params, rec->reg);
	case FIELD_STATE_VALUE:
		return state_width(params, rec->state_id);
	case FIELD_ADDR:
		return params->mlen_bytes;
	case FIELD_MEM_DATA:
		return rec->has_data ? 1 << rec->mem_size : 0;
	default:
		return 0;
	}
}

/* Check one field's value for the writer, or the parsed value. */
static int check_field(const struct tvtrace_record *rec, uint8_t kind,
		       int width)
{
	switch (kind) {
	case FIELD_MEM_DATA:
		if (width == 0) /* no data: the value is not written */
			return TVTRACE_OK;
		/* fall through */
	case FIELD_REG_VALUE:
	case FIELD_STATE_VALUE:
		if (!fits(rec->value, width))
			return TVTRACE_ERR_VALUE;
		if (kind == FIELD_STATE_VALUE &&
		    rec->state_id == TVTRACE_STATE_PRIV &&
		    rec->value >> TVTRACE_PRIVLEN)
			return TVTRACE_ERR_VALUE;
		return TVTRACE_OK;
	case FIELD_ADDR:
		return fits(rec->addr, width) ? TVTRACE_OK : TVTRACE_ERR_VALUE;
	case FIELD_OP_SIZE:
		if (rec->mem_op > TVTRACE_MEM_FETCH)
			return TVTRACE_ERR_MEM_OP;
		return rec->mem_size > TVTRACE_MEM_SIZE_64 ? TVTRACE_ERR_MEM_SIZE
							   : TVTRACE_OK;
	case FIELD_SIZE_RESULT:
		if (rec->mem_size > TVTRACE_MEM_SIZE_64)
			return TVTRACE_ERR_MEM_SIZE;
		return rec->mem_result > TVTRACE_MEM_FAILURE ? TVTRACE_ERR_MEM_RESULT
							     : TVTRACE_OK;
	case FIELD_INSN16:
		return rec->insn >> 16 ? TVTRACE_ERR_VALUE : TVTRACE_OK;
	default:
		return TVTRACE_OK;
	}
}

static void put_field(uint8_t *dst, const struct tvtrace_record *rec,
		      uint8_t kind, int width)
{
	switch (kind) {
	case FIELD_REG:
		put_le(dst, rec->reg, width);
		break;
	case FIELD_OFFSET:
		dst[0] = (uint8_t)rec->reg_offset;
		break;
	case FIELD_MASK:
		dst[0] = rec->reg_mask;
		break;
	case FIELD_STATE_ID:
		dst[0] = rec->state_id;
		break;
	case FIELD_OP_SIZE:
		dst[0] = (uint8_t)(rec->mem_op | rec->mem_size << 4);
		break;
	case FIELD_SIZE_RESULT:
		dst[0] = (uint8_t)(rec->mem_size | rec->mem_result << 4);
		break;
	case FIELD_ADDR:
		put_le(dst, rec->addr, width);
		break;
	case FIELD_INSN16:
	case FIELD_INSN32:
		put_le(dst, rec->insn, width);
		break;
	default: /* the value fields */
		put_le(dst, rec->value, width);
		break;
	}
}

static void get_field(struct tvtrace_record *rec, const uint8_t *src,
		      uint8_t kind, int width)
{
	switch (kind) {
	case FIELD_REG:
		rec->reg = (uint16_t)get_le(src, width);
		break;
	case FIELD_OFFSET:
		rec->reg_offset = (int8_t)src[0];
		break;
	case FIELD_MASK:
		rec->reg_mask = src[0];
		break;
	case FIELD_STATE_ID:
		rec->state_id = src[0];
		break;
	case FIELD_OP_SIZE:
		rec->mem_op = src[0] & 0xf;
		rec->mem_size = src[0] >> 4;
		break;
	case FIELD_SIZE_RESULT:
		rec->mem_size = src[0] & 0xf;
		rec->mem_result = src[0] >> 4;
		break;
	case FIELD_ADDR:
		rec->addr = get_le(src, width);
		break;
	case FIELD_INSN16:
	case FIELD_INSN32:
		rec->insn = (uint32_t)get_le(src, width);
		break;
	default:
		rec->value = get_le(src, width);
		break;
	}
}

int tvtrace_write(const struct tvtrace_params *params,
		  const struct tvtrace_record *rec,
		  const struct tvtrace_record *rsp_for,
		  uint8_t *buf, size_t cap)
{
	struct tvtrace_record r;
	const struct layout *lay;
	size_t n = 1;

	if (!tvtrace_params_valid(params))
		return -TVTRACE_ERR_PARAMS;
	lay = layout_of(rec->opcode);
	if (!lay)
		return -TVTRACE_ERR_OPCODE;
	r = *rec;
	if (r.opcode == TVTRACE_OP_MEM_REQ)
		r.has_data = tvtrace_mem_req_has_data(r.mem_op);
	else if (r.opcode == TVTRACE_OP_MEM_RSP && rsp_for)
		r.has_data = tvtrace_mem_rsp_has_data(rsp_for->mem_op);

	/* First pass: check every field and size the record. */
	for (int i = 0; i < MAX_FIELDS && lay->fields[i] != FIELD_END; i++) {
		int w = field_width(params, &r, lay->fields[i]);
		int err;

		if (w < 0)
			return w;
		err = check_field(&r, lay->fields[i], w);
		if (err)
			return -err;
		n += (size_t)w;
	}
	if (n > cap)
		return -TVTRACE_ERR_SPACE;

	buf[0] = r.opcode;
	n = 1;
	for (int i = 0; i < MAX_FIELDS && lay->fields[i] != FIELD_END; i++) {
		int w = field_width(params, &r, lay->fields[i]);

		put_field(buf + n, &r, lay->fields[i], w);
		n += (size_t)w;
	}
	return (int)n;
}

void tvtrace_parser_init(struct tvtrace_parser *p,
			 const struct tvtrace_params *params)
{
	memset(p, 0, sizeof(*p));
	p->params = *params;
}

static int parse_error(struct tvtrace_parser *p, int err, size_t at)
{
	p->err_offset = at;
	return err;
}

int tvtrace_parse(struct tvtrace_parser *p, const uint8_t *buf, size_t len,
		  size_t *off, struct tvtrace_record *rec)
{
	const struct layout *lay;
	size_t start = *off, pos;

	if (!tvtrace_params_valid(&p->params))
		return parse_error(p, TVTRACE_ERR_PARAMS, start);
	if (start >= len)
		return parse_error(p, TVTRACE_ERR_TRUNCATED, start);
	memset(rec, 0, sizeof(*rec));
	rec->opcode = buf[start];
	lay = layout_of(rec->opcode);
	if (!lay)
		return parse_error(p, TVTRACE_ERR_OPCODE, start);
	/* Chapter 3: a memory response immediately follows its request. */
	if (rec->opcode == TVTRACE_OP_MEM_RSP) {
		if (!p->after_request)
			return parse_error(p, TVTRACE_ERR_ORPHAN_RSP, start);
		rec->has_data = tvtrace_mem_rsp_has_data(p->request_op);
	}

	pos = start + 1;
	for (size_t i = 0, prev = pos; i < MAX_FIELDS && lay->fields[i] != FIELD_END; i++) {
		uint8_t kind = lay->fields[i];
		int w, err;

		if (kind == FIELD_MEM_DATA && rec->opcode == TVTRACE_OP_MEM_REQ)
			rec->has_data = tvtrace_mem_req_has_data(rec->mem_op);
		w = field_width(&p->params, rec, kind);
		if (w < 0) /* the previous field (register, identifier) decides */
			return parse_error(p, -w, prev);
		if ((size_t)w > len - pos)
			return parse_error(p, TVTRACE_ERR_TRUNCATED, start);
		get_field(rec, buf + pos, kind, w);
		err = check_field(rec, kind, w);
		if (err)
			return parse_error(p, err, pos);
		prev = pos;
		pos += (size_t)w;
	}

	p->after_request = rec->opcode == TVTRACE_OP_MEM_REQ;
	p->request_op = rec->mem_op;
	*off = pos;
	return TVTRACE_OK;
}

const char *tvtrace_strerror(int err)
{
	static const char *const names[] = {
		[TVTRACE_OK] = "ok",
		[TVTRACE_ERR_PARAMS] = "unsupported XLEN/FLEN/MLEN",
		[TVTRACE_ERR_SPACE] = "output buffer too small",
		[TVTRACE_ERR_TRUNCATED] = "record truncated",
		[TVTRACE_ERR_OPCODE] = "unknown opcode",
		[TVTRACE_ERR_STATE_ID] = "unknown additional state identifier",
		[TVTRACE_ERR_MEM_OP] = "unknown memory request opcode",
		[TVTRACE_ERR_MEM_SIZE] = "memory size above 64 bits",
		[TVTRACE_ERR_MEM_RESULT] = "unknown memory response result",
		[TVTRACE_ERR_ORPHAN_RSP] = "memory response without its request",
		[TVTRACE_ERR_REGISTER] = "FPR written with FLEN 0",
		[TVTRACE_ERR_VALUE] = "value wider than its field",
	};

	if (err < 0)
		err = -err;
	if ((size_t)err >= sizeof(names) / sizeof(names[0]))
		return "unknown error";
	return names[err];
}
