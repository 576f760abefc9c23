// SPDX-License-Identifier: BSD-2-Clause
/*
 * `ntrace profile --svg`: a flame graph of the call tree, written as one
 * self-contained SVG (no script, no external file).
 *
 * Layout (tests/ntrace/flamegraph-check.py recomputes it from the folded
 * stacks and checks a browser's rendering against it): the root "all" is
 * the bottom row, across the whole plot; each frame sits on its parent,
 * FRAME_H pixels higher, as wide as its total instructions, its children
 * left to right in name order.  Frames under MIN_WIDTH pixels are left out.
 * A frame's colour is a function of its name only (flame_colour).
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "ntrace_tool.h"

#define WIDTH     1200
#define MARGIN    10          /* left and right */
#define TOP       34          /* title */
#define BOTTOM    10
#define FRAME_H   16          /* rect FRAME_H - 1 high, 1 pixel apart */
#define MIN_WIDTH 0.5
#define CHAR_W    7.0         /* width of a label character, font-size 12 */

/* FNV-1a of the name -> a warm colour (red-orange-yellow). */
static void flame_colour(const char *name, unsigned rgb[3])
{
	uint32_t h = 2166136261u;

	for (const unsigned char *s = (const unsigned char *)name; *s; s++)
		h = (h ^ *s) * 16777619u;
	rgb[0] = 205 + h % 51;
	rgb[1] = 60 + (h >> 8) % 171;
	rgb[2] = 20 + (h >> 16) % 41;
}

static void xml_text(FILE *f, const char *s, size_t max)
{
	for (size_t i = 0; i < max && s[i]; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c == '<')
			fputs("&lt;", f);
		else if (c == '>')
			fputs("&gt;", f);
		else if (c == '&')
			fputs("&amp;", f);
		else if (c == '"')
			fputs("&quot;", f);
		else
			fputc(c < ' ' || c >= 0x7f ? '?' : c, f);
	}
}

struct flame {
	const struct nt_profile *p;
	FILE *f;
	double scale;           /* pixels per instruction */
	int height;
};

static const char *frame_name(const struct nt_profile *p, uint32_t n)
{
	return n == 0 ? "all" : nt_profile_func_name(p, p->nodes[n].func);
}

static const struct nt_profile *sorting_profile;

static int by_name(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	int c = strcmp(frame_name(sorting_profile, x), frame_name(sorting_profile, y));

	return c ? c : (x > y) - (x < y);
}

static void frame(const struct flame *g, uint32_t n, double x)
{
	const struct nt_profile_node *node = &g->p->nodes[n];
	const char *name = frame_name(g->p, n);
	double w = (double)node->total * g->scale;
	double y = g->height - BOTTOM - (double)(node->depth + 1) * FRAME_H;
	unsigned rgb[3];

	flame_colour(name, rgb);
	fprintf(g->f, "<g><title>");
	xml_text(g->f, name, SIZE_MAX);
	fprintf(g->f, ": %" PRIu64 " instructions (%.2f%%)</title>"
		"<rect x=\"%.2f\" y=\"%.0f\" width=\"%.2f\" height=\"%d\" fill=\"rgb(%u,%u,%u)\"/>",
		node->total, 100.0 * (double)node->total / (double)g->p->nodes[0].total, x, y, w,
		FRAME_H - 1, rgb[0], rgb[1], rgb[2]);
	size_t fit = w > 6 ? (size_t)((w - 6) / CHAR_W) : 0;

	if (fit >= 3) {
		fprintf(g->f, "<text x=\"%.2f\" y=\"%.0f\">", x + 3, y + FRAME_H - 4);
		xml_text(g->f, name, strlen(name) > fit ? fit - 2 : fit);
		fputs(strlen(name) > fit ? "..</text>" : "</text>", g->f);
	}
	fputs("</g>\n", g->f);
}

/* Left edges: each node's children side by side from its own left edge, in
 * name order (a child's index is above its parent's: parents are placed
 * first).  -1 for frames not drawn. */
static int place_frames(const struct nt_profile *p, double scale, double *x)
{
	uint32_t *kids = malloc((p->nodes_count + 1) * sizeof(*kids));

	if (!kids)
		return -1;
	for (size_t n = 0; n < p->nodes_count; n++)
		x[n] = -1;
	x[0] = MARGIN;
	sorting_profile = p;
	for (uint32_t n = 0; n < p->nodes_count; n++) {
		size_t count = 0;
		double left = x[n];

		if (left < 0)
			continue;
		for (uint32_t c = p->nodes[n].first_child; c != UINT32_MAX; c = p->nodes[c].next_sibling)
			kids[count++] = c;
		qsort(kids, count, sizeof(*kids), by_name);
		for (size_t i = 0; i < count; i++) {
			double w = (double)p->nodes[kids[i]].total * scale;

			x[kids[i]] = w < MIN_WIDTH ? -1 : left;
			left += w;
		}
	}
	free(kids);
	return 0;
}

int nt_profile_write_svg(const struct nt_profile *p, FILE *f, const char *title)
{
	uint32_t max_depth = 0;
	struct flame g = { p, f, 0, 0 };

	for (size_t n = 0; n < p->nodes_count; n++)
		if (p->nodes[n].total && p->nodes[n].depth > max_depth)
			max_depth = p->nodes[n].depth;
	g.height = TOP + BOTTOM + (int)(max_depth + 1) * FRAME_H;
	g.scale = p->nodes[0].total ? (WIDTH - 2.0 * MARGIN) / (double)p->nodes[0].total : 0;
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
		"viewBox=\"0 0 %d %d\" font-family=\"monospace\" font-size=\"12\">\n"
		"<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" fill=\"rgb(255,255,255)\"/>\n"
		"<text x=\"%d\" y=\"22\" font-size=\"16\">", WIDTH, g.height, WIDTH, g.height,
		WIDTH, g.height, MARGIN);
	xml_text(f, title, SIZE_MAX);
	fprintf(f, " (%" PRIu64 " instructions)</text>\n", p->nodes[0].total);
	double *x = malloc((p->nodes_count + 1) * sizeof(*x));

	if (!x || place_frames(p, g.scale, x)) {
		free(x);
		return -1;
	}
	for (uint32_t n = 0; p->nodes[0].total && n < p->nodes_count; n++)
		if (x[n] >= 0)
			frame(&g, n, x[n]);
	free(x);
	fputs("</svg>\n", f);
	return ferror(f) ? -1 : 0;
}
