// SPDX-License-Identifier: BSD-2-Clause
/*
 * N-Trace message layer: the Table 8 layouts, the MDO/MSEO writer and the
 * parser (chapter 3).  Writer and parser both walk ntrace_msg_layout(), so a
 * message type is described once.
 */
#include <string.h>

#include "ntrace.h"
#include "ntrace_internal.h"

const struct ntrace_msg_layout *ntrace_msg_layout(unsigned tcode)
{
	return ntrace_layout_of(tcode);
}

static const char *const field_names[NTRACE_FLD_COUNT] = {
	[NTRACE_FLD_TCODE] = "TCODE", [NTRACE_FLD_SRC] = "SRC", [NTRACE_FLD_SYNC] = "SYNC",
	[NTRACE_FLD_BTYPE] = "BTYPE", [NTRACE_FLD_ICNT] = "ICNT", [NTRACE_FLD_FADDR] = "FADDR",
	[NTRACE_FLD_UADDR] = "UADDR", [NTRACE_FLD_HIST] = "HIST", [NTRACE_FLD_PROCESS] = "PROCESS",
	[NTRACE_FLD_ETYPE] = "ETYPE", [NTRACE_FLD_ECODE] = "ECODE", [NTRACE_FLD_RCODE] = "RCODE",
	[NTRACE_FLD_RDATA] = "RDATA", [NTRACE_FLD_HREPEAT] = "HREPEAT", [NTRACE_FLD_BCNT] = "BCNT",
	[NTRACE_FLD_EVCODE] = "EVCODE", [NTRACE_FLD_CDF] = "CDF", [NTRACE_FLD_TSTAMP] = "TSTAMP",
};

const char *ntrace_field_name(unsigned field)
{
	return field < NTRACE_FLD_COUNT ? field_names[field] : "?";
}

const char *ntrace_tcode_name(unsigned tcode)
{
	const struct ntrace_msg_layout *l = ntrace_msg_layout(tcode);

	if (l)
		return l->name;
	if (tcode >= NTRACE_TCODE_VENDOR_FIRST && tcode <= NTRACE_TCODE_VENDOR_LAST)
		return "VendorDefined";
	return "Reserved";
}

static const char *const err_text[NTRACE_ERR_COUNT] = {
	[NTRACE_OK] = "ok",
	[NTRACE_ERR_ARG] = "invalid argument or configuration",
	[NTRACE_ERR_SPACE] = "output buffer too small",
	[NTRACE_ERR_SINK] = "byte sink failed",
	[NTRACE_ERR_MSEO_RESERVED] = "reserved MSEO value 10",
	[NTRACE_ERR_BAD_START] = "message does not start with MSEO=00",
	[NTRACE_ERR_TRUNCATED] = "input ends inside a message",
	[NTRACE_ERR_FIELD_MISSING] = "message ends before a required field",
	[NTRACE_ERR_FIELD_SPLIT] = "field end inside a fixed-length field",
	[NTRACE_ERR_FIELD_TOO_LONG] = "variable-length field longer than allowed",
	[NTRACE_ERR_EXTRA_FIELDS] = "unexpected fields after the last field",
	[NTRACE_ERR_RESERVED_TCODE] = "reserved TCODE",
	[NTRACE_ERR_VENDOR_TCODE] = "vendor-defined TCODE",
	[NTRACE_ERR_BAD_VALUE] = "reserved field value",
	[NTRACE_ERR_BAD_ICNT] = "incorrect I-CNT (ends inside an instruction)",
	[NTRACE_ERR_NO_CODE] = "address not in the program image",
	[NTRACE_ERR_ILLEGAL_INSN] = "illegal instruction in traced code",
	[NTRACE_ERR_UNINFERABLE] = "uninferable jump inside an I-CNT block",
	[NTRACE_ERR_NOT_BRANCH] = "DirectBranch block does not end with a branch",
	[NTRACE_ERR_HIST_EMPTY] = "branch without a HIST bit",
	[NTRACE_ERR_HIST_LEFT] = "HIST bits left at the end of a block",
	[NTRACE_ERR_HIST_QUEUE] = "too many pending HIST records",
	[NTRACE_ERR_NO_TARGET] = "no address for an indirect jump",
	[NTRACE_ERR_REPEAT] = "RepeatBranch without a preceding branch message",
	[NTRACE_ERR_WALK_LIMIT] = "instruction walk exceeded its bound",
	[NTRACE_ERR_NO_SYNC] = "no sync message in the stream: nothing can be decoded",
};

