// SPDX-License-Identifier: BSD-2-Clause
/*
 * Text formats of retired-instruction traces.
 *
 * .pcs (this project's format), one retired instruction per line:
 *     <hex pc>[ exc|int]
 * "0x" prefix optional; "exc"/"int": a synchronous exception / an interrupt
 * was taken right after this instruction retired; '#' starts a comment line;
 * blank lines are ignored.  Canonical form (what the decoder writes):
 * lowercase hex, no "0x", no leading zeros, one space before the marker.
 *
 * pcseq (the N-Trace reference code's PC sequence), one line per instruction:
 *     <hex pc>,<class><size>[ exc|int]
 * e.g. "0x20010522,L2", "0x200101D2,B4", "0x20010236,BN4".  Our reading of
 * the classes (the format has no formal definition): L linear, B/BD/BT taken
 * direct conditional branch, BN/BDN not-taken branch, J/JD direct jump,
 * JI indirect jump, C/CD direct call, CI indirect call, R return; size is 2
 * or 4 bytes.  Extensions of this tool: E ecall/ebreak, X mret/sret, and
 * the same exc/int markers as .pcs.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "ntrace_tool.h"

void nt_err_set(struct nt_err *err, const char *fmt, ...)
{
	if (!err)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
}

void nt_trace_init(struct nt_trace *t)
{
	memset(t, 0, sizeof(*t));
}

void nt_trace_free(struct nt_trace *t)
{
	free(t->v);
	nt_trace_init(t);
}

int nt_trace_push(struct nt_trace *t, const struct nt_retired *r)
{
	if (t->count == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 1024;
		struct nt_retired *v = realloc(t->v, cap * sizeof(*v));
		if (!v)
			return -1;
		t->v = v;
		t->cap = cap;
	}
	t->v[t->count++] = *r;
	return 0;
}

/* ---- Line scanning -------------------------------------------------------- */

struct line_cursor {
	const char *name;
	uint32_t line;
	const char *start;      /* first char of the line */
	const char *p;          /* parse position */
	const char *end;        /* end of line content (no '\n', '\r', trailing blanks) */
	struct nt_err *err;
};

static int is_blank(char c)
{
	return c == ' ' || c == '\t';
}

