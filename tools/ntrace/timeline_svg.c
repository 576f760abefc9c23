// SPDX-License-Identifier: BSD-2-Clause
/*
 * `ntrace timeline --svg`: one lane per hart on one time axis, readable at
 * any density.  Everything is counted per pixel column of the plot, so a
 * column stands for a slice of time however many events fall in it:
 *
 *  - the bar, where anything was traced in the column: the shares of the
 *    privileges (from Ownership messages; "unknown" without them) in its
 *    traced time, stacked, U at the bottom; white where nothing was;
 *  - exceptions above the bar, interrupts below it: a mark per column with
 *    events, its height the column's count on a log scale (a lone event is
 *    as tall as the busiest column when no column has more than one);
 *  - trace lost and decoding errors: a black mark through the lane.
 *
 * Columns that look the same are drawn as one rectangle, so the file's size
 * grows with the columns, not with the events.  Under the lanes: the time
 * axis with round ticks and its unit (instructions, timestamp ticks, or
 * seconds when the timestamps' clock is known), then a legend.
 */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ntrace_tool.h"

#define TL_WIDTH   1200
#define TL_LEFT    100          /* lane labels */
#define TL_COLUMNS 1080         /* the plot: TL_LEFT .. TL_LEFT + TL_COLUMNS pixels */
#define TL_TOP     46           /* first lane */
#define TL_LANE    52           /* lane pitch */
#define TL_MARKS   10           /* the event rows above and below the bar */
#define TL_BAR     20
#define TL_GAP     1            /* between a row and the bar */
#define TL_LANE_H  (2 * TL_MARKS + 2 * TL_GAP + TL_BAR)

enum tl_class { TL_U, TL_S, TL_VU, TL_VS, TL_M, TL_UNKNOWN, TL_CLASSES };

static const struct {
	const char *name, *colour;
} tl_classes[TL_CLASSES] = {
	[TL_U] = { "U", "rgb(90,170,90)" },
	[TL_S] = { "S", "rgb(70,120,200)" },
	[TL_VU] = { "VU", "rgb(160,205,120)" },
	[TL_VS] = { "VS", "rgb(150,110,200)" },
	[TL_M] = { "M", "rgb(200,160,60)" },
	[TL_UNKNOWN] = { "privilege unknown (no Ownership messages: trTeContext off)",
			 "rgb(160,160,160)" },
};

#define TL_EXCEPTION "rgb(210,30,30)"
#define TL_INTERRUPT "rgb(230,140,0)"
#define TL_LOST      "rgb(0,0,0)"
#define TL_GRID      "rgb(225,225,225)"

/* One lane's columns. */
struct tl_columns {
	float share[TL_COLUMNS][TL_CLASSES];    /* of the column's time */
	uint32_t exc[TL_COLUMNS], irq[TL_COLUMNS], lost[TL_COLUMNS];
};

struct tl_axis {
	uint64_t t0, t1;
	double span;            /* t1 - t0, at least 1 */
};

static double column_of(const struct tl_axis *ax, uint64_t time)
{
	return (double)(time - ax->t0) / ax->span * TL_COLUMNS;
}

static enum tl_class class_of(int priv)
{
	switch (priv) {
	case 0: return TL_U;
	case 1: return TL_S;
	case 4: return TL_VU;
	case 5: return TL_VS;
	case -1: return TL_UNKNOWN;
	default: return TL_M;   /* M, or the reserved encoding */
	}
}

/* A traced stretch [from, to): its share of every column it covers. */
static void add_stretch(struct tl_columns *c, const struct tl_axis *ax, uint64_t from,
			uint64_t to, int priv)
{
	double x0 = column_of(ax, from), x1 = column_of(ax, to);
	enum tl_class k = class_of(priv);

	for (long col = (long)x0; col < TL_COLUMNS && (double)col < x1; col++) {
		double lo = x0 > (double)col ? x0 : (double)col;
		double hi = x1 < (double)col + 1 ? x1 : (double)col + 1;

		if (hi > lo)
			c->share[col][k] += (float)(hi - lo);
	}
}

