// SPDX-License-Identifier: BSD-2-Clause
/*
 * `ntrace perf FILE`: a tsbi-record recording (perfrec.c reads it) through
 * the tool's own views: the listing with a header line per segment, the
 * profile of all segments (text, JSON, folded stacks, flame graph), or the
 * decoded instructions as .pcs.  The --elf files are placed where the
 * traced process mapped them.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "ntrace_cli.h"
#include "recording.h"

static int fail(const struct nt_err *err)
{
	fprintf(stderr, "ntrace: %s\n", err->msg);
	return 1;
}

/* The --elf files, each placed for the traced process (specs[i] for
 * a->elves.v[i]). */
struct placed_elves {
	struct nt_elf_spec *v;
	size_t count;
};

static void free_elves(struct placed_elves *e)
{
	for (size_t i = 0; i < e->count; i++)
		nt_elf_spec_free(&e->v[i]);
	free(e->v);
	memset(e, 0, sizeof(*e));
}

static int place_elves(const struct cli_args *a, const struct nt_perf_recording *r,
		       struct placed_elves *e, struct nt_err *err)
{
	uint32_t pid = 0;

	(void)nt_perf_traced_pid(r, &pid);
	e->v = calloc(a->elves.count ? a->elves.count : 1, sizeof(*e->v));
	if (!e->v) {
		nt_err_set(err, "out of memory");
		return -1;
	}
	for (size_t i = 0; i < a->elves.count; i++) {
		if (nt_elf_spec_parse(a->elves.v[i], &e->v[i], err))
			return -1;
		e->count++;
		if (nt_perf_place_elf(r, pid, &e->v[i], a->input_path, err))
			return -1;
	}
	return 0;
}

/* Images, symbols and (for the listing) disassembly of the placed files. */
static int load_code(struct cli_args *a, const struct placed_elves *e, struct nt_image_set *images,
		     struct nt_symtab *symbols, struct nt_disasm *disasm, struct nt_err *err)
{
	for (size_t i = 0; i < e->count; i++) {
		if (nt_images_add_elf_spec(images, &e->v[i], err) ||
		    nt_symtab_add_elf_spec(symbols, &e->v[i], err) ||
		    (disasm && nt_disasm_add_elf_spec(disasm, a->objdump, &e->v[i], err)))
			return -1;
	}
	for (size_t i = 0; i < a->raws.count; i++)
		if (nt_images_add_raw(images, a->raws.v[i], err))
			return -1;
	return 0;
}

/* ---- the listing ------------------------------------------------------------- */

struct perf_listing {
	struct nt_listing l;
};

static void listing_begin(void *ctx, size_t k, const struct nt_perf_record *aux)
{
	struct perf_listing *pl = ctx;
	char line[256];
	int n = nt_perf_segment_header(line, sizeof(line), k, aux);

	if (n > 0 && fwrite(line, 1, strlen(line), pl->l.out) != strlen(line))
		pl->l.write_error = true;
}

static void listing_lost(void *ctx, const struct nt_perf_record *rec)
{
	struct perf_listing *pl = ctx;

	if (fprintf(pl->l.out, "# lost: %" PRIu64 " %s (PERF_RECORD_LOST%s at byte %zu)\n", rec->lost,
		    rec->type == TSBIREC_LOST ? "records" : "samples",
		    rec->type == TSBIREC_LOST ? "" : "_SAMPLES",
		    rec->offset) < 0)
		pl->l.write_error = true;
}

/* "# FILE: N segments, ...; cpu:hart 0:0 1:1 ..." */
static void listing_title(FILE *f, const char *name, const struct nt_perf_recording *r)
{
	fprintf(f, "# %s: %zu segments, %" PRIu64 " AUX bytes (%" PRIu64 " truncated), %" PRIu64
		" records lost; cpu:hart", name, r->segments, r->aux_bytes, r->truncated, r->lost);
	for (uint32_t i = 0; i < r->ncpus; i++) {
		if (r->hart[i] == TSBIREC_HART_UNKNOWN)
			fprintf(f, " %" PRIu32 ":?", i);
		else
			fprintf(f, " %" PRIu32 ":%" PRIu32, i, r->hart[i]);
	}
	fputc('\n', f);
}

/* ---- the profile ---------------------------------------------------------------- */

struct perf_profile {
	struct nt_visitor inner;
};

/* A segment's end breaks the flow: the next one starts anew (it may come
 * from another CPU, or much later), whatever this one ended with. */
static void profile_end(void *ctx, size_t k, const struct nt_perf_record *aux)
{
	struct perf_profile *pp = ctx;
	struct ntrace_event stop = { .kind = NTRACE_EV_STOP };

	(void)k;
	(void)aux;
	pp->inner.event(pp->inner.ctx, &stop);
}