static int hex_value(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

static int syntax_error(struct line_cursor *c, const char *what)
{
	unsigned col = (unsigned)(c->p - c->start) + 1;
	if (c->p < c->end) {
		unsigned char ch = (unsigned char)*c->p;
		if (ch >= 0x20 && ch < 0x7f)
			nt_err_set(c->err, "%s:%u:%u: %s (found '%c')", c->name,
				   c->line, col, what, ch);
		else
			nt_err_set(c->err, "%s:%u:%u: %s (found byte 0x%02x)", c->name,
				   c->line, col, what, ch);
	} else {
		nt_err_set(c->err, "%s:%u:%u: %s (found end of line)", c->name,
			   c->line, col, what);
	}
	return -1;
}

static int parse_hex_pc(struct line_cursor *c, uint64_t *pc)
{
	if (c->end - c->p >= 2 && c->p[0] == '0' && (c->p[1] == 'x' || c->p[1] == 'X'))
		c->p += 2;
	uint64_t v = 0;
	int digits = 0;
	while (c->p < c->end && hex_value(*c->p) >= 0) {
		if (v >> 60) {
			nt_err_set(c->err, "%s:%u:%u: address does not fit in 64 bits",
				   c->name, c->line, (unsigned)(c->p - c->start) + 1);
			return -1;
		}
		v = (v << 4) | (uint64_t)hex_value(*c->p);
		c->p++;
		digits++;
	}
	if (digits == 0)
		return syntax_error(c, "expected a hexadecimal address");
	*pc = v;
	return 0;
}

static int match_word(struct line_cursor *c, const char *word)
{
	size_t n = strlen(word);
	if ((size_t)(c->end - c->p) < n || strncmp(c->p, word, n) != 0)
		return 0;
	if (c->p + n < c->end && !is_blank(c->p[n]))
		return 0;
	c->p += n;
	return 1;
}

/* Optional " exc" / " int" then end of line. */
static int parse_marker_and_end(struct line_cursor *c, uint8_t *event)
{
	*event = NT_EVENT_NONE;
	if (c->p == c->end)
		return 0;
	if (!is_blank(*c->p))
		return syntax_error(c, "expected end of line or a blank before 'exc'/'int'");
	while (c->p < c->end && is_blank(*c->p))
		c->p++;
	if (match_word(c, "exc"))
		*event = NT_EVENT_EXCEPTION;
	else if (match_word(c, "int"))
		*event = NT_EVENT_INTERRUPT;
	else
		return syntax_error(c, "expected marker 'exc' or 'int'");
	while (c->p < c->end && is_blank(*c->p))
		c->p++;
	if (c->p != c->end)
		return syntax_error(c, "unexpected text after the marker");
	return 0;
}

typedef int (*line_parser)(struct line_cursor *c, struct nt_retired *r);

/* Splits text into lines, skips blank and comment lines, and hands every
 * other line to parse_line. */
static int parse_lines(const char *text, size_t len, const char *name,
		       line_parser parse_line, struct nt_trace *out,
		       struct nt_err *err)
{
	const char *p = text, *stop = text + len;
	uint32_t line = 0;
	while (p < stop) {
		const char *nl = memchr(p, '\n', (size_t)(stop - p));
		const char *eol = nl ? nl : stop;
		line++;
		if (eol - p > NT_TEXT_MAX_LINE) {
			nt_err_set(err, "%s:%u: line longer than %d characters",
				   name, line, NT_TEXT_MAX_LINE);
			return -1;
		}
		struct line_cursor c = { name, line, p, p, eol, err };
		while (c.end > c.p && (c.end[-1] == '\r' || is_blank(c.end[-1])))
			c.end--;
		while (c.p < c.end && is_blank(*c.p))
			c.p++;
		p = nl ? nl + 1 : stop;
		if (c.p == c.end || *c.p == '#')
			continue;
		struct nt_retired r = { .line = line };
		if (parse_line(&c, &r))
			return -1;
		if (nt_trace_push(out, &r)) {
			nt_err_set(err, "%s:%u: out of memory", name, line);
			return -1;
		}
	}
	return 0;
}

/* ---- .pcs ----------------------------------------------------------------- */

unsigned nt_priv_record(unsigned token)
{
	switch (token) {
	case NT_PRIV_U: return NTRACE_PRV_U;
	case NT_PRIV_S: return NTRACE_PRV_S;
	case NT_PRIV_VU: return NTRACE_PRV_U | NTRACE_PRV_V;
	case NT_PRIV_VS: return NTRACE_PRV_S | NTRACE_PRV_V;
	default: return NTRACE_PRV_M;
	}
}

/* The privilege tokens of ground-truth windows (scripts/trace-compare.py). */
static int match_priv(struct line_cursor *c, uint8_t *priv)
{
	static const struct {
		const char *word;
		uint8_t priv;
	} tokens[] = {
		{ "U", NT_PRIV_U }, { "S", NT_PRIV_S }, { "M", NT_PRIV_M },
		{ "VU", NT_PRIV_VU }, { "VS", NT_PRIV_VS },
	};
	for (size_t i = 0; i < sizeof(tokens) / sizeof(tokens[0]); i++) {
		if (match_word(c, tokens[i].word)) {
			*priv = tokens[i].priv;
			return 1;
		}
	}
	return 0;
}

/* Optional " exc" / " int", optional privilege token, end of line. */
static int parse_pcs_tail(struct line_cursor *c, uint8_t *event, uint8_t *priv)
{
	*event = NT_EVENT_NONE;
	*priv = NT_PRIV_NONE;
	if (c->p == c->end)
		return 0;
	if (!is_blank(*c->p))
		return syntax_error(c, "expected end of line or a blank before 'exc'/'int' or a privilege");
	while (c->p < c->end && is_blank(*c->p))
		c->p++;
	if (match_word(c, "exc"))
		*event = NT_EVENT_EXCEPTION;
	else if (match_word(c, "int"))
		*event = NT_EVENT_INTERRUPT;
	else if (!match_priv(c, priv))
		return syntax_error(c, "expected marker 'exc' or 'int' or a privilege (U, S, M, VU or VS)");
	while (c->p < c->end && is_blank(*c->p))
		c->p++;
	if (*event && c->p < c->end && !match_priv(c, priv))
		return syntax_error(c, "expected a privilege (U, S, M, VU or VS) or end of line after the marker");
	while (c->p < c->end && is_blank(*c->p))
		c->p++;
	if (c->p != c->end)
		return syntax_error(c, "unexpected text after the privilege");
	return 0;
}

static int parse_pcs_line(struct line_cursor *c, struct nt_retired *r)
{
	if (parse_hex_pc(c, &r->pc))
		return -1;
	return parse_pcs_tail(c, &r->event, &r->priv);
}

int nt_pcs_parse(const char *text, size_t len, const char *name,
		 struct nt_trace *out, struct nt_err *err)
{
	size_t first = out->count;

	if (parse_lines(text, len, name, parse_pcs_line, out, err))
		return -1;
	if (first == out->count)
		return 0;
	/* A token on every line or on none: a line without one would have
	 * no privilege to qualify it with. */
	out->has_priv = out->v[first].priv != NT_PRIV_NONE;
	for (size_t i = first + 1; i < out->count; i++) {
		const struct nt_retired *r = &out->v[i];

		if ((r->priv != NT_PRIV_NONE) != out->has_priv) {
			nt_err_set(err, out->has_priv
				   ? "%s:%u: no privilege token (U, S, M, VU or VS), but line %u has one: give one on every line or on none"
				   : "%s:%u: privilege token, but line %u has none: give one on every line or on none",
				   name, r->line, out->v[first].line);
			return -1;
		}
	}
	return 0;
}

int nt_pcs_format_line(char *buf, size_t size, uint64_t pc, int event)
{
	static const char *const marker[] = {
		[NT_EVENT_NONE] = "",
		[NT_EVENT_EXCEPTION] = " exc",
		[NT_EVENT_INTERRUPT] = " int",
	};
	if (event < NT_EVENT_NONE || event > NT_EVENT_INTERRUPT)
		event = NT_EVENT_NONE;
	return snprintf(buf, size, "%" PRIx64 "%s\n", pc, marker[event]);
}

int nt_pcs_write(FILE *f, const struct nt_trace *t)
{
	char line[40];
	for (size_t i = 0; i < t->count; i++) {
		int n = nt_pcs_format_line(line, sizeof(line), t->v[i].pc, t->v[i].event);
		if (fwrite(line, 1, (size_t)n, f) != (size_t)n)
			return -1;
	}
	return 0;
}

/* ---- pcseq ---------------------------------------------------------------- */

static const struct {
	const char *letters;
	enum nt_seq_class cls;
} seq_classes[] = {
	{ "L", NT_SEQ_LINEAR },
	{ "B", NT_SEQ_BRANCH_TAKEN },
	{ "BD", NT_SEQ_BRANCH_TAKEN },
	{ "BT", NT_SEQ_BRANCH_TAKEN },
	{ "BN", NT_SEQ_BRANCH_NOT_TAKEN },
	{ "BDN", NT_SEQ_BRANCH_NOT_TAKEN },
	{ "J", NT_SEQ_JUMP_DIRECT },
	{ "JD", NT_SEQ_JUMP_DIRECT },
	{ "JI", NT_SEQ_JUMP_INDIRECT },
	{ "C", NT_SEQ_CALL_DIRECT },
	{ "CD", NT_SEQ_CALL_DIRECT },
	{ "CI", NT_SEQ_CALL_INDIRECT },
	{ "R", NT_SEQ_RETURN },
	{ "X", NT_SEQ_TRAP_RETURN },
	{ "E", NT_SEQ_TRAP_INSN },
};

static int parse_seq_class(struct line_cursor *c, uint8_t *cls)
{
	const char *s = c->p;
	while (c->p < c->end && ((*c->p >= 'A' && *c->p <= 'Z') || (*c->p >= 'a' && *c->p <= 'z')))
		c->p++;
	size_t n = (size_t)(c->p - s);
	for (size_t i = 0; n && i < sizeof(seq_classes) / sizeof(seq_classes[0]); i++) {
		if (strlen(seq_classes[i].letters) == n &&
		    strncasecmp(seq_classes[i].letters, s, n) == 0) {
			*cls = (uint8_t)seq_classes[i].cls;
			return 0;
		}
	}
	c->p = s;
	return syntax_error(c, "expected an instruction class (L, B, BN, J, JI, C, CI, R, E, X)");
}

static int parse_pcseq_line(struct line_cursor *c, struct nt_retired *r)
{
	if (parse_hex_pc(c, &r->pc))
		return -1;
	if (c->p == c->end || *c->p != ',')
		return syntax_error(c, "expected ',' after the address");
	c->p++;
	if (parse_seq_class(c, &r->seq_class))
		return -1;
	if (c->p < c->end && (*c->p == '2' || *c->p == '4') &&
	    (c->p + 1 == c->end || c->p[1] < '0' || c->p[1] > '9')) {
		r->seq_size = (uint8_t)(*c->p - '0');
		c->p++;
	} else {
		return syntax_error(c, "expected instruction size 2 or 4");
	}
	return parse_marker_and_end(c, &r->event);
}

int nt_pcseq_parse(const char *text, size_t len, const char *name,
		   struct nt_trace *out, struct nt_err *err)
{
	return parse_lines(text, len, name, parse_pcseq_line, out, err);
}