static void count_at(uint32_t *counts, const struct tl_axis *ax, uint64_t time)
{
	long col = (long)column_of(ax, time);

	counts[col < TL_COLUMNS ? col : TL_COLUMNS - 1]++;
}

/* One hart's events into its columns: traced from a sync to a stop, lost
 * trace or decoding error; the privilege changes at Ownership messages. */
static void fill_lane(const struct nt_timeline *t, uint32_t hart, uint64_t end,
		      const struct tl_axis *ax, struct tl_columns *c)
{
	bool traced = false;
	int priv = -1;
	uint64_t start = 0;

	for (size_t i = 0; i < t->nevents; i++) {
		const struct nt_timeline_event *e = &t->events[i];
		uint64_t time = nt_timeline_event_time(t, e);

		if (e->hart != hart)
			continue;
		switch (e->kind) {
		case NTRACE_EV_SYNC:
			if (!traced)
				start = time;
			traced = true;
			break;
		case NTRACE_EV_OWNERSHIP:
			if (traced)
				add_stretch(c, ax, start, time, priv);
			start = time;
			priv = e->code;
			break;
		case NTRACE_EV_TRAP:
			count_at(e->code == NTRACE_BTYPE_INTERRUPT ? c->irq : c->exc, ax, time);
			break;
		case NTRACE_EV_OVERFLOW:
		case NTRACE_EV_ERROR:
			count_at(c->lost, ax, time);
			/* the traced stretch ends, as at a stop */
			__attribute__((fallthrough));
		case NTRACE_EV_STOP:
			if (traced)
				add_stretch(c, ax, start, time, priv);
			traced = false;
			break;
		default:
			break;
		}
	}
	if (traced)
		add_stretch(c, ax, start, end, priv);
}

/* ---- drawing: runs of equal columns as rectangles of one path ------------ */

/* Rectangles [col0, col1) x [y, y + h) for each run of columns with the same
 * (y, h); h 0 is no rectangle.  Written as one path; nothing when empty. */
static void draw_runs(FILE *f, const char *colour, const int (*yh)[2])
{
	bool open = false;

	for (int col = 0; col < TL_COLUMNS;) {
		int end = col + 1;

		while (end < TL_COLUMNS && yh[end][0] == yh[col][0] && yh[end][1] == yh[col][1])
			end++;
		if (yh[col][1] > 0) {
			if (!open)
				fprintf(f, "<path fill=\"%s\" d=\"", colour);
			open = true;
			fprintf(f, "M%d %dh%dv%dh-%dz", TL_LEFT + col, yh[col][0], end - col,
				yh[col][1], end - col);
		}
		col = end;
	}
	if (open)
		fputs("\"/>\n", f);
}

#define TL_MIN_SHARE 3           /* pixels of a privilege however small its share */
#define TL_NO_SHARE  1e-6        /* of a column: rounding, not a stretch */

/* The bar's pixels per privilege in one column: its share of the traced
 * time, at least TL_MIN_SHARE when it has any (taken from the largest). */
static void column_heights(const float *share, int *h)
{
	double traced = 0, acc = 0;
	int below = 0, largest = 0, sum = 0;

	for (int k = 0; k < TL_CLASSES; k++)
		traced += share[k];
	for (int k = 0; k < TL_CLASSES; k++) {
		acc += share[k];
		int top = traced > 0 ? (int)lround(acc / traced * TL_BAR) : 0;

		h[k] = top - below;
		below = top;
		if (share[k] > TL_NO_SHARE && h[k] < TL_MIN_SHARE)
			h[k] = TL_MIN_SHARE;
		largest = h[k] > h[largest] ? k : largest;
		sum += h[k];
	}
	if (sum > TL_BAR)
		h[largest] -= sum - TL_BAR;
}

/* Each column with traced time in it, full height: the privileges' shares
 * of that time stacked, U at the bottom. */
