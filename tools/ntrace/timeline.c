// SPDX-License-Identifier: BSD-2-Clause
/*
 * `ntrace timeline`: privilege and trap events of one trace per hart, on
 * one time axis: the messages' timestamps when every trace has them, else
 * each hart's instruction index (harts then do not share a clock).  This
 * file collects the events and writes them as text (one line per event, in
 * time order); timeline_svg.c draws them.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "ntrace_tool.h"

void nt_timeline_init(struct nt_timeline *t, const struct nt_symtab *symbols)
{
	memset(t, 0, sizeof(*t));
	t->symbols = symbols;
	t->all_tstamp = true;
}

void nt_timeline_free(struct nt_timeline *t)
{
	free(t->events);
	free(t->harts);
	memset(t, 0, sizeof(*t));
}

static struct nt_timeline_hart *current(struct nt_timeline *t)
{
	return &t->harts[t->nharts - 1];
}

static void add_event(struct nt_timeline *t, const struct nt_timeline_event *ev)
{
	if (t->nevents == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 256;
		struct nt_timeline_event *v = realloc(t->events, cap * sizeof(*v));

		if (!v) {
			t->oom = true;
			return;
		}
		t->events = v;
		t->cap = cap;
	}
	t->events[t->nevents++] = *ev;
}

static void timeline_step(void *ctx, const struct nt_step *s)
{
	struct nt_timeline *t = ctx;
	struct nt_timeline_hart *h = current(t);

	if (!s->has_tstamp)
		t->all_tstamp = false;
	h->time = s->has_tstamp ? s->tstamp : h->instructions;
	h->last_pc = s->pc;
	h->instructions++;
	h->exceptions += s->event == NT_EVENT_EXCEPTION;
	h->interrupts += s->event == NT_EVENT_INTERRUPT;
}

static void timeline_event(void *ctx, const struct ntrace_event *ev)
{
	struct nt_timeline *t = ctx;
	struct nt_timeline_hart *h = current(t);
	struct nt_timeline_event e = { .hart = (uint32_t)(t->nharts - 1), .kind = ev->kind,
				       .index = h->instructions, .tstamp = ev->tstamp,
				       .pc = h->last_pc, .addr = ev->addr };

	if (!ev->has_tstamp)
		t->all_tstamp = false;
	switch (ev->kind) {
	case NTRACE_EV_SYNC: e.code = ev->sync; break;
	case NTRACE_EV_TRAP: e.code = ev->btype; break;
	case NTRACE_EV_OWNERSHIP: e.code = ev->priv; break;
	case NTRACE_EV_STOP: e.code = ev->evcode; break;
	case NTRACE_EV_OVERFLOW: e.code = ev->etype; break;
	case NTRACE_EV_ERROR: e.code = (uint8_t)ev->error; break;
	default: return;
	}
	add_event(t, &e);
}

int nt_timeline_add_hart(struct nt_timeline *t, unsigned id, struct nt_visitor *v)
{
	struct nt_timeline_hart *h = realloc(t->harts, (t->nharts + 1) * sizeof(*h));

	if (!h)
		return -1;
	t->harts = h;
	memset(&h[t->nharts], 0, sizeof(*h));
	h[t->nharts++].id = id;
	*v = (struct nt_visitor){ timeline_step, timeline_event, t };
	return 0;
}

void nt_timeline_hart_clock(struct nt_timeline *t, double ticks_per_second)
{
	current(t)->ticks_per_second = ticks_per_second;
}

uint64_t nt_timeline_event_time(const struct nt_timeline *t, const struct nt_timeline_event *e)
{
	return t->all_tstamp ? e->tstamp : e->index;
}

static const struct nt_timeline *sorting;

static int by_time(const void *a, const void *b)
{
	const struct nt_timeline_event *x = a, *y = b;
	uint64_t tx = nt_timeline_event_time(sorting, x), ty = nt_timeline_event_time(sorting, y);

	if (tx != ty)
		return tx < ty ? -1 : 1;
	if (x->hart != y->hart)
		return x->hart < y->hart ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

const char *nt_timeline_priv_name(unsigned priv)
{
	static const char *const names[] = { "U", "S", "reserved", "M", "VU", "VS", "?", "?" };

	return names[priv & 7];
}

static void symbol(char *buf, size_t size, const struct nt_symtab *s, uint64_t pc)
{
	const struct nt_symbol *sym = nt_symtab_lookup(s, pc);

	if (sym)
		snprintf(buf, size, " %s+0x%" PRIx64, sym->name, pc - sym->addr);
	else
		buf[0] = '\0';
}

static void describe(const struct nt_timeline *t, const struct nt_timeline_event *e, FILE *f)
{
	char at[256], from[256];

	symbol(at, sizeof(at), t->symbols, e->addr);
	symbol(from, sizeof(from), t->symbols, e->pc);
	switch (e->kind) {
	case NTRACE_EV_SYNC:
		fprintf(f, "trace sync (SYNC=%u) at %" PRIx64 "%s\n", e->code, e->addr, at);
		break;
	case NTRACE_EV_TRAP:
		fprintf(f, "%s after %" PRIx64 "%s -> %" PRIx64 "%s\n",
			e->code == NTRACE_BTYPE_INTERRUPT ? "interrupt" : "exception", e->pc, from,
			e->addr, at);
		break;
	case NTRACE_EV_OWNERSHIP:
		fprintf(f, "privilege %s\n", nt_timeline_priv_name(e->code));
		break;
	case NTRACE_EV_STOP:
		fprintf(f, "trace stop (EVCODE=%u), next %" PRIx64 "%s\n", e->code, e->addr, at);
		break;
	case NTRACE_EV_OVERFLOW:
		fprintf(f, "trace lost (ETYPE=%u)\n", e->code);
		break;
	default:
		fprintf(f, "decoding error: %s\n", ntrace_strerror(e->code));
		break;
	}
}

/* Events of every hart in time order (a sorted copy); NULL when out of memory. */
static struct nt_timeline_event *sorted_events(const struct nt_timeline *t)
{
	struct nt_timeline_event *v = malloc((t->nevents + 1) * sizeof(*v));

	if (!v)
		return NULL;
	for (size_t i = 0; i < t->nevents; i++) {
		v[i] = t->events[i];
		v[i].seq = (uint32_t)i;
	}
	sorting = t;
	qsort(v, t->nevents, sizeof(*v), by_time);
	return v;
}

int nt_timeline_write_text(const struct nt_timeline *t, FILE *f)
{
	struct nt_timeline_event *v = sorted_events(t);

	if (!v)
		return -1;
	fprintf(f, "# time: %s\n", t->all_tstamp ? "message timestamps"
		: "instruction index of each hart (no timestamps: harts are not aligned)");
	for (size_t i = 0; i < t->nevents; i++) {
		fprintf(f, "hart %-3u t=%-12" PRIu64 " ", t->harts[v[i].hart].id, nt_timeline_event_time(t, &v[i]));
		describe(t, &v[i], f);
	}
	for (size_t i = 0; i < t->nharts; i++)
		fprintf(f, "hart %-3u end: %" PRIu64 " instructions, %" PRIu64 " exceptions, %" PRIu64
			" interrupts\n", t->harts[i].id, t->harts[i].instructions,
			t->harts[i].exceptions, t->harts[i].interrupts);
	free(v);
	return ferror(f) ? -1 : 0;
}
