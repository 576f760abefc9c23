// SPDX-License-Identifier: BSD-2-Clause
/*
 * `ntrace perf` (tools/ntrace/perfrec.c, cli_perf.c) on tsbi-record
 * recordings built here: the header with its perf_event_attr, then COMM,
 * MMAP2, ITRACE_START and PERF_RECORD_AUX records whose bytes are N-Trace
 * from the project's encoder (lib/ntrace through the tool's encode path,
 * with the registers written out by hand) for tiny.S's instructions, run as
 * a position-independent program at a load bias.  Checked: the decoded
 * instructions of every segment, the settings attr.config gives, where
 * MMAP2 places an ET_DYN file (and that an ET_EXEC file stays put), the
 * listing's segment lines, every malformation named by its byte, and the
 * command line.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <gelf.h>
#include <inttypes.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ntrace_tool.h"
#include "recording.h"
#include "lib/tci/tci_spec.h"
#include "test_ntrace_tool.h"

#define CLI_TOOL NT_TEST_TOOL
#define CLI_TMP_TEMPLATE "/tmp/nt-perf-XXXXXX"
#include "test_tool_cli.h"

#define TINY_ELF NT_TEST_BUILD "/tiny.elf"
#define PIE_ELF NT_TEST_BUILD "/tiny-pie.elf"
#define TINY_PCS NT_TEST_DATA "/tiny.pcs"
#define TINY_BASE ((uint64_t)0x80000000)        /* tiny.elf's _start (-Ttext) */

#define PID 42
#define TID 43
#define BIAS ((uint64_t)0x2aaaab0000)           /* where "the loader" put tiny-pie.elf */
#define ATTR_SIZE 128                   /* Linux 6.1's perf_event_attr */
#define NCPUS 2
#define HEADER_SIZE 160                 /* 20 + 128 + 4 + 4 * NCPUS, a multiple of 8 */
#define SEG_B_LINES 11                  /* the second segment: tiny's first 11 instructions */

/* ---- a recording in memory ---------------------------------------------------- */

struct rbuf {
	uint8_t *v;
	size_t len, cap;
};

static void put(struct rbuf *b, const void *p, size_t n)
{
	if (b->len + n > b->cap) {
		b->cap = (b->len + n) * 2 + 256;
		b->v = realloc(b->v, b->cap);
		assert_non_null(b->v);
	}
	memcpy(b->v + b->len, p, n);
	b->len += n;
}

