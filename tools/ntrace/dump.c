// SPDX-License-Identifier: BSD-2-Clause
/*
 * `ntrace dump`: every byte of an N-Trace stream with its MDO[5:0] and
 * MSEO[1:0] bits, and next to the byte where each field ends that field's
 * name, width and value (the layout of the spec's Table 6, chapter 3.5).
 * Fields are placed with the message layout table of lib/ntrace
 * (ntrace_msg_layout), the same one its parser uses.
 */
#include <inttypes.h>
#include <string.h>

#include "ntrace_tool.h"

#define IDLE_RUN_SHOWN 2        /* longer idle runs are shown as one line */

static void print_bits(FILE *out, unsigned v, unsigned n)
{
	while (n--)
		fputc((v >> n) & 1 ? '1' : '0', out);
}

static void print_byte_row(FILE *out, size_t offset, uint8_t b, const char *text)
{
	fprintf(out, "%08zx  0x%02x  ", offset, b);
	print_bits(out, b >> 2, NTRACE_MDO_BITS);
	fputs("  ", out);
	print_bits(out, b & NTRACE_MSEO_MASK, 2);
	fprintf(out, "    %s\n", text);
}

static const char *sync_name(unsigned v)
{
	static const char *const names[] = {
		[NTRACE_SYNC_EXT_TRIGGER] = "external trigger",
		[NTRACE_SYNC_RESET] = "exit from reset",
		[NTRACE_SYNC_PERIODIC] = "periodic",
		[NTRACE_SYNC_DEBUG_EXIT] = "exit from debug",
		[NTRACE_SYNC_ICNT] = "I-CNT overflow",
		[NTRACE_SYNC_TRACE_ENABLE] = "trace enable",
		[NTRACE_SYNC_TRACE_EVENT] = "watchpoint/trace event",
		[NTRACE_SYNC_FIFO_OVERRUN] = "restart after overflow",
		[8] = NULL,
		[NTRACE_SYNC_POWER_UP] = "exit from power-down",
	};
	return v < sizeof(names) / sizeof(names[0]) && names[v] ? names[v] : "reserved";
}

static const char *btype_name(unsigned v)
{
	static const char *const names[] = { "indirect jump/call/return",
					     "exception or interrupt", "exception", "interrupt" };
	return v < 4 ? names[v] : "?";
}

/* Explanation of a field value, or NULL. */
static const char *field_note(unsigned field, uint64_t v)
{
	switch (field) {
	case NTRACE_FLD_SYNC:
		return sync_name((unsigned)v);
	case NTRACE_FLD_BTYPE:
		return btype_name((unsigned)v);
	case NTRACE_FLD_RCODE:
		return v == NTRACE_RCODE_ICNT ? "I-CNT full" : v == NTRACE_RCODE_HIST ? "HIST full"
		     : v == NTRACE_RCODE_HIST_REPEAT ? "HIST repeated" : "reserved";
	case NTRACE_FLD_EVCODE:
		return v == NTRACE_EVCODE_DEBUG_ENTRY ? "entry into debug"
		     : v == NTRACE_EVCODE_LOW_POWER ? "entry into low power"
		     : v == NTRACE_EVCODE_TRACE_DISABLED ? "trace disabled" : "reserved";
	case NTRACE_FLD_CDF:
		return v == NTRACE_CDF_ICNT_ONLY ? "no HIST" : v == NTRACE_CDF_ICNT_HIST ? "HIST follows"
		     : "reserved";
	default:
		return NULL;
	}
}

static void format_field(char *buf, size_t size, const struct ntrace_format *fmt,
			 const struct ntrace_msg *m, unsigned field, unsigned bits)
{
	uint64_t v = m->val[field];
	int n;
	if (field == NTRACE_FLD_TCODE)
		n = snprintf(buf, size, "TCODE[%u] = %" PRIu64 " - %s", bits, v,
			     ntrace_tcode_name((unsigned)v));
	else
		n = snprintf(buf, size, "%s[%u] = 0x%" PRIX64, ntrace_field_name(field), bits, v);
	if (n < 0 || (size_t)n >= size)
		return;
	const char *note = field_note(field, v);
	if (note)
		snprintf(buf + n, size - (size_t)n, " (%s)", note);
	else if (field == NTRACE_FLD_FADDR)
		snprintf(buf + n, size - (size_t)n, " (address 0x%" PRIx64 ")",
			 ntrace_field_to_addr(v, fmt->xlen));
	else if (field == NTRACE_FLD_UADDR)
		snprintf(buf + n, size - (size_t)n, " (address XOR reference 0x%" PRIx64 ")",
			 ntrace_field_to_addr(v, fmt->xlen));
}

/* One field of a message as transmitted. */
struct placed_field {
	uint8_t id;
	uint8_t width;          /* MDO bits */
	bool var;               /* ends on a byte boundary (zero-filled) */
};

/* Fields of m in transmission order: TCODE, SRC, layout fields, TSTAMP. */
static size_t message_fields(const struct ntrace_format *fmt, const struct ntrace_msg *m,
			     bool fields_known, struct placed_field *pf)
{
	size_t n = 0;
	pf[n++] = (struct placed_field){ NTRACE_FLD_TCODE, NTRACE_TCODE_BITS, false };
	if (!fields_known)
		return n;
	if (fmt->src_bits && ntrace_msg_has(m, NTRACE_FLD_SRC))
		pf[n++] = (struct placed_field){ NTRACE_FLD_SRC, fmt->src_bits, false };
	const struct ntrace_msg_layout *l = ntrace_msg_layout((unsigned)m->val[NTRACE_FLD_TCODE]);
	for (unsigned i = 0; l && i < l->nfields; i++) {
		const struct ntrace_field_desc *f = &l->fields[i];
		if (!ntrace_msg_has(m, f->id))
			continue;
		bool var = f->kind != NTRACE_KIND_FIXED;
		pf[n++] = (struct placed_field){ f->id, var ? m->bits[f->id] : f->bits, var };
	}
	if (ntrace_msg_has(m, NTRACE_FLD_TSTAMP))
		pf[n++] = (struct placed_field){ NTRACE_FLD_TSTAMP, m->bits[NTRACE_FLD_TSTAMP], true };
	return n;
}

