// SPDX-License-Identifier: BSD-2-Clause
/* The ntrace commands (perf: cli_perf.c): file handling around the ntrace_tool.h core. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "ntrace_cli.h"

static int fail(const struct nt_err *err)
{
	fprintf(stderr, "ntrace: %s\n", err->msg);
	return 1;
}

/* Loads --elf and --raw images, then picks XLEN from the first ELF when
 * --xlen was not given. */
/* --elf number i: FILE[@ADDR], a FILE without @ADDR placed by the
 * sidecar's next-addr when its load image needs a place (loadmap.c). */
static int elf_spec(const struct cli_args *a, size_t i, struct nt_elf_spec *spec,
		    struct nt_err *err)
{
	int rc = nt_elf_spec_parse(a->elves.v[i], spec, err);

	if (rc == 0 && !spec->has_load && a->has_next_addr &&
	    nt_elf_spec_place_at_entry(spec, a->next_addr, err)) {
		nt_elf_spec_free(spec);
		rc = -1;
	}
	return rc;
}

static int load_images(struct cli_args *a, struct nt_image_set *set, struct nt_err *err)
{
	nt_images_init(set);
	for (size_t i = 0; i < a->elves.count; i++) {
		struct nt_elf_spec spec;
		int rc = elf_spec(a, i, &spec, err);

		if (rc == 0)
			rc = nt_images_add_elf_spec(set, &spec, err);
		nt_elf_spec_free(&spec);
		if (rc)
			return -1;
	}
	for (size_t i = 0; i < a->raws.count; i++)
		if (nt_images_add_raw(set, a->raws.v[i], err))
			return -1;
	if (!a->xlen_given && set->elf_class)
		a->cfg.xlen = (unsigned)set->elf_class;
	return 0;
}

/* The images and the .nex input of decode and stats; reports its own error.
 * `set` is initialised even on failure. */
static int load_inputs(struct cli_args *a, struct nt_image_set *set, uint8_t **nex, size_t *len)
{
	struct nt_err err = { "" };

	if (load_images(a, set, &err) || nt_read_file(a->input_path, nex, len, &err))
		return fail(&err);
	return 0;
}

static int write_file(const char *path, const void *data, size_t len, struct nt_err *err)
{
	FILE *f = fopen(path, "wb");
	if (!f) {
		nt_err_set(err, "%s: cannot create: %s", path, strerror(errno));
		return -1;
	}
	size_t done = fwrite(data, 1, len, f);
	if (fclose(f) != 0 || done != len) {
		nt_err_set(err, "%s: write error", path);
		return -1;
	}
	return 0;
}

int cli_encode(struct cli_args *a)
{
	struct nt_err err = { "" };
	struct nt_image_set images;
	struct nt_trace trace;
	struct nt_buf out = { 0 };
	uint8_t *text = NULL;
	size_t text_len = 0;
	int rc = 1;

	nt_trace_init(&trace);
	if (load_images(a, &images, &err))
		goto done;
	if (nt_read_file(a->trace_path, &text, &text_len, &err))
		goto done;
	if ((a->trace_is_pcseq ? nt_pcseq_parse : nt_pcs_parse)((const char *)text, text_len,
								  a->trace_path, &trace, &err))
		goto done;
	free(text);             /* the trace is parsed: its text is not needed */
	text = NULL;
	if (nt_encode_trace(&images, &trace, &a->cfg, a->trace_path, &out, NULL, &err))
		goto done;
	if (write_file(a->out_path, out.data, out.len, &err))
		goto done;
	rc = 0;
done:
	if (rc)
		fail(&err);
	free(text);
	nt_buf_free(&out);
	nt_trace_free(&trace);
	nt_images_free(&images);
	return rc;
}

/* The symbols of every --elf file (and with disasm, their disassembly). */
static int load_symbols(struct cli_args *a, struct nt_symtab *symbols, struct nt_disasm *disasm,
			struct nt_err *err)
{
	for (size_t i = 0; i < a->elves.count; i++) {
		struct nt_elf_spec spec;
		int rc = elf_spec(a, i, &spec, err);

		if (rc == 0)
			rc = nt_symtab_add_elf_spec(symbols, &spec, err);
		if (rc == 0 && disasm)
			rc = nt_disasm_add_elf_spec(disasm, a->objdump, &spec, err);
		nt_elf_spec_free(&spec);
		if (rc)
			return -1;
	}
	return 0;
}