static void store_le(uint8_t *p, uint64_t v, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static void put_le(struct rbuf *b, uint64_t v, unsigned n)
{
	uint8_t bytes[8];

	store_le(bytes, v, n);
	put(b, bytes, n);
}

static void pad8(struct rbuf *b)
{
	while (b->len % 8)
		put_le(b, 0, 1);
}

/* The header of a recording of the tracesbi_trace event with config. */
static void put_header(struct rbuf *b, uint64_t config)
{
	uint8_t attr[ATTR_SIZE] = { 0 };
	uint64_t flags = TSBIREC_FLAG_DISABLED | TSBIREC_FLAG_ENABLE_ON_EXEC | TSBIREC_FLAG_COMM |
			 TSBIREC_FLAG_MMAP | TSBIREC_FLAG_MMAP2 | TSBIREC_FLAG_TASK |
			 TSBIREC_FLAG_CONTEXT_SWITCH | TSBIREC_FLAG_SAMPLE_ID_ALL;

	store_le(attr + TSBIREC_ATTR_TYPE, 14, 4);
	store_le(attr + TSBIREC_ATTR_SIZE, ATTR_SIZE, 4);
	store_le(attr + TSBIREC_ATTR_CONFIG, config, 8);
	store_le(attr + TSBIREC_ATTR_SAMPLE_TYPE, TSBIREC_SAMPLE_NEEDED, 8);
	store_le(attr + TSBIREC_ATTR_FLAGS, flags, 8);
	put(b, TSBIREC_MAGIC, TSBIREC_MAGIC_LEN);
	put_le(b, HEADER_SIZE, 4);
	put_le(b, TSBIREC_VERSION, 4);
	put_le(b, ATTR_SIZE, 4);
	put(b, attr, sizeof(attr));
	put_le(b, NCPUS, 4);
	put_le(b, 5, 4);                        /* cpu 0 is hart 5 */
	put_le(b, TSBIREC_HART_UNKNOWN, 4);
	pad8(b);
	assert_int_equal(b->len, HEADER_SIZE);
}

static size_t begin_record(struct rbuf *b, uint32_t type)
{
	size_t at = b->len;

	put_le(b, type, 4);
	put_le(b, 0, 2);
	put_le(b, 0, 2);                        /* the size, when it is known */
	return at;
}

/* sample_id (TID, TIME, CPU), then the record's size. */
static void end_record(struct rbuf *b, size_t at, uint32_t cpu, uint64_t time)
{
	put_le(b, PID, 4);
	put_le(b, TID, 4);
	put_le(b, time, 8);
	put_le(b, cpu, 4);
	put_le(b, 0, 4);
	store_le(b->v + at + 6, b->len - at, 2);
}

static void put_name(struct rbuf *b, const char *name)
{
	put(b, name, strlen(name) + 1);
	pad8(b);
}

static size_t put_comm(struct rbuf *b, const char *comm)
{
	size_t at = begin_record(b, TSBIREC_COMM);

	put_le(b, PID, 4);
	put_le(b, TID, 4);
	put_name(b, comm);
	end_record(b, at, 0, 900);
	return at;
}

static size_t put_mmap2(struct rbuf *b, uint64_t addr, uint64_t pgoff, uint32_t prot,
			const char *file)
{
	size_t at = begin_record(b, TSBIREC_MMAP2);

	put_le(b, PID, 4);
	put_le(b, PID, 4);
	put_le(b, addr, 8);
	put_le(b, 0x1000, 8);
	put_le(b, pgoff, 8);
	put_le(b, 8, 4);                        /* maj, min, ino, ino_generation */
	put_le(b, 1, 4);
	put_le(b, 1234, 8);
	put_le(b, 0, 8);
	put_le(b, prot, 4);
	put_le(b, 2, 4);                        /* MAP_PRIVATE */
	put_name(b, file);
	end_record(b, at, 0, 910);
	return at;
}

static size_t put_itrace_start(struct rbuf *b)
{
	size_t at = begin_record(b, TSBIREC_ITRACE_START);

	put_le(b, PID, 4);
	put_le(b, TID, 4);
	end_record(b, at, 0, 950);
	return at;
}

static size_t put_aux(struct rbuf *b, uint64_t offset, const uint8_t *bytes, size_t n,
		      uint64_t flags, uint32_t cpu, uint64_t time)
{
	size_t at = begin_record(b, TSBIREC_AUX);

	put_le(b, offset, 8);
	put_le(b, n, 8);
	put_le(b, flags, 8);
	end_record(b, at, cpu, time);
	put(b, bytes, n);
	pad8(b);
	return at;
}

static size_t put_lost(struct rbuf *b, uint64_t lost)
{
	size_t at = begin_record(b, TSBIREC_LOST);

	put_le(b, 7, 8);
	put_le(b, lost, 8);
	end_record(b, at, 1, 2500);
	return at;
}

/* ---- the traces ----------------------------------------------------------------- */

/* The first `lines` lines of tiny.pcs, moved from tiny.elf's addresses to
 * base, canonical; with priv, each with the privilege token U (the encoder
 * then goes through the firmware's qualified ingress). */
static char *moved_pcs(size_t lines, uint64_t base, bool priv)
{
	char *text = NULL, line[80];
	size_t len = 0, done = 0;
	FILE *in = fopen(TINY_PCS, "r"), *out = open_memstream(&text, &len);

	assert_non_null(in);
	assert_non_null(out);
	while (done < lines && fgets(line, sizeof(line), in)) {
		char *end;
		uint64_t pc = strtoull(line, &end, 16);
		bool exc = strncmp(end, " exc", 4) == 0;

		fprintf(out, "%" PRIx64 "%s%s\n", pc - TINY_BASE + base, exc ? " exc" : "",
			priv ? " U" : "");
		done++;
	}
	assert_int_equal(done, lines);
	fclose(in);
	fclose(out);
	return text;
}

/* tiny-pie.elf: its entry point (_start, where tiny.S begins), and its
 * first PT_LOAD (file offset 0 at vaddr 0) as raw bytes at BIAS: the
 * encoder's images, made without the placement under test. */
static uint64_t pie_entry(struct nt_image_set *at_bias)
{
	uint8_t *file;
	size_t len;
	struct nt_err err;
	GElf_Ehdr eh;
	GElf_Phdr ph;

	if (nt_read_file(PIE_ELF, &file, &len, &err))
		fail_msg("%s", err.msg);
	Elf *elf = nt_elf_open(file, len, PIE_ELF, &err);
	assert_non_null(elf);
	assert_non_null(gelf_getehdr(elf, &eh));
	assert_int_equal(eh.e_type, ET_DYN);
	for (int i = 0; gelf_getphdr(elf, i, &ph) && ph.p_type != PT_LOAD; i++)
		;
	assert_int_equal(ph.p_type, PT_LOAD);
	assert_int_equal(ph.p_offset, 0);
	assert_int_equal(ph.p_vaddr, 0);
	if (at_bias) {
		nt_images_init(at_bias);
		assert_int_equal(nt_images_add_bytes(at_bias, file, ph.p_filesz, BIAS, "pie@bias", &err), 0);
	}
	elf_end(elf);
	free(file);
	return eh.e_entry;
}

/* The encoder's settings, from registers written out by hand. */
static struct nt_tool_config encoder_config(uint32_t control, uint32_t features, uint32_t ts)
{
	struct nt_tool_config cfg;
	struct nt_err err;

	nt_tool_config_default(&cfg);
	if (nt_tool_config_from_tci(&cfg, control, features, ts, &err))
		fail_msg("%s", err.msg);
	return cfg;
}

static void encode(struct nt_image_set *images, const char *pcs, const struct nt_tool_config *cfg,
		   struct nt_buf *out)
{
	struct nt_trace t;
	struct nt_records recs;
	struct nt_err err;

	nt_trace_init(&t);
	if (nt_pcs_parse(pcs, strlen(pcs), "seg.pcs", &t, &err) ||
	    nt_records_from_trace(images, &t, cfg, "seg.pcs", &recs, &err) ||
	    nt_encode_records(cfg, &recs, out, NULL, &err))
		fail_msg("%s", err.msg);
	nt_records_free(&recs);
	nt_trace_free(&t);
}

/* What a test's recording holds: the bytes, where its records are, and
 * the instructions its segments decode to. */
struct recording {
	struct rbuf b;
	size_t aux_at[2];
	char *expected;                 /* canonical .pcs of both segments */
	size_t instructions;
};

static void recording_free(struct recording *r)
{
	free(r->b.v);
	free(r->expected);
}

#define HTM_CONTROL (TRTE_ACTIVE | TRTE_ENABLE | TRTE_INST_TRACING | \
		     TRTE_INST_MODE_OPTIMIZED << TRTE_INST_MODE_SHIFT | TRTE_INHIBIT_SRC | \
		     TRTE_FORMAT_NTRACE << TRTE_FORMAT_SHIFT)