const char *ntrace_strerror(int err)
{
	if (err < 0)
		err = -err;
	return err < NTRACE_ERR_COUNT && err_text[err] ? err_text[err] : "unknown error";
}

void ntrace_msg_init(struct ntrace_msg *m, unsigned tcode)
{
	memset(m, 0, sizeof(*m));
	ntrace_msg_set(m, NTRACE_FLD_TCODE, tcode);
}

unsigned ntrace_var_bytes(uint64_t v, unsigned start_bit)
{
	return ntrace_var_bytes_inline(v, start_bit);
}

/* ---------------------------------------------------------------- writer */

int ntrace_write_fields(const struct ntrace_format *fmt, const struct ntrace_msg_layout *l,
			const uint64_t *val, bool has_tstamp, uint8_t *out)
{
	return ntrace_write_layout(fmt, l, val, has_tstamp, out);
}

int ntrace_msg_write(const struct ntrace_format *fmt, const struct ntrace_msg *m,
		     uint8_t *out, size_t cap)
{
	unsigned tcode = (unsigned)m->val[NTRACE_FLD_TCODE];
	const struct ntrace_msg_layout *l = ntrace_msg_layout(tcode);
	uint8_t tmp[NTRACE_WRITE_MAX];
	int n;

	if (!l || fmt->src_bits > NTRACE_MAX_SRC || (fmt->xlen != 32 && fmt->xlen != 64))
		return -NTRACE_ERR_ARG;
	for (unsigned i = 0; i < l->nfields; i++) {
		const struct ntrace_field_desc *fd = &l->fields[i];

		if (!ntrace_cond_holds(fd->cond, m->val))
			continue;
		if (!ntrace_msg_has(m, fd->id))
			return -NTRACE_ERR_ARG;
		if (fd->kind == NTRACE_KIND_FIXED && (m->val[fd->id] >> fd->bits))
			return -NTRACE_ERR_ARG;
	}
	n = ntrace_write_fields(fmt, l, m->val, ntrace_msg_has(m, NTRACE_FLD_TSTAMP), tmp);
	if ((size_t)n > cap)
		return -NTRACE_ERR_SPACE;
	memcpy(out, tmp, (size_t)n);
	return n;
}

/* ---------------------------------------------------------------- parser */

struct bit_reader {
	const uint8_t *buf;
	size_t cur, end; /* current byte, last byte of the message (MSEO=11) */
	unsigned bp;     /* MDO bits of buf[cur] already consumed            */
	bool done;       /* message end reached (last field ended)           */
};

static unsigned mseo_of(uint8_t b) { return b & NTRACE_MSEO_MASK; }
static unsigned mdo_of(uint8_t b) { return b >> 2; }

/* Move to the next byte when the current one is used up by fixed bits. */
static int next_byte_for_fixed(struct bit_reader *r)
{
	unsigned ms = mseo_of(r->buf[r->cur]);

	if (ms == NTRACE_MSEO_END_MSG)
		return -NTRACE_ERR_FIELD_MISSING;
	if (ms != NTRACE_MSEO_NORMAL)
		return -NTRACE_ERR_FIELD_SPLIT;
	r->cur++;
	r->bp = 0;
	return 0;
}

