// SPDX-License-Identifier: BSD-2-Clause
/*
 * `ntrace timeline`: privilege and trap events of one trace per hart, on
 * one time axis: the messages' timestamps when every trace has them, else
 * each hart's instruction index (harts then do not share a clock).  Text
 * (one line per event, in time order) or a self-contained SVG (one lane
 * per hart: traced stretches coloured by privilege, exceptions and
 * interrupts as ticks).
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

static uint64_t event_time(const struct nt_timeline *t, const struct nt_timeline_event *e)
{
	return t->all_tstamp ? e->tstamp : e->index;
}

static const struct nt_timeline *sorting;

static int by_time(const void *a, const void *b)
{
	const struct nt_timeline_event *x = a, *y = b;
	uint64_t tx = event_time(sorting, x), ty = event_time(sorting, y);

	if (tx != ty)
		return tx < ty ? -1 : 1;
	if (x->hart != y->hart)
		return x->hart < y->hart ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static const char *priv_name(unsigned priv)
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
		fprintf(f, "privilege %s\n", priv_name(e->code));
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
		fprintf(f, "hart %-3u t=%-12" PRIu64 " ", t->harts[v[i].hart].id, event_time(t, &v[i]));
		describe(t, &v[i], f);
	}
	for (size_t i = 0; i < t->nharts; i++)
		fprintf(f, "hart %-3u end: %" PRIu64 " instructions, %" PRIu64 " exceptions, %" PRIu64
			" interrupts\n", t->harts[i].id, t->harts[i].instructions,
			t->harts[i].exceptions, t->harts[i].interrupts);
	free(v);
	return ferror(f) ? -1 : 0;
}

/* ---- SVG -------------------------------------------------------------------- */

#define TL_WIDTH  1200
#define TL_LEFT   80          /* lane labels */
#define TL_RIGHT  20
#define TL_TOP    40
#define TL_LANE   34
#define TL_BAR    22

struct lane_plot {
	FILE *f;
	uint64_t t0, t1;        /* time range of the plot */
	double y;
};

static double x_of(const struct lane_plot *lp, uint64_t time)
{
	double span = lp->t1 > lp->t0 ? (double)(lp->t1 - lp->t0) : 1.0;

	return TL_LEFT + (double)(time - lp->t0) / span * (TL_WIDTH - TL_LEFT - TL_RIGHT);
}

/* Traced stretch colour by privilege (unknown: no Ownership messages). */
static const char *priv_colour(int priv)
{
	switch (priv) {
	case 0: return "rgb(90,170,90)";        /* U */
	case 1: return "rgb(70,120,200)";       /* S */
	case 4: return "rgb(150,200,120)";      /* VU */
	case 5: return "rgb(140,110,200)";      /* VS */
	default: return "rgb(150,150,150)";
	}
}

static void bar(const struct lane_plot *lp, uint64_t from, uint64_t to, int priv)
{
	double x0 = x_of(lp, from), x1 = x_of(lp, to);

	fprintf(lp->f, "<rect x=\"%.2f\" y=\"%.0f\" width=\"%.2f\" height=\"%d\" fill=\"%s\"/>\n",
		x0, lp->y, x1 - x0 < 1 ? 1 : x1 - x0, TL_BAR, priv_colour(priv));
}

static void tick(const struct lane_plot *lp, uint64_t time, const char *colour)
{
	double x = x_of(lp, time);

	fprintf(lp->f, "<line x1=\"%.2f\" y1=\"%.0f\" x2=\"%.2f\" y2=\"%.0f\" stroke=\"%s\" "
		"stroke-width=\"1\"/>\n", x, lp->y - 4, x, lp->y + TL_BAR + 4, colour);
}

/* One hart: its traced stretches (sync .. stop), then its traps on top. */
static void lane(const struct nt_timeline *t, const struct lane_plot *lp, uint32_t hart,
		 uint64_t end)
{
	bool traced = false;
	int priv = -1;
	uint64_t start = 0;

	for (size_t i = 0; i < t->nevents; i++) {
		const struct nt_timeline_event *e = &t->events[i];
		uint64_t time = event_time(t, e);

		if (e->hart != hart)
			continue;
		if (e->kind == NTRACE_EV_SYNC && !traced) {
			traced = true;
			start = time;
		} else if (e->kind == NTRACE_EV_OWNERSHIP) {
			if (traced)
				bar(lp, start, time, priv);
			start = time;
			priv = e->code;
		} else if (e->kind == NTRACE_EV_STOP || e->kind == NTRACE_EV_OVERFLOW ||
			   e->kind == NTRACE_EV_ERROR) {
			if (traced)
				bar(lp, start, time, priv);
			traced = false;
		}
	}
	if (traced)
		bar(lp, start, end, priv);
	for (size_t i = 0; i < t->nevents; i++) {
		const struct nt_timeline_event *e = &t->events[i];

		if (e->hart == hart && e->kind == NTRACE_EV_TRAP)
			tick(lp, event_time(t, e), e->code == NTRACE_BTYPE_INTERRUPT
					       ? "rgb(230,140,0)" : "rgb(210,30,30)");
	}
}

int nt_timeline_write_svg(const struct nt_timeline *t, FILE *f)
{
	struct lane_plot lp = { f, UINT64_MAX, 0, 0 };
	int height = TL_TOP + (int)t->nharts * TL_LANE + 50;

	for (size_t i = 0; i < t->nevents; i++) {
		uint64_t time = event_time(t, &t->events[i]);

		lp.t0 = time < lp.t0 ? time : lp.t0;
		lp.t1 = time > lp.t1 ? time : lp.t1;
	}
	for (size_t h = 0; h < t->nharts; h++) {
		uint64_t end = t->all_tstamp ? t->harts[h].time : t->harts[h].instructions;

		lp.t1 = end > lp.t1 ? end : lp.t1;
	}
	if (lp.t0 == UINT64_MAX)
		lp.t0 = 0;
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
		"viewBox=\"0 0 %d %d\" font-family=\"monospace\" font-size=\"12\">\n"
		"<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" fill=\"rgb(255,255,255)\"/>\n"
		"<text x=\"10\" y=\"22\" font-size=\"16\">trace timeline, time: %s %" PRIu64
		" .. %" PRIu64 "</text>\n", TL_WIDTH, height, TL_WIDTH, height, TL_WIDTH, height,
		t->all_tstamp ? "timestamp" : "instruction index", lp.t0, lp.t1);
	for (size_t h = 0; h < t->nharts; h++) {
		lp.y = TL_TOP + (double)h * TL_LANE;
		fprintf(f, "<text x=\"10\" y=\"%.0f\">hart %u</text>\n", lp.y + 15, t->harts[h].id);
		lane(t, &lp, (uint32_t)h,
		     t->all_tstamp ? t->harts[h].time : t->harts[h].instructions);
	}
	double ly = TL_TOP + (double)t->nharts * TL_LANE + 20;

	fprintf(f, "<text x=\"10\" y=\"%.0f\">traced: <tspan fill=\"%s\">S</tspan> "
		"<tspan fill=\"%s\">U</tspan> <tspan fill=\"%s\">privilege unknown</tspan>   "
		"ticks: <tspan fill=\"rgb(210,30,30)\">exception</tspan> "
		"<tspan fill=\"rgb(230,140,0)\">interrupt</tspan></text>\n</svg>\n", ly,
		priv_colour(1), priv_colour(0), priv_colour(-1));
	return ferror(f) ? -1 : 0;
}