#define BTM_CONTROL (TRTE_ACTIVE | TRTE_ENABLE | TRTE_INST_TRACING | \
		     TRTE_INST_MODE_BASELINE << TRTE_INST_MODE_SHIFT | TRTE_INHIBIT_SRC | \
		     TRTE_FORMAT_NTRACE << TRTE_FORMAT_SHIFT)
#define FEATURES_RESET (3u << TRTE_INST_IMPLICIT_RETURN_MODE_SHIFT)
#define TS_ON (TRTS_ACTIVE | TRTS_ENABLE | TRTS_MODE_INTERNAL_SYSTEM << TRTS_MODE_SHIFT)

/*
 * tiny as a PIE at BIAS in process PID: COMM, a data mapping and the
 * executable one (MMAP2), ITRACE_START, then two AUX records: all of tiny
 * on CPU 0, its first SEG_B_LINES instructions on CPU 1 (truncated), both
 * encoded with the registers given (what `config` must stand for).
 * mmap_name: the mapped file's name (NULL: no MMAP2 at all).
 */
static void make_recording(struct recording *r, uint64_t config, const struct nt_tool_config *enc,
			   const char *mmap_name)
{
	struct nt_image_set images;
	uint64_t entry = pie_entry(&images);
	char *a = moved_pcs(30, BIAS + entry, true), *b = moved_pcs(SEG_B_LINES, BIAS + entry, true);
	char *ea = moved_pcs(30, BIAS + entry, false), *eb = moved_pcs(SEG_B_LINES, BIAS + entry, false);
	struct nt_buf na = { 0 }, nb = { 0 };

	memset(r, 0, sizeof(*r));
	encode(&images, a, enc, &na);
	encode(&images, b, enc, &nb);
	put_header(&r->b, config);
	put_comm(&r->b, "tiny-pie.elf");
	if (mmap_name) {
		put_mmap2(&r->b, BIAS + 0x1000, 0, 3, mmap_name);      /* rw-: not the code */
		put_mmap2(&r->b, BIAS, 0, 5, mmap_name);               /* r-x */
	}
	put_itrace_start(&r->b);
	r->aux_at[0] = put_aux(&r->b, 0, na.data, na.len, 0, 0, 1000);
	r->aux_at[1] = put_aux(&r->b, na.len, nb.data, nb.len, TSBIREC_AUX_TRUNCATED, 1, 2000);
	r->expected = malloc(strlen(ea) + strlen(eb) + 1);
	assert_non_null(r->expected);
	strcpy(r->expected, ea);
	strcat(r->expected, eb);
	r->instructions = 30 + SEG_B_LINES;
	free(a);
	free(b);
	free(ea);
	free(eb);
	nt_buf_free(&na);
	nt_buf_free(&nb);
	nt_images_free(&images);
}

static void parse_ok(const struct recording *r, struct nt_perf_recording *p)
{
	struct nt_err err;

	if (nt_perf_parse(r->b.v, r->b.len, "t.rec", p, &err))
		fail_msg("%s", err.msg);
}

/* The file at path placed for the recording's traced process, into images
 * (and symbols). */
static void place(const struct nt_perf_recording *p, const char *path, struct nt_elf_spec *spec,
		  struct nt_image_set *images, struct nt_symtab *symbols)
{
	struct nt_err err;
	uint32_t pid = 0;

	assert_true(nt_perf_traced_pid(p, &pid));
	assert_int_equal(pid, PID);
	assert_int_equal(nt_elf_spec_parse(path, spec, &err), 0);
	if (nt_perf_place_elf(p, pid, spec, "t.rec", &err))
		fail_msg("%s", err.msg);
	nt_images_init(images);
	if (nt_images_add_elf_spec(images, spec, &err) ||
	    (symbols && nt_symtab_add_elf_spec(symbols, spec, &err)))
		fail_msg("%s", err.msg);
}

/* Every segment's instructions as canonical .pcs; *errors: decoding errors
 * (reported on diag). */
static char *decode_pcs(const struct recording *r, const char *elf, long *errors, FILE *diag)
{
	struct nt_perf_recording p;
	struct nt_tool_config cfg;
	struct nt_elf_spec spec;
	struct nt_image_set images;
	struct nt_err err;
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	struct nt_perf_output out = { .pcs = f };

	parse_ok(r, &p);
	nt_tool_config_default(&cfg);
	assert_int_equal(nt_perf_config(&p, &cfg, &err), 0);
	place(&p, elf, &spec, &images, NULL);
	*errors = nt_perf_decode(&p, &cfg, &images, &out, "t.rec", diag, &err);
	if (*errors < 0)
		fail_msg("%s", err.msg);
	fclose(f);
	nt_elf_spec_free(&spec);
	nt_images_free(&images);
	nt_perf_free(&p);
	return text;
}