/* ---- the command ---------------------------------------------------------------- */

static FILE *open_output(const char *path)
{
	FILE *f = path ? fopen(path, "w") : stdout;

	if (!f)
		fprintf(stderr, "ntrace: %s: cannot create: %s\n", path, strerror(errno));
	return f;
}

static int close_output(FILE *f, const char *path)
{
	if ((f == stdout ? fflush(f) : fclose(f)) != 0) {
		fprintf(stderr, "ntrace: %s: write error\n", path ? path : "stdout");
		return -1;
	}
	return 0;
}

/* Decodes into the listing or the .pcs file; the decoding errors, or -1. */
static long decode_to_file(struct cli_args *a, const struct nt_perf_recording *r,
			   struct nt_image_set *images, const struct nt_symtab *symbols,
			   const struct nt_disasm *disasm)
{
	struct nt_err err = { "" };
	const char *path = a->trace_path ? a->trace_path : a->out_path;
	FILE *f = open_output(path);
	struct perf_listing pl = { { f, symbols, disasm, false } };
	struct nt_visitor v;
	struct nt_perf_output out = { .ctx = &pl };
	long errors;

	if (!f)
		return -1;
	/* The .pcs too has a comment line per segment (and per loss): a
	 * comparison can tell where each segment starts. */
	out.begin = listing_begin;
	out.lost = listing_lost;
	if (a->trace_path) {
		out.pcs = f;
	} else {
		nt_listing_visitor(&pl.l, &v);
		out.visit = &v;
		listing_title(f, a->input_path, r);
	}
	errors = nt_perf_decode(r, &a->cfg, images, &out, a->input_path, stderr, &err);
	if (errors >= 0 && pl.l.write_error) {
		nt_err_set(&err, "%s: write error", path ? path : "stdout");
		errors = -1;
	}
	if (close_output(f, path))
		return -1;
	if (errors < 0)
		fail(&err);
	return errors;
}

static long decode_to_profile(struct cli_args *a, const struct nt_perf_recording *r,
			      struct nt_image_set *images, struct nt_symtab *symbols)
{
	struct nt_err err = { "" };
	struct nt_profile prof;
	struct perf_profile pp;
	struct nt_perf_output out = { .visit = &pp.inner, .end = profile_end, .ctx = &pp };
	long errors;

	nt_symtab_keep_functions(symbols);
	if (nt_profile_init(&prof, images, symbols, a->cfg.xlen)) {
		fprintf(stderr, "ntrace: out of memory\n");
		return -1;
	}
	nt_profile_visitor(&prof, &pp.inner);
	errors = nt_perf_decode(r, &a->cfg, images, &out, a->input_path, stderr, &err);
	if (errors >= 0 && nt_profile_finish(&prof)) {
		nt_err_set(&err, "%s: out of memory for the profile", a->input_path);
		errors = -1;
	}
	if (errors < 0)
		fail(&err);
	else if (cli_write_profile(&prof, a))
		errors = -1;
	nt_profile_free(&prof);
	return errors;
}

int cli_perf(struct cli_args *a)
{
	struct nt_err err = { "" };
	struct nt_perf_recording rec = { 0 };
	struct placed_elves elves = { 0 };
	struct nt_image_set images;
	struct nt_symtab symbols;
	struct nt_disasm disasm;
	bool listing = !a->trace_path && !a->profile && !a->json && !a->folded && !a->svg;
	uint8_t *buf = NULL;
	size_t len = 0;
	long errors = -1;

	nt_images_init(&images);
	nt_symtab_init(&symbols);
	nt_disasm_init(&disasm);
	if (nt_read_file(a->input_path, &buf, &len, &err) ||
	    nt_perf_parse(buf, len, a->input_path, &rec, &err) ||
	    nt_perf_config(&rec, &a->cfg, &err) || place_elves(a, &rec, &elves, &err) ||
	    load_code(a, &elves, &images, &symbols, listing ? &disasm : NULL, &err)) {
		fail(&err);
		goto done;
	}
	if (rec.segments == 0)
		fprintf(stderr, "ntrace: %s: no PERF_RECORD_AUX: nothing was traced\n", a->input_path);
	if (a->trace_path || listing)
		errors = decode_to_file(a, &rec, &images, &symbols, &disasm);
	else
		errors = decode_to_profile(a, &rec, &images, &symbols);
	if (errors > 1)
		fprintf(stderr, "ntrace: %s: %ld decoding errors\n", a->input_path, errors);
done:
	free_elves(&elves);
	nt_disasm_free(&disasm);
	nt_symtab_free(&symbols);
	nt_images_free(&images);
	nt_perf_free(&rec);
	free(buf);
	return errors == 0 ? 0 : 1;
}
