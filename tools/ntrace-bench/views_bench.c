// SPDX-License-Identifier: BSD-2-Clause
/*
 * Throughput of what people read (make bench-views): million decoded
 * instructions per second, one core, of
 *   decode   decoding alone (nt_decode_stream, nothing kept): the floor;
 *   listing  decode --listing written to /dev/null (objdump's text loaded
 *            beforehand: its run is not timed);
 *   profile  decode into the profile, then its totals (nt_profile_finish);
 * per corpus program, encoded with every optional compression.  Each figure
 * is the median of REPS runs, each repeated until it takes MIN_MS.
 *
 *   views_bench [--reps 1..64] [--min-ms N] ELF PCS [ELF PCS...]
 *
 * Prints a markdown table.  Figures only: it fails only when a run does.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ntrace_tool.h"

struct program {
	const char *name;
	struct nt_image_set images;
	struct nt_symtab symbols, functions;
	struct nt_disasm disasm;
	struct nt_tool_config cfg;
	struct nt_buf nex;
	uint64_t instructions;
};

typedef int run_fn(struct program *p);

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int run_decode(struct program *p)
{
	struct nt_err err;

	return nt_decode_stream(&p->cfg, &p->images, p->nex.data, p->nex.len, NULL, NULL, "bench",
				NULL, &err) == 0 ? 0 : -1;
}

static int run_listing(struct program *p)
{
	struct nt_err err;
	FILE *f = fopen("/dev/null", "w");
	struct nt_listing l = { f, &p->symbols, &p->disasm, false };
	struct nt_visitor v;

	if (!f)
		return -1;
	nt_listing_visitor(&l, &v);
	long rc = nt_decode_visit(&p->cfg, &p->images, p->nex.data, p->nex.len, &v, NULL, "bench",
				  NULL, &err);
	fclose(f);
	return rc == 0 && !l.write_error ? 0 : -1;
}

static int run_profile(struct program *p)
{
	struct nt_err err;
	struct nt_profile prof;
	struct nt_visitor v;

	if (nt_profile_init(&prof, &p->images, &p->functions, p->cfg.xlen))
		return -1;
	nt_profile_visitor(&prof, &v);
	long rc = nt_decode_visit(&p->cfg, &p->images, p->nex.data, p->nex.len, &v, NULL, "bench",
				  NULL, &err);
	int frc = nt_profile_finish(&prof);
	uint64_t n = prof.instructions;

	nt_profile_free(&prof);
	return rc == 0 && frc == 0 && n == p->instructions ? 0 : -1;
}

/* The three columns, in order. */
static run_fn *const runs[3] = { run_decode, run_listing, run_profile };

static int by_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Median M instr/s of reps timed runs; -1 when a run fails. */
static double throughput(struct program *p, run_fn *fn, int reps, double min_s)
{
	double rates[64] = { 0 };

	for (int r = 0; r < reps; r++) {
		unsigned iters = 0;
		double t0 = now(), t;

		do {
			if (fn(p))
				return -1;
			iters++;
			t = now() - t0;
		} while (t < min_s);
		rates[r] = (double)p->instructions * iters / t / 1e6;
	}
	qsort(rates, (size_t)reps, sizeof(rates[0]), by_value);
	return rates[reps / 2];
}

static int load(struct program *p, const char *elf, const char *pcs)
{
	struct nt_err err;
	struct nt_trace trace;
	uint8_t *text;
	size_t len;

	memset(p, 0, sizeof(*p));
	p->name = pcs;
	nt_images_init(&p->images);
	nt_symtab_init(&p->symbols);
	nt_symtab_init(&p->functions);
	nt_disasm_init(&p->disasm);
	nt_trace_init(&trace);
	nt_tool_config_default(&p->cfg);
	p->cfg.repeat_history = p->cfg.seq_jump = p->cfg.ext_addr = true;
	p->cfg.callstack = 32;
	p->cfg.implicit_return_mode = 3;
	int rc = nt_images_add_elf(&p->images, elf, &err) ||
		 nt_symtab_add_elf(&p->symbols, elf, &err) ||
		 nt_symtab_add_elf(&p->functions, elf, &err) ||
		 nt_disasm_add_elf(&p->disasm, NULL, elf, &err) ||
		 nt_read_file(pcs, &text, &len, &err);
	if (!rc) {
		p->cfg.xlen = (unsigned)p->images.elf_class;
		rc = nt_pcs_parse((const char *)text, len, pcs, &trace, &err) ||
		     nt_encode_trace(&p->images, &trace, &p->cfg, pcs, &p->nex, NULL, &err);
		free(text);
	}
	p->instructions = trace.count;
	nt_trace_free(&trace);
	nt_symtab_keep_functions(&p->functions);
	if (rc)
		fprintf(stderr, "views_bench: %s\n", err.msg);
	return rc ? -1 : 0;
}

static void unload(struct program *p)
{
	nt_buf_free(&p->nex);
	nt_disasm_free(&p->disasm);
	nt_symtab_free(&p->functions);
	nt_symtab_free(&p->symbols);
	nt_images_free(&p->images);
}

/* "build/ntrace/rv64/sort.pcs" -> "rv64 sort" */
static void short_name(const char *path, char *buf, size_t size)
{
	const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	const char *dir = path;

	for (const char *s = path; s < base - 1; s++)
		if (*s == '/')
			dir = s + 1;
	snprintf(buf, size, "%.*s %.*s", (int)(base > dir ? base - 1 - dir : 0), dir,
		 (int)(strlen(base) > 4 ? strlen(base) - 4 : strlen(base)), base);
}

int main(int argc, char **argv)
{
	int reps = 5, first = 1, status = 0;
	double min_s = 0.05, sum[3] = { 0 };
	uint64_t total = 0;

	for (; first + 1 < argc && strncmp(argv[first], "--", 2) == 0; first += 2) {
		char *end;
		long v = strtol(argv[first + 1], &end, 10);

		bool number = *end == '\0' && v >= 0;

		if (number && strcmp(argv[first], "--reps") == 0)
			reps = (int)(v > 64 ? 0 : v);
		else if (number && strcmp(argv[first], "--min-ms") == 0)
			min_s = (double)v / 1000.0;
		else
			reps = 0;       /* a usage error below */
	}
	if (reps < 1 || reps > 64 || (argc - first) % 2 || argc == first) {
		fprintf(stderr, "usage: views_bench [--reps 1..64] [--min-ms N] ELF PCS [ELF PCS...]\n");
		return 2;
	}
	printf("| program | instructions | decode (M instr/s) | listing (M instr/s) | "
	       "profile (M instr/s) |\n|---|---:|---:|---:|---:|\n");
	for (int i = first; i < argc; i += 2) {
		struct program p;
		char name[128];
		double r[3];

		short_name(argv[i + 1], name, sizeof(name));
		if (load(&p, argv[i], argv[i + 1])) {
			status = 1;
			unload(&p);
			continue;
		}
		for (int k = 0; k < 3; k++) {
			r[k] = throughput(&p, runs[k], reps, min_s);
			if (r[k] < 0)
				status = 1;
			sum[k] += (double)p.instructions / r[k];    /* seconds per million */
		}
		total += p.instructions;
		printf("| %s | %llu | %.1f | %.1f | %.1f |\n", name, (unsigned long long)p.instructions,
		       r[0], r[1], r[2]);
		unload(&p);
	}
	if (total)
		printf("| **all** (total instructions / total time) | %llu | %.1f | %.1f | %.1f |\n",
		       (unsigned long long)total, (double)total / sum[0], (double)total / sum[1],
		       (double)total / sum[2]);
	return status;
}
