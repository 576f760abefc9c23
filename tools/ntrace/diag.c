// SPDX-License-Identifier: BSD-2-Clause
/*
 * Error lines of one input ("name: byte offset N: ..."): the first few are
 * printed, the others only counted, so a stream of random bytes gives a
 * screenful and a count instead of a line per malformed message.
 */
#include <stdarg.h>

#include "ntrace_tool.h"

void nt_diag_init(struct nt_diag *d, FILE *f, const char *name, unsigned long max)
{
	d->f = f;
	d->name = name;
	d->max = max;
	d->total = 0;
}

static void print_line(const struct nt_diag *d, size_t offset, const char *fmt, va_list ap)
{
	fprintf(d->f, "%s: byte offset %zu: ", d->name, offset);
	vfprintf(d->f, fmt, ap);
	fputc('\n', d->f);
}

void nt_diag_error(struct nt_diag *d, size_t offset, const char *fmt, ...)
{
	va_list ap;

	d->total++;
	if (!d->f || (d->max && d->total > d->max))
		return;
	va_start(ap, fmt);
	print_line(d, offset, fmt, ap);
	va_end(ap);
}

void nt_diag_finish(const struct nt_diag *d)
{
	unsigned long hidden = d->max && d->total > d->max ? d->total - d->max : 0;

	if (d->f && hidden)
		fprintf(d->f, "%s: %lu more error%s not shown (--max-errors N shows more, 0 all)\n",
			d->name, hidden, hidden == 1 ? "" : "s");
}

void nt_diag_conclusion(struct nt_diag *d, size_t offset, const char *fmt, ...)
{
	va_list ap;

	d->total++;
	if (!d->f)
		return;
	va_start(ap, fmt);
	print_line(d, offset, fmt, ap);
	va_end(ap);
}