/* ---- decoding ------------------------------------------------------------------------ */

static void two_aux_records_decode_to_their_instructions(void **state)
{
	struct nt_tool_config enc = encoder_config(HTM_CONTROL | TRTE_CONTEXT,
						   FEATURES_RESET | TRTE_INST_EN_IMPLICIT_RETURN, TS_ON);
	struct recording r;
	long errors;

	(void)state;
	make_recording(&r, TSBI_CFG_IMPLICITRET | TSBI_CFG_TS | TSBI_CFG_CTX, &enc, "/bin/tiny-pie.elf");
	char *text = decode_pcs(&r, PIE_ELF, &errors, stderr);

	assert_int_equal(errors, 0);
	assert_string_equal(text, r.expected);
	free(text);
	recording_free(&r);
}

static void btm_with_sequential_jumps_and_repeats(void **state)
{
	struct nt_tool_config enc = encoder_config(BTM_CONTROL | 1u << TRTE_INST_SYNC_MODE_SHIFT,
						   FEATURES_RESET | TRTE_INST_EN_SEQUENTIAL_JUMP |
						   TRTE_INST_EN_REPEATED_HISTORY, 0);
	struct recording r;
	long errors;

	(void)state;
	make_recording(&r, TSBI_CFG_BTM | TSBI_CFG_SEQJUMP | TSBI_CFG_REPEAT |
		       1ull << TSBI_CFG_SYNC_SHIFT, &enc, "/usr/bin/tiny-pie.elf");
	char *text = decode_pcs(&r, PIE_ELF, &errors, stderr);

	assert_int_equal(errors, 0);
	assert_string_equal(text, r.expected);
	free(text);
	recording_free(&r);
}

/* The same bytes decoded as HTM when they are BTM: the settings come from
 * attr.config, so a wrong config is a wrong decode (the test above could
 * not fail otherwise). */
static void the_settings_are_those_of_attr_config(void **state)
{
	struct nt_tool_config enc = encoder_config(BTM_CONTROL, FEATURES_RESET, 0);
	struct recording r;
	long errors;

	(void)state;
	char *diag = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&diag, &len);

	make_recording(&r, 0 /* says HTM */, &enc, "tiny-pie.elf");
	char *text = decode_pcs(&r, PIE_ELF, &errors, f);

	fclose(f);
	assert_true(errors > 0);
	assert_string_not_equal(text, r.expected);
	assert_non_null(strstr(diag, "t.rec: segment 0: hint: the stream has 3 DirectBranch "
				     "messages, which only BTM sends, but the settings say HTM "
				     "(settings from the recording's attr.config); the PMU's format "
				     "terms and linux-trace/recording.h must agree\n"));
	free(diag);
	free(text);
	recording_free(&r);
}

static void config_terms_become_the_encoder_registers(void **state)
{
	struct nt_perf_recording p = { 0 };
	struct nt_tool_config cfg;
	struct nt_err err;

	(void)state;
	nt_tool_config_default(&cfg);
	p.config = TSBI_CFG_BTM | TSBI_CFG_SEQJUMP | TSBI_CFG_IMPLICITRET | TSBI_CFG_REPEAT |
		   TSBI_CFG_ALLJUMPS | TSBI_CFG_EXTADDR | TSBI_CFG_TS | TSBI_CFG_CTX |
		   1ull << TSBI_CFG_SYNC_SHIFT | 5ull << TSBI_CFG_SYNCMAX_SHIFT;
	assert_int_equal(nt_perf_config(&p, &cfg, &err), 0);
	assert_int_equal(cfg.mode, NT_TOOL_BTM);
	assert_true(cfg.mode_set && cfg.seq_jump && cfg.repeat_branch && cfg.all_jumps &&
		    cfg.ext_addr && cfg.timestamp && cfg.context);
	assert_int_equal(cfg.implicit_return_mode, 3);
	assert_int_equal(cfg.callstack, 32);
	assert_int_equal(cfg.sync_mode, 1);
	assert_int_equal(cfg.sync_max, 5);
	assert_int_equal(cfg.src_bits, 0);
	assert_int_equal(cfg.xlen, 64);

	p.config = 0;
	assert_int_equal(nt_perf_config(&p, &cfg, &err), 0);
	assert_int_equal(cfg.mode, NT_TOOL_HTM);
	assert_false(cfg.seq_jump || cfg.repeat_history || cfg.all_jumps || cfg.ext_addr ||
		     cfg.timestamp || cfg.context);
	assert_int_equal(cfg.implicit_return_mode, 0);
	assert_int_equal(cfg.callstack, 0);
	assert_int_equal(cfg.sync_mode, 0);
}

/* ---- placement ------------------------------------------------------------------------ */