/* After decoding errors: an ELF whose load image is mapped nowhere (no
 * @ADDR) may have run there too, as a kernel does before its MMU is on. */
static void load_image_hint(const struct cli_args *a)
{
	for (size_t i = 0; i < a->elves.count; i++) {
		struct nt_err err;
		struct nt_elf_spec spec;
		uint64_t paddr, vaddr;

		if (elf_spec(a, i, &spec, &err))
			continue;
		if (!spec.has_load && nt_elf_load_differs(spec.path, &paddr, &vaddr))
			fprintf(stderr, "%s: hint: %s has a load image (p_paddr 0x%" PRIx64 " for "
				"p_vaddr 0x%" PRIx64 ") that is not in the images: if its code also "
				"ran where a loader put that image (a kernel before its MMU is on), "
				"give --elf %s@LOADADDR (the firmware's banner line \"Next\" names "
				"it when the kernel was its next stage)\n", a->input_path, spec.path,
				paddr, vaddr,
				spec.path);
		nt_elf_spec_free(&spec);
	}
}

/* decode's output forms over one decoded stream. */
static long decode_as(struct cli_args *a, struct nt_image_set *images,
		      const struct nt_symtab *symbols, const struct nt_disasm *disasm,
		      const uint8_t *nex, size_t len, FILE *f, struct nt_err *err)
{
	struct nt_visitor v;
	long errors;

	if (a->listing) {
		struct nt_listing l = { f, symbols, disasm, false };

		nt_listing_visitor(&l, &v);
		errors = nt_decode_visit(&a->cfg, images, nex, len, &v, NULL, a->input_path,
					 stderr, err);
		if (errors >= 0 && l.write_error)
			errors = -1, nt_err_set(err, "%s: write error", a->out_path ? a->out_path : "stdout");
		return errors;
	}
	if (a->export_pcseq) {
		struct nt_pcseq_writer w = { .out = f, .images = images, .xlen = a->cfg.xlen };

		nt_pcseq_writer_visitor(&w, &v);
		errors = nt_decode_visit(&a->cfg, images, nex, len, &v, NULL, a->input_path,
					 stderr, err);
		nt_pcseq_writer_finish(&w);
		if (errors >= 0 && w.write_error)
			errors = -1, nt_err_set(err, "%s: write error", a->out_path ? a->out_path : "stdout");
		return errors;
	}
	if (a->symbols)
		return nt_decode_to_listing(&a->cfg, images, symbols, nex, len, f, NULL,
					    a->input_path, stderr, err);
	return nt_decode_to_text(&a->cfg, images, nex, len, f, NULL, a->input_path, stderr, err);
}

int cli_decode(struct cli_args *a)
{
	struct nt_err err = { "" };
	struct nt_image_set images;
	struct nt_symtab symbols;
	struct nt_disasm disasm;
	uint8_t *nex = NULL;
	size_t len = 0;
	int rc = 1;

	nt_symtab_init(&symbols);
	nt_disasm_init(&disasm);
	if (load_inputs(a, &images, &nex, &len))
		goto done;
	if ((a->symbols || a->listing) &&
	    load_symbols(a, &symbols, a->listing ? &disasm : NULL, &err)) {
		fail(&err);
		goto done;
	}
	FILE *f = a->out_path ? fopen(a->out_path, "w") : stdout;
	if (!f) {
		fprintf(stderr, "ntrace: %s: cannot create: %s\n", a->out_path, strerror(errno));
		goto done;
	}
	long errors = decode_as(a, &images, &symbols, &disasm, nex, len, f, &err);
	int close_rc;

	if (f == stdout)
		close_rc = fflush(f);
	else
		close_rc = fclose(f);
	if (errors < 0) {
		fail(&err);
		goto done;
	}
	if (close_rc != 0) {
		fprintf(stderr, "ntrace: %s: write error\n", a->out_path ? a->out_path : "stdout");
		goto done;
	}
	if (errors > 1)         /* one error is its own summary */
		fprintf(stderr, "ntrace: %s: %ld decoding errors\n", a->input_path, errors);
	if (errors)
		load_image_hint(a);
	rc = errors ? 1 : 0;
done:
	free(nex);
	nt_disasm_free(&disasm);
	nt_symtab_free(&symbols);
	nt_images_free(&images);
	return rc;
}