static void dump_message(FILE *out, const struct ntrace_format *fmt, const uint8_t *nex,
			 const struct ntrace_msg *m, unsigned long index, bool fields_known)
{
	unsigned tcode = (unsigned)m->val[NTRACE_FLD_TCODE];
	fprintf(out, "# message %lu at offset %zu (0x%zx), %zu bytes: %s\n", index, m->offset,
		m->offset, m->length, ntrace_tcode_name(tcode));
	struct placed_field pf[NTRACE_FLD_COUNT];
	size_t nf = message_fields(fmt, m, fields_known, pf);
	size_t f = 0, bit = 0;
	for (size_t i = 0; i < m->length; i++) {
		char text[512] = "";
		size_t used = 0;
		size_t byte_end = (i + 1) * NTRACE_MDO_BITS;
		/* every field whose last MDO bit is in this byte */
		while (f < nf && bit + pf[f].width <= byte_end) {
			char one[200];
			format_field(one, sizeof(one), fmt, m, pf[f].id, pf[f].width);
			int n = snprintf(text + used, sizeof(text) - used, "%s%s",
					 used ? ", " : "", one);
			if (n > 0 && (size_t)n < sizeof(text) - used)
				used += (size_t)n;
			bit += pf[f].width;
			if (pf[f].var)
				bit = byte_end;
			f++;
		}
		if (!fields_known && i == 0)
			snprintf(text + used, sizeof(text) - used, "%s(fields not decoded)",
				 used ? " " : "");
		print_byte_row(out, m->offset + i, nex[m->offset + i], text);
	}
}

static size_t dump_idle(FILE *out, const uint8_t *nex, size_t len, size_t pos)
{
	size_t start = pos;
	while (pos < len && nex[pos] == NTRACE_IDLE_BYTE)
		pos++;
	size_t n = pos - start;
	if (n > IDLE_RUN_SHOWN) {
		fprintf(out, "%08zx  0xff  111111  11    Idle (%zu bytes, up to 0x%zx)\n",
			start, n, pos - 1);
	} else {
		for (size_t i = start; i < pos; i++)
			print_byte_row(out, i, nex[i], "Idle");
	}
	return pos;
}

long nt_dump_stream(const struct nt_tool_config *cfg, const uint8_t *nex, size_t len,
		    FILE *out, const char *name, FILE *diag)
{
	struct ntrace_format fmt;
	nt_tool_format(cfg, &fmt);
	fprintf(out, "# %s: %zu bytes, SRC field %u bits%s, XLEN %u%s\n"
		"# offset    byte  MDO     MSEO  decoded (offsets in rows are hex)\n", name, len, fmt.src_bits,
		cfg->src_bits_detected ? " (guessed: give --src-bits)" : "", fmt.xlen,
		fmt.extend_addr_msb ? ", extended address MSB" : "");
	long bad = 0;
	unsigned long index = 0;
	size_t pos = 0;
	struct nt_diag dg;

	nt_diag_init(&dg, diag, name, cfg->max_errors);
	while (pos < len) {
		pos = dump_idle(out, nex, len, pos);
		if (pos >= len)
			break;
		size_t start = pos;
		struct ntrace_msg m;
		struct ntrace_error err = { 0 };
		int rc = ntrace_msg_parse(&fmt, nex, len, &pos, &m, &err);
		if (rc == 0)
			break;
		if (rc == 1 || rc == -NTRACE_ERR_RESERVED_TCODE || rc == -NTRACE_ERR_VENDOR_TCODE) {
			dump_message(out, &fmt, nex, &m, index++, rc == 1);
			if (rc == -NTRACE_ERR_VENDOR_TCODE) {
				nt_diag_error(&dg, m.offset, "vendor-defined message (TCODE %" PRIu64
					      ") not decoded", m.val[NTRACE_FLD_TCODE]);
			} else if (rc < 0) {
				bad++;
				nt_diag_error(&dg, m.offset, "%s (TCODE %" PRIu64 ")", ntrace_strerror(rc),
					      m.val[NTRACE_FLD_TCODE]);
			}
			if (pos <= start)
				pos = start + 1;
			continue;
		}
		/* Malformed: show the skipped bytes as they are. */
		bad++;
		if (pos <= start)
			pos = start + 1;
		if (pos > len)
			pos = len;
		fprintf(out, "# malformed bytes at offset %zu..%zu (0x%zx..0x%zx): %s (at byte offset %zu)\n",
			start, pos - 1, start, pos - 1, ntrace_strerror(rc), err.offset);
		nt_diag_error(&dg, err.offset, "%s", ntrace_strerror(rc));
		for (size_t i = start; i < pos; i++)
			print_byte_row(out, i, nex[i], i == err.offset ? "<- error here" : "??");
	}
	fprintf(out, "# %lu messages, %ld malformed\n", index, bad);
	nt_diag_finish(&dg);
	return bad;
}