static void pie_goes_where_its_executable_mapping_says(void **state)
{
	struct nt_tool_config enc = encoder_config(HTM_CONTROL, FEATURES_RESET, 0);
	struct recording r;
	struct nt_perf_recording p;
	struct nt_elf_spec spec;
	struct nt_image_set images;
	uint64_t avail;

	(void)state;
	make_recording(&r, 0, &enc, "/lib/x/tiny-pie.elf");
	parse_ok(&r, &p);
	place(&p, PIE_ELF, &spec, &images, NULL);
	assert_true(spec.moved);
	assert_int_equal(spec.bias, BIAS);      /* not the rw- mapping's BIAS + 0x1000 */
	assert_non_null(nt_images_lookup(&images, BIAS + pie_entry(NULL), &avail));
	assert_null(nt_images_lookup(&images, pie_entry(NULL), &avail));  /* not at its link address */
	nt_elf_spec_free(&spec);
	nt_images_free(&images);
	nt_perf_free(&p);
	recording_free(&r);
}

static void static_program_stays_at_its_addresses(void **state)
{
	struct nt_tool_config enc = encoder_config(HTM_CONTROL, FEATURES_RESET, 0);
	struct recording r;
	struct nt_perf_recording p;
	struct nt_elf_spec spec;
	struct nt_image_set images;
	uint64_t avail;

	(void)state;
	make_recording(&r, 0, &enc, "tiny.elf");        /* an MMAP2 of it, somewhere else */
	parse_ok(&r, &p);
	place(&p, TINY_ELF, &spec, &images, NULL);
	assert_false(spec.moved);
	assert_non_null(nt_images_lookup(&images, TINY_BASE, &avail));
	nt_elf_spec_free(&spec);
	nt_images_free(&images);
	nt_perf_free(&p);
	recording_free(&r);
}

static void pie_without_its_mapping_cannot_be_placed(void **state)
{
	struct nt_tool_config enc = encoder_config(HTM_CONTROL, FEATURES_RESET, 0);
	struct recording r;
	struct nt_perf_recording p;
	struct nt_elf_spec spec;
	struct nt_err err;

	(void)state;
	make_recording(&r, 0, &enc, "/bin/other");
	parse_ok(&r, &p);
	assert_int_equal(nt_elf_spec_parse(PIE_ELF, &spec, &err), 0);
	assert_int_equal(nt_perf_place_elf(&p, PID, &spec, "t.rec", &err), -1);
	assert_non_null(strstr(err.msg, "position-independent (ET_DYN), and no executable "
				      "PERF_RECORD_MMAP2 of pid 42 in t.rec maps a file named "
				      "tiny-pie.elf (the process's: other)"));
	nt_elf_spec_free(&spec);
	nt_perf_free(&p);
	recording_free(&r);
}

static void mapping_no_segment_starts_in_is_named(void **state)
{
	struct rbuf b = { 0 };
	struct nt_perf_recording p;
	struct nt_elf_spec spec;
	struct nt_err err;
	size_t at;

	(void)state;
	put_header(&b, 0);
	at = put_mmap2(&b, BIAS, 0x7000, 5, "tiny-pie.elf");
	assert_int_equal(nt_perf_parse(b.v, b.len, "t.rec", &p, &err), 0);
	assert_int_equal(nt_elf_spec_parse(PIE_ELF, &spec, &err), 0);
	assert_int_equal(nt_perf_place_elf(&p, PID, &spec, "t.rec", &err), -1);
	char want[128];
	snprintf(want, sizeof(want), "PERF_RECORD_MMAP2 at byte %zu of t.rec maps tiny-pie.elf from "
		 "file offset 0x7000", at);
	assert_non_null(strstr(err.msg, want));
	nt_elf_spec_free(&spec);
	nt_perf_free(&p);
	free(b.v);
}

/* ---- the listing ------------------------------------------------------------------------ */

static void listing_header(void *ctx, size_t k, const struct nt_perf_record *aux)
{
	char line[256];

	assert_true(nt_perf_segment_header(line, sizeof(line), k, aux) > 0);
	fputs(line, ((struct nt_listing *)ctx)->out);
}

static void listing_has_a_line_per_segment(void **state)
{
	struct nt_tool_config enc = encoder_config(HTM_CONTROL, FEATURES_RESET, 0), cfg;
	struct recording r;
	struct nt_perf_recording p;
	struct nt_elf_spec spec;
	struct nt_image_set images;
	struct nt_symtab symbols;
	struct nt_err err;
	struct nt_visitor v;
	char *text = NULL, want[160];
	size_t len = 0;

	(void)state;
	make_recording(&r, 0, &enc, "tiny-pie.elf");
	parse_ok(&r, &p);
	nt_tool_config_default(&cfg);
	assert_int_equal(nt_perf_config(&p, &cfg, &err), 0);
	nt_symtab_init(&symbols);
	place(&p, PIE_ELF, &spec, &images, &symbols);
	FILE *f = open_memstream(&text, &len);
	struct nt_listing l = { f, &symbols, NULL, false };
	struct nt_perf_output out = { .visit = &v, .begin = listing_header, .ctx = &l };

	nt_listing_visitor(&l, &v);
	assert_int_equal(nt_perf_decode(&p, &cfg, &images, &out, "t.rec", stderr, &err), 0);
	fclose(f);
	snprintf(want, sizeof(want), "# segment 0: cpu 0 pid %d tid %d time 1000, %zu bytes\n"
		 "-- trace sync (SYNC=5) at %" PRIx64 " _start+0x0\n", PID, TID,
		 p.v[4].aux_size, BIAS + pie_entry(NULL));
	assert_non_null(strstr(text, want));
	assert_true(strstr(text, want) == text);
	snprintf(want, sizeof(want), "\n# segment 1: cpu 1 pid %d tid %d time 2000, %zu bytes, "
		 "truncated\n", PID, TID, p.v[5].aux_size);
	assert_non_null(strstr(text, want));
	snprintf(want, sizeof(want), "%10" PRIx64 "  _start+0x0  ", BIAS + pie_entry(NULL));
	assert_non_null(strstr(text, want));    /* its symbols moved with it */
	assert_non_null(strstr(text, "leaf+0x"));
	free(text);
	nt_symtab_free(&symbols);
	nt_elf_spec_free(&spec);
	nt_images_free(&images);
	nt_perf_free(&p);
	recording_free(&r);
}