static void draw_bar(FILE *f, const struct tl_columns *c, int y, bool *present)
{
	int yh[TL_CLASSES][TL_COLUMNS][2];

	for (int col = 0; col < TL_COLUMNS; col++) {
		int h[TL_CLASSES], below = 0;

		column_heights(c->share[col], h);
		for (int k = 0; k < TL_CLASSES; k++) {
			below += h[k];
			yh[k][col][0] = y + TL_BAR - below;
			yh[k][col][1] = h[k];
			present[k] |= h[k] > 0;
		}
	}
	for (int k = 0; k < TL_CLASSES; k++)
		draw_runs(f, tl_classes[k].colour, (const int (*)[2])yh[k]);
}

static int mark_height(uint32_t n, uint32_t most, int full)
{
	if (!n)
		return 0;
	if (most <= 1)
		return full;
	int h = (int)lround(full * log2(1.0 + n) / log2(1.0 + most));

	return h < 2 ? 2 : h;
}

/* Counts as marks growing up from `base` (up) or down from it. */
static void draw_marks(FILE *f, const uint32_t *counts, uint32_t most, int base, bool up,
		       int full, const char *colour)
{
	int yh[TL_COLUMNS][2];

	for (int col = 0; col < TL_COLUMNS; col++) {
		int h = mark_height(counts[col], most, full);

		yh[col][0] = up ? base - h : base;
		yh[col][1] = h;
	}
	draw_runs(f, colour, (const int (*)[2])yh);
}

static uint32_t most_of(const uint32_t *counts)
{
	uint32_t most = 0;

	for (int col = 0; col < TL_COLUMNS; col++)
		most = counts[col] > most ? counts[col] : most;
	return most;
}

/* ---- the time axis ---------------------------------------------------------- */

struct tl_units {
	double per_tick;        /* axis units per timeline tick */
	bool seconds;
	const char *what;       /* the axis' title */
};

/* The same clock on every hart (0 when not known or when they differ). */
static double common_clock(const struct nt_timeline *t)
{
	double hz = t->nharts ? t->harts[0].ticks_per_second : 0;

	for (size_t h = 1; h < t->nharts; h++)
		if (t->harts[h].ticks_per_second != hz)
			return 0;
	return hz;
}

static struct tl_units units_of(const struct nt_timeline *t)
{
	double hz = common_clock(t);

	if (!t->all_tstamp)
		return (struct tl_units){ 1, false, "instructions retired, each hart counting its own "
					  "(no timestamps: the harts are not aligned)" };
	if (hz > 0)
		return (struct tl_units){ 1 / hz, true, "time since the first event (message "
					  "timestamps, shared by the harts)" };
	return (struct tl_units){ 1, false, "timestamp ticks since the first event (shared by "
				  "the harts; the clock's frequency is not known)" };
}

/* 1, 2 or 5 times a power of ten: about 10 ticks over span (>= 1 for counts). */
static double tick_step(double span, bool seconds)
{
	double raw = span / 10, mag = 1, f, step;

	if (raw <= 0)
		raw = 1;
	while (mag * 10 <= raw)
		mag *= 10;
	while (mag > raw)
		mag /= 10;
	f = raw / mag;
	step = (f < 1.5 ? 1 : f < 3.5 ? 2 : f < 7.5 ? 5 : 10) * mag;
	return !seconds && step < 1 ? 1 : step;
}

/* "0", "2.5k", "300", "1.2M" for counts; "20 ms", "1.5 \u00b5s" for seconds: the
 * unit the span's size calls for, the decimals the step needs. */
static void tick_label(char *buf, size_t size, double v, double step, double span, bool seconds)
{
	static const struct scale {
		double div;
		const char *suffix;
	} counts[] = { { 1e9, "G" }, { 1e6, "M" }, { 1e3, "k" }, { 1, "" } },
	  secs[] = { { 1, " s" }, { 1e-3, " ms" }, { 1e-6, " \u00b5s" }, { 1e-9, " ns" } };
	const struct scale *sc = seconds ? secs : counts;
	size_t i = 0;
	int decimals = 0;

	if (v == 0) {
		snprintf(buf, size, "0");
		return;
	}
	while (i + 1 < 4 && span < sc[i].div)
		i++;
	/* as many decimals as the step has below the unit */
	while (decimals < 9 && step / sc[i].div * pow(10, decimals) < 0.999999)
		decimals++;
	snprintf(buf, size, "%.*f%s", decimals, v / sc[i].div, sc[i].suffix);
}