int cli_dump(struct cli_args *a)
{
	struct nt_err err = { "" };
	uint8_t *nex;
	size_t len;
	if (nt_read_file(a->input_path, &nex, &len, &err))
		return fail(&err);
	if (!a->src_bits_given) {
		a->cfg.src_bits = nt_detect_src_bits(&a->cfg, nex, len);
		a->cfg.src_bits_detected = true;
	}
	long bad = nt_dump_stream(&a->cfg, nex, len, stdout, a->input_path, stderr);
	free(nex);
	if (fflush(stdout) != 0)
		return 1;
	return bad ? 1 : 0;
}

int cli_stats(struct cli_args *a)
{
	struct nt_err err = { "" };
	struct nt_image_set images;
	uint8_t *nex = NULL;
	size_t len = 0;
	int rc = 1;

	if (load_inputs(a, &images, &nex, &len))
		goto done;
	if (!a->src_bits_given)
		a->cfg.src_bits = nt_detect_src_bits(&a->cfg, nex, len);
	struct nt_stream_stats st;
	nt_stream_stats(&a->cfg, nex, len, &st);
	printf("file: %s\n", a->input_path);
	printf("bytes: %" PRIu64 " (idle %" PRIu64 ")\n", st.bytes, st.idle_bytes);
	printf("src field bits: %u%s\n", a->cfg.src_bits,
	       a->src_bits_given ? "" : " (guessed: give --src-bits)");
	printf("messages: %" PRIu64 "\n", st.messages);
	for (unsigned t = 0; t < 64; t++)
		if (st.per_tcode[t])
			printf("  tcode %2u %-24s %10" PRIu64 "\n", t, ntrace_tcode_name(t),
			       st.per_tcode[t]);
	printf("malformed messages: %" PRIu64 "\n", st.malformed);
	long errors = 0;
	if (images.count) {
		struct ntrace_dec_stats ds;
		errors = nt_decode_stream(&a->cfg, &images, nex, len, NULL, &ds,
					  a->input_path, stderr, &err);
		if (errors < 0) {
			fail(&err);
			goto done;
		}
		printf("instructions: %" PRIu64 "\n", ds.instructions);
		printf("decoding errors: %ld\n", errors);
		if (ds.instructions)
			printf("bits per instruction: %.4f\n",
			       (double)st.bytes * 8.0 / (double)ds.instructions);
	}
	rc = st.malformed || errors ? 1 : 0;
done:
	free(nex);
	nt_images_free(&images);
	return rc;
}

/* Writes a report with fn to --out (or stdout); 0, or -1 with the message
 * printed. */
typedef int report_writer(const void *what, struct cli_args *a, FILE *f);

static int write_report(struct cli_args *a, report_writer *fn, const void *what)
{
	FILE *f = a->out_path ? fopen(a->out_path, "w") : stdout;

	if (!f) {
		fprintf(stderr, "ntrace: %s: cannot create: %s\n", a->out_path, strerror(errno));
		return -1;
	}
	if (fn(what, a, f) | (f == stdout ? fflush(f) : fclose(f))) {
		fprintf(stderr, "ntrace: %s: write error\n", a->out_path ? a->out_path : "stdout");
		return -1;
	}
	return 0;
}

/* The profile of one decoded stream in the form asked for. */
static int write_profile(const void *what, struct cli_args *a, FILE *f)
{
	const struct nt_profile *p = what;

	if (a->json)
		return nt_profile_write_json(p, f);
	if (a->folded)
		return nt_profile_write_folded(p, f);
	if (a->svg)
		return nt_profile_write_svg(p, f, a->input_path);
	return nt_profile_write_text(p, f, a->top);
}

int cli_write_profile(const struct nt_profile *p, struct cli_args *a)
{
	return write_report(a, write_profile, p);
}