/* ---- the file's checks ------------------------------------------------------------------ */

/* A small recording: COMM, MMAP2, ITRACE_START, LOST, AUX (5 bytes). */
struct small {
	struct rbuf b;
	size_t comm, mmap2, itrace, lost, aux;
	size_t ends[6];                 /* where the header and each record end */
};

static void make_small(struct small *s)
{
	static const uint8_t bytes[5] = { 1, 2, 3, 4, 5 };

	memset(s, 0, sizeof(*s));
	put_header(&s->b, 0);
	s->ends[0] = s->b.len;
	s->comm = put_comm(&s->b, "tiny-pie.elf");
	s->ends[1] = s->b.len;
	s->mmap2 = put_mmap2(&s->b, BIAS, 0, 5, "/bin/tiny-pie.elf");
	s->ends[2] = s->b.len;
	s->itrace = put_itrace_start(&s->b);
	s->ends[3] = s->b.len;
	s->lost = put_lost(&s->b, 3);
	s->ends[4] = s->b.len;
	s->aux = put_aux(&s->b, 0, bytes, sizeof(bytes), 0, 1, 3000);
	s->ends[5] = s->b.len;
}

/* The parse of buf fails with "t.rec: byte AT: " then want. */
static void rejected(const uint8_t *buf, size_t len, size_t at, const char *want)
{
	struct nt_perf_recording p;
	struct nt_err err;
	char prefix[64];

	assert_int_equal(nt_perf_parse(buf, len, "t.rec", &p, &err), -1);
	snprintf(prefix, sizeof(prefix), "t.rec: byte %zu: ", at);
	if (strncmp(err.msg, prefix, strlen(prefix)) != 0 || !strstr(err.msg, want))
		fail_msg("got '%s', wanted '%s%s...'", err.msg, prefix, want);
}

static void small_recording_parses(void **state)
{
	struct small s;
	struct nt_perf_recording p;
	struct nt_err err;

	(void)state;
	make_small(&s);
	assert_int_equal(nt_perf_parse(s.b.v, s.b.len, "t.rec", &p, &err), 0);
	assert_int_equal(p.count, 5);
	assert_int_equal(p.ncpus, NCPUS);
	assert_int_equal(p.hart[0], 5);
	assert_int_equal(p.hart[1], TSBIREC_HART_UNKNOWN);
	assert_string_equal(p.v[0].name, "tiny-pie.elf");
	assert_string_equal(p.v[1].name, "/bin/tiny-pie.elf");
	assert_int_equal(p.v[1].addr, BIAS);
	assert_int_equal(p.v[1].prot, 5);
	assert_int_equal(p.v[2].pid, PID);
	assert_int_equal(p.v[3].lost, 3);
	assert_int_equal(p.lost, 3);
	assert_int_equal(p.segments, 1);
	assert_int_equal(p.v[4].aux_size, 5);
	assert_int_equal(p.v[4].aux_at, s.aux + TSBIREC_AUX_BODY + 24);
	assert_int_equal(p.v[4].aux[4], 5);
	assert_int_equal(p.v[4].id.cpu, 1);
	assert_int_equal(p.v[4].id.time, 3000);
	assert_int_equal(p.v[4].id.tid, TID);
	nt_perf_free(&p);
	free(s.b.v);
}

static void truncated_header_is_named(void **state)
{
	struct small s;

	(void)state;
	make_small(&s);
	rejected(s.b.v, 0, 0, "the file ends inside the magic (8 bytes needed, 0 left)");
	rejected(s.b.v, 10, 8, "the file ends inside the header size (4 bytes needed, 2 left)");
	rejected(s.b.v, 100, 20, "the file ends inside the perf_event_attr (128 bytes needed, 80 left)");
	rejected(s.b.v, 150, 148, "the file ends inside the number of CPUs (4 bytes needed, 2 left)");
	rejected(s.b.v, 155, 152, "the file ends inside the CPUs' hart IDs (8 bytes needed, 3 left)");
	free(s.b.v);
}

/* A copy of the small recording with the n-byte field at `at` set to v. */
static void rejected_with(size_t at, unsigned n, uint64_t v, size_t err_at, const char *want)
{
	struct small s;

	make_small(&s);
	store_le(s.b.v + at, v, n);
	rejected(s.b.v, s.b.len, err_at, want);
	free(s.b.v);
}