/* The pixel column of a tick (lines are drawn through its middle: crisp). */
static int tick_x(double v, double span)
{
	int col = (int)lround(v / span * TL_COLUMNS);

	return TL_LEFT + (col < TL_COLUMNS ? col : TL_COLUMNS - 1);
}

static void draw_axis(FILE *f, const struct tl_axis *ax, const struct tl_units *u, int y)
{
	double span = ax->span * u->per_tick;
	double step = tick_step(span, u->seconds);
	char label[40];

	fprintf(f, "<path stroke=\"rgb(0,0,0)\" fill=\"none\" d=\"M%d %d.5h%d\"/>\n", TL_LEFT, y,
		TL_COLUMNS);
	for (unsigned k = 0; k * step <= span * (1 + 1e-9); k++) {
		int x = tick_x(k * step, span);

		tick_label(label, sizeof(label), k * step, step, span, u->seconds);
		fprintf(f, "<path stroke=\"rgb(0,0,0)\" d=\"M%d.5 %dv5\"/>\n"
			"<text x=\"%d.5\" y=\"%d\" text-anchor=\"middle\" font-size=\"11\">%s</text>\n",
			x, y + 1, x, y + 17, label);
	}
	fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" font-size=\"11\">%s</text>\n",
		TL_LEFT + TL_COLUMNS / 2, y + 31, u->what);
}

static void draw_grid(FILE *f, const struct tl_axis *ax, const struct tl_units *u, int y0, int y1)
{
	double span = ax->span * u->per_tick;
	double step = tick_step(span, u->seconds);

	fprintf(f, "<path stroke=\"%s\" fill=\"none\" d=\"", TL_GRID);
	for (unsigned k = 0; k * step <= span * (1 + 1e-9); k++)
		fprintf(f, "M%d.5 %dV%d", tick_x(k * step, span), y0, y1);
	fputs("\"/>\n", f);
}

/* ---- legend --------------------------------------------------------------- */

/* A swatch and its text at *x; *x moves past them (monospace, 12 px). */
static void legend_item(FILE *f, int *x, int y, const char *colour, const char *text)
{
	fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"12\" height=\"12\" fill=\"%s\"/>"
		"<text x=\"%d\" y=\"%d\">%s</text>\n", *x, y - 10, colour, *x + 16, y, text);
	*x += 16 + (int)(7.3 * (double)strlen(text)) + 18;
}

static void draw_legend(FILE *f, int y, const bool *present, uint32_t most_marks, bool lost)
{
	int x = 10;
	char text[96];

	fprintf(f, "<text x=\"%d\" y=\"%d\">traced, by privilege:</text>\n", x, y);
	x += 23 * 7 + 10;
	for (int k = 0; k < TL_CLASSES; k++)
		if (present[k])
			legend_item(f, &x, y, tl_classes[k].colour, tl_classes[k].name);
	legend_item(f, &x, y, "rgb(255,255,255)\" stroke=\"rgb(160,160,160)", "not traced");
	y += 20;
	x = 10;
	fprintf(f, "<text x=\"%d\" y=\"%d\">per pixel column:</text>\n", x, y);
	x += 18 * 7 + 10;
	legend_item(f, &x, y, TL_EXCEPTION, "exceptions (above the bar)");
	legend_item(f, &x, y, TL_INTERRUPT, "interrupts (below)");
	if (lost)
		legend_item(f, &x, y, TL_LOST, "trace lost, decoding error");
	if (most_marks > 1) {
		snprintf(text, sizeof(text), "height: count, log scale, full = %" PRIu32, most_marks);
		fprintf(f, "<text x=\"%d\" y=\"%d\">%s</text>\n", x, y, text);
	}
}

/* ---- the picture ------------------------------------------------------------- */

static struct tl_axis axis_of(const struct nt_timeline *t)
{
	struct tl_axis ax = { UINT64_MAX, 0, 1 };

