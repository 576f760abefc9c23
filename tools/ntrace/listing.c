// SPDX-License-Identifier: BSD-2-Clause
/*
 * `decode --listing`: the decoded trace for people.  One line per retired
 * instruction (timestamp when the trace has them, address, symbol+offset,
 * objdump's disassembly) and one "--" line per decoder event: traps and
 * interrupts, trace start and stop, ownership, lost trace, decoding errors.
 */
#include <inttypes.h>
#include <string.h>

#include "ntrace_tool.h"

#define SYMBOL_COLUMN 28

static void emit(struct nt_listing *l, const char *line, int n)
{
	if (n < 0)
		return;
	if ((size_t)n > strlen(line))   /* cut by the buffer */
		n = (int)strlen(line);
	if (fwrite(line, 1, (size_t)n, l->out) != (size_t)n)
		l->write_error = true;
}

/* "name+0xoff" or "?" into buf. */
static void format_symbol(char *buf, size_t size, const struct nt_symtab *t, uint64_t pc)
{
	const struct nt_symbol *s = t ? nt_symtab_lookup(t, pc) : NULL;

	if (s)
		snprintf(buf, size, "%s+0x%" PRIx64, s->name, pc - s->addr);
	else
		snprintf(buf, size, "?");
}

/* The instruction lines are most of a listing: built by hand, not with
 * snprintf (a third of the time of `decode --listing` otherwise). */
struct line_buf {
	char v[512];
	size_t n;
};

static void put_str(struct line_buf *b, const char *s, size_t width)
{
	size_t len = strlen(s);

	if (len > sizeof(b->v) - 64 - b->n)
		len = sizeof(b->v) - 64 - b->n;
	memcpy(b->v + b->n, s, len);
	b->n += len;
	while (len++ < width)
		b->v[b->n++] = ' ';
}

/* Lowercase hex without leading zeros, right-aligned in width. */
static void put_hex(struct line_buf *b, uint64_t v, size_t width)
{
	char digits[16];
	size_t n = 0;

	do {
		digits[n++] = "0123456789abcdef"[v & 15];
		v >>= 4;
	} while (v);
	while (width-- > n)
		b->v[b->n++] = ' ';
	while (n)
		b->v[b->n++] = digits[--n];
}

static void put_dec(struct line_buf *b, uint64_t v, size_t width)
{
	char digits[20];
	size_t n = 0;

	do {
		digits[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	for (size_t i = n; i < width; i++)
		digits[i] = ' ';        /* left-aligned: pad after */
	for (size_t i = n; i--;)
		b->v[b->n++] = digits[i];
	for (size_t i = n; i < width; i++)
		b->v[b->n++] = ' ';
}

static void listing_step(void *ctx, const struct nt_step *s)
{
	struct nt_listing *l = ctx;
	struct line_buf b = { .n = 0 };
	const char *text = l->disasm ? nt_disasm_lookup(l->disasm, s->pc) : NULL;
	const struct nt_symbol *sym = l->symbols ? nt_symtab_lookup(l->symbols, s->pc) : NULL;
	size_t sym_start;

	if (s->has_tstamp) {
		put_str(&b, "t=", 0);
		put_dec(&b, s->tstamp, 10);
		b.v[b.n++] = ' ';
	}
	put_hex(&b, s->pc, 10);
	put_str(&b, "  ", 0);
	sym_start = b.n;
	if (sym) {
		put_str(&b, sym->name, 0);
		put_str(&b, "+0x", 0);
		put_hex(&b, s->pc - sym->addr, 0);
	} else {
		put_str(&b, "?", 0);
	}
	while (b.n < sym_start + SYMBOL_COLUMN)
		b.v[b.n++] = ' ';
	put_str(&b, "  ", 0);
	put_str(&b, text ? text : "(no disassembly)", 0);
	b.v[b.n++] = '\n';
	if (fwrite(b.v, 1, b.n, l->out) != b.n)
		l->write_error = true;
}

static const char *priv_name(unsigned priv)
{
	static const char *const names[] = { "U", "S", "reserved", "M", "VU", "VS", "?", "?" };

	return names[priv & 7];
}

static void listing_event(void *ctx, const struct ntrace_event *ev)
{
	struct nt_listing *l = ctx;
	char line[512], sym[256];
	int n = -1;

	format_symbol(sym, sizeof(sym), l->symbols, ev->addr);
	switch (ev->kind) {
	case NTRACE_EV_SYNC:
		n = snprintf(line, sizeof(line), "-- trace sync (SYNC=%u) at %" PRIx64 " %s\n",
			     ev->sync, ev->addr, sym);
		break;
	case NTRACE_EV_TRAP:
		n = snprintf(line, sizeof(line), "-- %s -> %" PRIx64 " %s\n",
			     ev->btype == NTRACE_BTYPE_INTERRUPT ? "interrupt" : "exception",
			     ev->addr, sym);
		break;
	case NTRACE_EV_OWNERSHIP:
		n = snprintf(line, sizeof(line), "-- ownership: privilege %s, context 0x%" PRIx64 "\n",
			     priv_name(ev->priv), ev->context);
		break;
	case NTRACE_EV_STOP:
		n = snprintf(line, sizeof(line), "-- trace stop (EVCODE=%u), next %" PRIx64 " %s\n",
			     ev->evcode, ev->addr, sym);
		break;
	case NTRACE_EV_OVERFLOW:
		n = snprintf(line, sizeof(line), "-- trace lost (Error message, ETYPE=%u)\n",
			     ev->etype);
		break;
	case NTRACE_EV_ERROR:
		n = snprintf(line, sizeof(line), "-- decoding error at byte offset %zu: %s\n",
			     ev->offset, ntrace_strerror(ev->error));
		break;
	case NTRACE_EV_IGNORED:
		n = snprintf(line, sizeof(line), "-- message with TCODE %s skipped\n",
			     ntrace_tcode_name(ev->tcode));
		break;
	default:
		break;
	}
	emit(l, line, n);
}

void nt_listing_visitor(struct nt_listing *l, struct nt_visitor *v)
{
	*v = (struct nt_visitor){ listing_step, listing_event, l };
}