static void bad_header_fields_are_named(void **state)
{
	(void)state;
	rejected_with(0, 1, 'X', 0, "bad magic: not a tsbi-record recording");
	rejected_with(TSBIREC_OFF_VERSION, 4, 2, 12, "version 2: this reader knows version 1");
	rejected_with(TSBIREC_OFF_ATTR_SIZE, 4, 8, 16, "attr size 8: not 64..4096");
	rejected_with(TSBIREC_OFF_ATTR + TSBIREC_ATTR_SIZE, 4, 120, 24,
		      "attr.size 120 is not the header's attr size 128");
	rejected_with(TSBIREC_OFF_ATTR + TSBIREC_ATTR_CONFIG, 8, 1ull << 40, 28,
		      "attr.config 0x10000000000: bits 0x10000000000 are none of the tracesbi_trace");
	rejected_with(TSBIREC_OFF_ATTR + TSBIREC_ATTR_CONFIG, 8, 5ull << TSBI_CFG_SYNC_SHIFT, 28,
		      "sync 5, but trTeInstSyncMode is 0..3");
	rejected_with(TSBIREC_OFF_ATTR + TSBIREC_ATTR_SAMPLE_TYPE, 8,
		      TSBIREC_SAMPLE_TID | TSBIREC_SAMPLE_TIME, 44, "lacks PERF_SAMPLE_TID, TIME or CPU");
	rejected_with(TSBIREC_OFF_ATTR + TSBIREC_ATTR_FLAGS, 8, TSBIREC_FLAG_MMAP2, 60,
		      "sample_id_all is off");
	rejected_with(TSBIREC_OFF_ATTR + ATTR_SIZE, 4, 0, 148, "0 CPUs: not 1..4096");
	rejected_with(TSBIREC_OFF_HEADER_SIZE, 4, 168, 8,
		      "header size 168, but its attr and 2 CPUs make it 160");
}

static void bad_records_are_named(void **state)
{
	struct small s;
	char want[160];

	(void)state;
	make_small(&s);
	rejected_with(s.comm + 6, 2, 0, s.comm, "a record (type 3) of size 0: smaller than its "
		      "8-byte header");
	rejected_with(s.comm + 6, 2, 12, s.comm, "a record (type 3) of size 12: not a multiple of 8");
	snprintf(want, sizeof(want), "a PERF_RECORD_COMM of 65528 bytes runs past the end of the "
		 "file (%zu bytes left)", s.b.len - s.comm);
	rejected_with(s.comm + 6, 2, 65528, s.comm, want);
	/* the AUX record says more bytes than the file has after it */
	snprintf(want, sizeof(want), "the 1000 AUX bytes of the PERF_RECORD_AUX at byte %zu run "
		 "past the end of the file (8 bytes left)", s.aux);
	rejected_with(s.aux + 16, 8, 1000, s.aux + TSBIREC_AUX_BODY + 24, want);
	/* an AUX record too short for its fields and sample_id */
	rejected_with(s.aux + 6, 2, 24, s.aux, "a PERF_RECORD_AUX of 24 bytes: too short for its "
		      "fields and sample_id (56 bytes at least)");
	/* a comm without its NUL */
	snprintf(want, sizeof(want), "the name in the PERF_RECORD_COMM at byte %zu has no "
		 "terminating NUL", s.comm);
	rejected_with(s.comm + 16 + 12, 4, 0x61616161, s.comm + 16, want);
	/* the file ends inside a record header, and inside the AUX bytes' padding */
	uint8_t *more = malloc(s.b.len + 3);
	assert_non_null(more);
	memcpy(more, s.b.v, s.b.len);
	memset(more + s.b.len, 0, 3);
	rejected(more, s.b.len + 3, s.b.len, "the file ends inside a record's header (8 bytes "
		 "needed, 3 left)");
	free(more);
	snprintf(want, sizeof(want), "the file ends inside the padding after the AUX bytes of the "
		 "PERF_RECORD_AUX at byte %zu", s.aux);
	rejected(s.b.v, s.b.len - 1, s.b.len - 3, want);
	free(s.b.v);
}

/* Cut anywhere, a recording is either whole (cut between records: it
 * parses, with the records before the cut) or an error; never a crash. */
static void every_cut_is_whole_or_an_error(void **state)
{
	struct small s;

	(void)state;
	make_small(&s);
	for (size_t len = 0; len <= s.b.len; len++) {
		struct nt_perf_recording p;
		struct nt_err err;
		int whole = -1;

		for (int i = 0; i < 6; i++)
			if (s.ends[i] == len)
				whole = i;
		int rc = nt_perf_parse(s.b.v, len, "t.rec", &p, &err);

		if (whole < 0) {
			if (rc != -1)
				fail_msg("a cut at byte %zu parsed", len);
			continue;
		}
		if (rc != 0)
			fail_msg("a cut at byte %zu, after a record: %s", len, err.msg);
		assert_int_equal(p.count, (size_t)whole);
		nt_perf_free(&p);
	}
	free(s.b.v);
}

/* ---- the command line ---------------------------------------------------------------------- */

static void write_file(const char *name, const void *bytes, size_t len)
{
	char path[128];

	snprintf(path, sizeof(path), "%s/%s", tmpdir, name);
	FILE *f = fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(bytes, 1, len, f), len);
	fclose(f);
}

static char *read_back(const char *name)
{
	char path[128];

	snprintf(path, sizeof(path), "%s/%s", tmpdir, name);
	return slurp_text(path);
}

static uint64_t folded_total(const char *folded)
{
	uint64_t total = 0;

	for (const char *p = folded; *p;) {
		const char *nl = strchr(p, '\n');
		const char *sp = NULL;

		for (const char *q = p; q < (nl ? nl : p + strlen(p)); q++)
			if (*q == ' ')
				sp = q;
		assert_non_null(sp);
		total += strtoull(sp + 1, NULL, 10);
		p = nl ? nl + 1 : p + strlen(p);
	}
	return total;
}