static int get_fixed(struct bit_reader *r, unsigned n, uint64_t *v)
{
	unsigned got = 0;

	*v = 0;
	if (r->done)
		return -NTRACE_ERR_FIELD_MISSING;
	while (got < n) {
		if (r->bp == NTRACE_MDO_BITS) {
			int rc = next_byte_for_fixed(r);

			if (rc)
				return rc;
		}
		unsigned take = NTRACE_MDO_BITS - r->bp;

		if (take > n - got)
			take = n - got;
		*v |= (uint64_t)((mdo_of(r->buf[r->cur]) >> r->bp) & ((1u << take) - 1u)) << got;
		r->bp += take;
		got += take;
	}
	return 0;
}

/*
 * Read a variable field: from the current bit to the end of the byte with
 * MSEO 01/11.  `max` is the Table 10 limit: values wider than that, or more
 * bytes than that width could ever need, are rejected (a long run of zero
 * bytes must not be accepted as a field, chapter 3).
 */
static int get_var(struct bit_reader *r, unsigned max, uint64_t *v, unsigned *nbits)
{
	unsigned total = 0;

	*v = 0;
	if (r->done)
		return -NTRACE_ERR_FIELD_MISSING;
	if (r->bp == NTRACE_MDO_BITS) {
		int rc = next_byte_for_fixed(r);

		if (rc)
			return rc;
	}
	for (;;) {
		uint8_t b = r->buf[r->cur];
		uint64_t chunk = mdo_of(b) >> r->bp;
		unsigned take = NTRACE_MDO_BITS - r->bp;

		if (total < 64) {
			*v |= chunk << total;
			if (total + take > 64 && (chunk >> (64 - total)))
				return -NTRACE_ERR_FIELD_TOO_LONG;
		} else if (chunk) {
			return -NTRACE_ERR_FIELD_TOO_LONG;
		}
		total += take;
		if (total > max + NTRACE_MDO_BITS)
			return -NTRACE_ERR_FIELD_TOO_LONG;
		r->bp = 0;
		if (mseo_of(b) != NTRACE_MSEO_NORMAL) {
			r->done = mseo_of(b) == NTRACE_MSEO_END_MSG;
			r->cur++;
			break;
		}
		r->cur++;
	}
	if (max < 64 && (*v >> max))
		return -NTRACE_ERR_FIELD_TOO_LONG;
	*nbits = total;
	return 0;
}

/* 8.2: extend the top transmitted bit of an address field when enabled. */
static uint64_t extend_addr(const struct ntrace_format *fmt, uint64_t v, unsigned nbits)
{
	unsigned amax = ntrace_addr_bits(fmt);

	if (!fmt->extend_addr_msb || nbits == 0 || nbits >= amax)
		return v;
	if ((v >> (nbits - 1)) & 1)
		v |= ((1ull << amax) - 1) & ~((1ull << nbits) - 1);
	return v;
}

static int parse_fields(const struct ntrace_format *fmt, const struct ntrace_msg_layout *l,
			struct bit_reader *r, struct ntrace_msg *m)
{
	for (unsigned i = 0; i < l->nfields; i++) {
		const struct ntrace_field_desc *fd = &l->fields[i];
		uint64_t v;
		unsigned nb = fd->bits;
		int rc;

		if (!ntrace_cond_holds(fd->cond, m->val))
			continue;
		if (fd->kind == NTRACE_KIND_FIXED) {
			rc = get_fixed(r, fd->bits, &v);
		} else {
			unsigned max = fd->kind == NTRACE_KIND_ADDR ? ntrace_addr_bits(fmt) : fd->bits;

			rc = get_var(r, max, &v, &nb);
			if (!rc && fd->kind == NTRACE_KIND_ADDR)
				v = extend_addr(fmt, v, nb);
		}
		if (rc)
			return rc;
		ntrace_msg_set(m, fd->id, v);
		m->bits[fd->id] = (uint8_t)nb;
		if (fd->id == NTRACE_FLD_CDF && v > NTRACE_CDF_ICNT_HIST)
			return -NTRACE_ERR_BAD_VALUE; /* CDF 2..3 reserved: layout unknown */
	}
	if (!r->done) {
		uint64_t v;
		unsigned nb;
		int rc = get_var(r, NTRACE_MAX_TSTAMP, &v, &nb);

		if (rc)
			return rc;
		ntrace_msg_set(m, NTRACE_FLD_TSTAMP, v);
		m->bits[NTRACE_FLD_TSTAMP] = (uint8_t)nb;
		if (!r->done)
			return -NTRACE_ERR_EXTRA_FIELDS;
	}
	return 0;
}