int cli_profile(struct cli_args *a)
{
	struct nt_err err = { "" };
	struct nt_image_set images;
	struct nt_symtab symbols;
	struct nt_profile prof;
	struct nt_visitor v;
	uint8_t *nex = NULL;
	size_t len = 0;
	long errors = -1;

	nt_symtab_init(&symbols);
	memset(&prof, 0, sizeof(prof));
	if (load_inputs(a, &images, &nex, &len))
		goto done;
	if (load_symbols(a, &symbols, NULL, &err)) {
		fail(&err);
		goto done;
	}
	nt_symtab_keep_functions(&symbols);
	if (nt_profile_init(&prof, &images, &symbols, a->cfg.xlen)) {
		fprintf(stderr, "ntrace: out of memory\n");
		goto done;
	}
	nt_profile_visitor(&prof, &v);
	errors = nt_decode_visit(&a->cfg, &images, nex, len, &v, NULL, a->input_path, stderr, &err);
	if (errors < 0 || nt_profile_finish(&prof)) {
		if (errors >= 0)
			nt_err_set(&err, "%s: out of memory for the profile", a->input_path);
		fail(&err);
		errors = -1;
		goto done;
	}
	if (write_report(a, write_profile, &prof))
		errors = -1;
	if (errors > 0)
		fprintf(stderr, "ntrace: %s: %ld decoding error%s: the profile covers what "
			"decoded\n", a->input_path, errors, errors == 1 ? "" : "s");
done:
	free(nex);
	nt_profile_free(&prof);
	nt_symtab_free(&symbols);
	nt_images_free(&images);
	return errors == 0 ? 0 : 1;
}

/* "x.hart3.nex" -> 3; else the file's position. */
static unsigned hart_id(const char *path, unsigned position)
{
	const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	const char *h = strstr(base, "hart");

	if (h && h[4] >= '0' && h[4] <= '9')
		return (unsigned)strtoul(h + 4, NULL, 10);
	return position;
}

/* Decodes one hart's trace, with its own settings, into the timeline; the
 * decoding errors, or -1. */
static long timeline_hart(struct cli_args *a, struct nt_image_set *images, struct nt_timeline *t,
			  const struct cli_input *in, unsigned position)
{
	struct nt_err err = { "" };
	struct nt_tool_config cfg = in->cfg;
	struct nt_visitor v;
	uint8_t *nex;
	size_t len;

	if (!a->xlen_given)
		cfg.xlen = a->cfg.xlen;         /* from the ELF */
	if (nt_read_file(in->path, &nex, &len, &err))
		return fail(&err), -1;
	if (nt_timeline_add_hart(t, in->hart >= 0 ? (unsigned)in->hart : hart_id(in->path, position),
				 &v)) {
		free(nex);
		fprintf(stderr, "ntrace: out of memory\n");
		return -1;
	}
	if (in->timebase_hz && cfg.timestamp)
		nt_timeline_hart_clock(t, nt_tool_ts_ticks_per_second(in->tscontrol, in->timebase_hz));
	long errors = nt_decode_visit(&cfg, images, nex, len, &v, NULL, in->path, stderr, &err);

	free(nex);
	if (errors < 0)
		fail(&err);
	else if (errors > 1)
		fprintf(stderr, "ntrace: %s: %ld decoding errors\n", in->path, errors);
	return errors;
}

static int write_timeline(const void *what, struct cli_args *a, FILE *f)
{
	return a->svg ? nt_timeline_write_svg(what, f) : nt_timeline_write_text(what, f);
}

int cli_timeline(struct cli_args *a)
{
	struct nt_err err = { "" };
	struct nt_image_set images;
	struct nt_symtab symbols;
	struct nt_timeline t;
	long errors = 0;

	nt_symtab_init(&symbols);
	nt_timeline_init(&t, &symbols);
	if (load_images(a, &images, &err) || load_symbols(a, &symbols, NULL, &err)) {
		fail(&err);
		errors = -1;
		goto done;
	}
	for (size_t i = 0; i < a->inputs.count && errors >= 0; i++) {
		long e = timeline_hart(a, &images, &t, &a->in[i], (unsigned)i);

		errors = e < 0 ? -1 : errors + e;
	}
	if (errors < 0)
		goto done;
	if (t.oom) {
		fprintf(stderr, "ntrace: out of memory for the timeline\n");
		errors = -1;
		goto done;
	}
	if (write_report(a, write_timeline, &t))
		errors = -1;
done:
	nt_timeline_free(&t);
	nt_symtab_free(&symbols);
	nt_images_free(&images);
	return errors == 0 ? 0 : 1;
}