	for (size_t i = 0; i < t->nevents; i++) {
		uint64_t time = nt_timeline_event_time(t, &t->events[i]);

		ax.t0 = time < ax.t0 ? time : ax.t0;
		ax.t1 = time > ax.t1 ? time : ax.t1;
	}
	for (size_t h = 0; h < t->nharts; h++) {
		uint64_t end = t->all_tstamp ? t->harts[h].time : t->harts[h].instructions;

		ax.t1 = end > ax.t1 ? end : ax.t1;
	}
	if (ax.t0 == UINT64_MAX || ax.t0 > ax.t1)
		ax.t0 = ax.t1 = 0;
	ax.span = ax.t1 > ax.t0 ? (double)(ax.t1 - ax.t0) : 1.0;
	return ax;
}

static void lane_label(FILE *f, const struct nt_timeline_hart *h, int bar_y)
{
	fprintf(f, "<text x=\"10\" y=\"%d\">hart %u</text>\n"
		"<text x=\"10\" y=\"%d\" font-size=\"10\" fill=\"rgb(90,90,90)\">%" PRIu64
		" instr.</text>\n", bar_y + 8, h->id, bar_y + 20, h->instructions);
}

int nt_timeline_write_svg(const struct nt_timeline *t, FILE *f)
{
	struct tl_axis ax = axis_of(t);
	struct tl_units u = units_of(t);
	struct tl_columns *cols = calloc(t->nharts ? t->nharts : 1, sizeof(*cols));
	int axis_y = TL_TOP + (int)t->nharts * TL_LANE;
	int height = axis_y + 40 + 2 * 20 + 10;
	bool present[TL_CLASSES] = { false }, lost = false;
	uint32_t most = 0;

	if (!cols)
		return -1;
	for (size_t h = 0; h < t->nharts; h++) {
		fill_lane(t, (uint32_t)h, t->all_tstamp ? t->harts[h].time : t->harts[h].instructions,
			  &ax, &cols[h]);
		uint32_t m = most_of(cols[h].exc), n = most_of(cols[h].irq);

		most = m > most ? m : most;
		most = n > most ? n : most;
		lost |= most_of(cols[h].lost) > 0;
	}
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
		"viewBox=\"0 0 %d %d\" font-family=\"monospace\" font-size=\"12\">\n"
		"<title>ntrace timeline</title>\n"
		"<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" fill=\"rgb(255,255,255)\"/>\n"
		"<text x=\"10\" y=\"22\" font-size=\"15\">trace timeline: %zu hart%s, %s</text>\n",
		TL_WIDTH, height, TL_WIDTH, height, TL_WIDTH, height, t->nharts,
		t->nharts == 1 ? "" : "s", t->all_tstamp ? "message timestamps"
		: "instruction index of each hart");
	draw_grid(f, &ax, &u, TL_TOP - 4, axis_y);
	for (size_t h = 0; h < t->nharts; h++) {
		const struct nt_timeline_hart *hart = &t->harts[h];
		int top = TL_TOP + (int)h * TL_LANE;
		int bar_y = top + TL_MARKS + TL_GAP;

		fprintf(f, "<g><title>hart %u: %" PRIu64 " instructions, %" PRIu64 " exceptions, %"
			PRIu64 " interrupts</title>\n", hart->id, hart->instructions, hart->exceptions,
			hart->interrupts);
		lane_label(f, hart, bar_y);
		draw_bar(f, &cols[h], bar_y, present);
		draw_marks(f, cols[h].exc, most, bar_y - TL_GAP, true, TL_MARKS, TL_EXCEPTION);
		draw_marks(f, cols[h].irq, most, bar_y + TL_BAR + TL_GAP, false, TL_MARKS, TL_INTERRUPT);
		draw_marks(f, cols[h].lost, 1, top, false, TL_LANE_H, TL_LOST);
		fputs("</g>\n", f);
	}
	free(cols);
	draw_axis(f, &ax, &u, axis_y);
	draw_legend(f, axis_y + 58, present, most, lost);
	fputs("</svg>\n", f);
	return ferror(f) ? -1 : 0;
}