/* Resynchronisation point: just after the next end-of-message byte from p. */
static size_t past_msg_end(const uint8_t *buf, size_t len, size_t p)
{
	while (p < len && mseo_of(buf[p]) != NTRACE_MSEO_END_MSG)
		p++;
	return p < len ? p + 1 : len;
}

static int parse_fail(struct ntrace_error *err, int rc, size_t at, size_t msg_at)
{
	if (err) {
		err->code = -rc;
		err->offset = at;
		err->msg_offset = msg_at;
	}
	return rc;
}

int ntrace_msg_parse(const struct ntrace_format *fmt, const uint8_t *buf, size_t len,
		     size_t *pos, struct ntrace_msg *m, struct ntrace_error *err)
{
	size_t p = *pos, start, end;
	struct bit_reader r;
	uint64_t v;
	int rc;

	while (p < len && buf[p] == NTRACE_IDLE_BYTE)
		p++;
	if (p >= len) {
		*pos = len;
		return 0;
	}
	start = p;
	memset(m, 0, sizeof(*m));
	m->offset = start;
	if (mseo_of(buf[start]) != NTRACE_MSEO_NORMAL) {
		int code = mseo_of(buf[start]) == NTRACE_MSEO_RESERVED ? -NTRACE_ERR_MSEO_RESERVED
									: -NTRACE_ERR_BAD_START;
		*pos = past_msg_end(buf, len, start);
		return parse_fail(err, code, start, start);
	}
	for (end = start; end < len && mseo_of(buf[end]) != NTRACE_MSEO_END_MSG; end++) {
		if (mseo_of(buf[end]) == NTRACE_MSEO_RESERVED) {
			*pos = past_msg_end(buf, len, end);
			return parse_fail(err, -NTRACE_ERR_MSEO_RESERVED, end, start);
		}
	}
	if (end >= len) {
		*pos = len;
		return parse_fail(err, -NTRACE_ERR_TRUNCATED, len, start);
	}
	*pos = end + 1;
	m->length = end + 1 - start;

	r = (struct bit_reader){ .buf = buf, .cur = start, .end = end };
	get_fixed(&r, NTRACE_TCODE_BITS, &v); /* cannot fail: first byte */
	ntrace_msg_set(m, NTRACE_FLD_TCODE, v);
	m->bits[NTRACE_FLD_TCODE] = NTRACE_TCODE_BITS;
	if (fmt->src_bits) {
		rc = get_fixed(&r, fmt->src_bits, &v);
		if (rc)
			return parse_fail(err, rc, r.cur, start);
		ntrace_msg_set(m, NTRACE_FLD_SRC, v);
		m->bits[NTRACE_FLD_SRC] = fmt->src_bits;
	}
	const struct ntrace_msg_layout *l = ntrace_msg_layout((unsigned)m->val[NTRACE_FLD_TCODE]);

	if (!l) {
		unsigned t = (unsigned)m->val[NTRACE_FLD_TCODE];

		rc = (t >= NTRACE_TCODE_VENDOR_FIRST && t <= NTRACE_TCODE_VENDOR_LAST)
			     ? -NTRACE_ERR_VENDOR_TCODE : -NTRACE_ERR_RESERVED_TCODE;
		return parse_fail(err, rc, start, start);
	}
	rc = parse_fields(fmt, l, &r, m);
	if (rc)
		return parse_fail(err, rc, r.cur <= end ? r.cur : end, start);
	return 1;
}