/* Removes the lines that start with '#', in place. */
static void drop_comment_lines(char *text)
{
	char *out = text;

	for (char *line = text; *line;) {
		char *nl = strchr(line, '\n');
		size_t len = nl ? (size_t)(nl - line) + 1 : strlen(line);

		if (*line != '#') {
			memmove(out, line, len);
			out += len;
		}
		line += len;
	}
	*out = '\0';
}

static void command_line_outputs(void **state)
{
	struct nt_tool_config enc = encoder_config(HTM_CONTROL, FEATURES_RESET, 0);
	struct recording r;
	struct cli_result *res;
	char want[128];

	(void)state;
	make_recording(&r, 0, &enc, "/bin/tiny-pie.elf");
	write_file("t.rec", r.b.v, r.b.len);
	res = run("perf t.rec --elf %s --pcs out.pcs", PIE_ELF);
	assert_int_equal(res->status, 0);
	char *pcs = read_back("out.pcs");
	/* a `# segment K: ...` comment before each segment's instructions */
	assert_true(strncmp(pcs, "# segment 0: cpu 0 pid 42 tid 43 time 1000, ", 44) == 0);
	char *second = strstr(pcs, "\n# segment 1: ");
	assert_non_null(second);
	assert_null(strstr(second + 1, "\n# "));
	drop_comment_lines(pcs);
	assert_string_equal(pcs, r.expected);
	free(pcs);
	/* the listing: objdump's disassembly moved with the file */
	res = run("perf t.rec --elf %s", PIE_ELF);
	assert_int_equal(res->status, 0);
	assert_true(strncmp(res->out, "# t.rec: 2 segments, ", 21) == 0);
	assert_non_null(strstr(res->out, "cpu:hart 0:5 1:?\n# segment 0: cpu 0 pid 42 tid 43 time 1000, "));
	snprintf(want, sizeof(want), "%10" PRIx64 "  _start+0x0                    auipc",
		 BIAS + pie_entry(NULL));
	assert_non_null(strstr(res->out, want));
	assert_non_null(strstr(res->out, "# segment 1: cpu 1 pid 42 tid 43 time 2000, "));
	/* the profile of both segments */
	res = run("perf t.rec --elf %s --folded", PIE_ELF);
	assert_int_equal(res->status, 0);
	assert_int_equal(folded_total(res->out), r.instructions);
	assert_non_null(strstr(res->out, "_start;_start "));   /* leaf is a label of _start's */
	res = run("perf t.rec --elf %s --profile --top 3", PIE_ELF);
	assert_int_equal(res->status, 0);
	assert_non_null(strstr(res->out, "_start"));
	recording_free(&r);
}

static void command_line_errors(void **state)
{
	struct nt_tool_config enc = encoder_config(HTM_CONTROL, FEATURES_RESET, 0);
	struct recording r;
	struct cli_result *res;

	(void)state;
	make_recording(&r, 0, &enc, NULL);
	write_file("nomap.rec", r.b.v, r.b.len);
	res = run("perf nomap.rec --elf %s", PIE_ELF);
	assert_int_equal(res->status, 1);
	assert_non_null(strstr(res->err, "position-independent (ET_DYN), and no executable "
				      "PERF_RECORD_MMAP2 of pid 42 in nomap.rec"));
	r.b.v[TSBIREC_OFF_VERSION] = 9;
	write_file("bad.rec", r.b.v, r.b.len);
	res = run("perf bad.rec --elf %s", TINY_ELF);
	assert_int_equal(res->status, 1);
	assert_string_equal(res->err, "ntrace: bad.rec: byte 12: version 9: this reader knows "
			    "version 1\n");
	res = run("perf bad.rec");
	assert_int_equal(res->status, 2);
	res = run("perf bad.rec --elf %s --pcs a.pcs --listing", TINY_ELF);
	assert_int_equal(res->status, 2);
	res = run("perf bad.rec --elf %s --mode btm", TINY_ELF);
	assert_int_equal(res->status, 2);
	res = run("perf --help");
	assert_int_equal(res->status, 0);
	assert_non_null(strstr(res->out, "# segment K: cpu C pid P tid T"));
	recording_free(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(two_aux_records_decode_to_their_instructions),
		cmocka_unit_test(btm_with_sequential_jumps_and_repeats),
		cmocka_unit_test(the_settings_are_those_of_attr_config),
		cmocka_unit_test(config_terms_become_the_encoder_registers),
		cmocka_unit_test(pie_goes_where_its_executable_mapping_says),
		cmocka_unit_test(static_program_stays_at_its_addresses),
		cmocka_unit_test(pie_without_its_mapping_cannot_be_placed),
		cmocka_unit_test(mapping_no_segment_starts_in_is_named),
		cmocka_unit_test(listing_has_a_line_per_segment),
		cmocka_unit_test(small_recording_parses),
		cmocka_unit_test(truncated_header_is_named),
		cmocka_unit_test(bad_header_fields_are_named),
		cmocka_unit_test(bad_records_are_named),
		cmocka_unit_test(every_cut_is_whole_or_an_error),
		cmocka_unit_test(command_line_outputs),
		cmocka_unit_test(command_line_errors),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
