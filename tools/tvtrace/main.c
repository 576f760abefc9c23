// SPDX-License-Identifier: BSD-2-Clause
/*
 * tvtrace: read Bluespec tandem-verification traces (the firmware's TV
 * mode, lib/tvtrace).  Exit status: 0 ok, 1 malformed or inconsistent
 * trace (or a file that cannot be read), 2 bad command line.
 */
#include <stdlib.h>
#include <string.h>

#include "tvtrace_tool.h"

static const char usage_main[] =
	"usage: tvtrace COMMAND [OPTIONS] FILE\n"
	"Reads a Bluespec tandem-verification trace (bluespec-trace-protocol-2018-11-20).\n"
	"\n"
	"commands:\n"
	"  dump FILE                 one line per record (index, byte offset, fields)\n"
	"  check --elf PROG.elf FILE replay the trace against the ELF, check it is self-consistent\n"
	"\n"
	"'tvtrace COMMAND --help' describes a command's options.\n";

static const char usage_params[] =
	"  --xlen N    XLEN in bits: 32 or 64 (default 64)\n"
	"  --flen N    FLEN in bits: 0, 32 or 64 (default 64)\n"
	"  --mlen N    MLEN in bits: 32, 34 or 64 (default 64)\n"
	"  The defaults are RV64GC (the firmware's TV mode, Appendix C).\n"
	"  --zero-padded  zero bytes from a record boundary to the end are padding\n"
	"              (a sink buffer saved whole), not records\n"
	"  --idle-padded  the same for 0xFF bytes (the RAM sink's idle bytes after\n"
	"              a stop on wrap, or in its last word)\n";

static const char usage_dump[] =
	"usage: tvtrace dump [--xlen N] [--flen N] [--mlen N] [--zero-padded|--idle-padded] FILE\n"
	"Prints one line per record: its index, its byte offset, its opcode name and\n"
	"fields in hex; the records of a group are indented under its begin-group line\n"
	"(numbered #G). A malformed record ends the dump with its byte offset on stderr\n"
	"and exit status 1.\n";

static const char usage_check[] =
	"usage: tvtrace check [--elf PROG.elf]... [--xlen N] [--flen N] [--mlen N]\n"
	"                     [--zero-padded|--idle-padded] FILE\n"
	"Replays the trace group by group and reports the first inconsistency with its\n"
	"record index and byte offset (exit status 1): a pc that the instruction does\n"
	"not explain (sequential, branch taken or not by the register values the trace\n"
	"told, jal/jalr targets, traps to the vector in stvec/mtvec, sret/mret to\n"
	"sepc/mepc), instruction bits that differ from the ELF at that pc, link and\n"
	"load values, memory addresses (rs1 + offset) and store data (rs2) that differ\n"
	"from the registers. Values the trace has not told yet are unknown and not\n"
	"checked. Prints a summary and exits 0 when the trace is consistent.\n";

struct args {
	const char *cmd;
	const char *file;
	const char **elves;
	size_t elf_count;
	struct tvtrace_params params;
	int pad;                 /* TV_PAD_NONE, 0 or 0xFF */
};

static int usage_error(const char *msg, const char *arg)
{
	fprintf(stderr, "tvtrace: %s%s%s\n", msg, arg ? ": " : "", arg ? arg : "");
	fprintf(stderr, "Try 'tvtrace --help'.\n");
	return 2;
}

/* "--xlen 64" style width in bits -> bytes; 0 when not one of allowed. */
static unsigned width_bytes(const char *s, const unsigned *allowed, size_t n)
{
	char *end;
	unsigned long v = strtoul(s, &end, 10);

	if (*s == '\0' || *end != '\0')
		return 0xff;
	for (size_t i = 0; i < n; i++)
		if (v == allowed[i])
			return (unsigned)(v + 7) / 8;
	return 0xff;
}

static int parse_width(const char *opt, const char *val, struct tvtrace_params *p)
{
	static const unsigned xl[] = { 32, 64 }, fl[] = { 0, 32, 64 }, ml[] = { 32, 34, 64 };
	unsigned b;

	if (!strcmp(opt, "--xlen") && (b = width_bytes(val, xl, 2)) != 0xff)
		p->xlen_bytes = (uint8_t)b;
	else if (!strcmp(opt, "--flen") && (b = width_bytes(val, fl, 3)) != 0xff)
		p->flen_bytes = (uint8_t)b;
	else if (!strcmp(opt, "--mlen") && (b = width_bytes(val, ml, 3)) != 0xff)
		p->mlen_bytes = (uint8_t)b;
	else
		return -1;
	return 0;
}

/* Returns -1 to go on, else the exit status (help printed, or usage error). */
static int parse_args(int argc, char **argv, struct args *a)
{
	const char *usage = !strcmp(a->cmd, "dump") ? usage_dump : usage_check;

	for (int i = 2; i < argc; i++) {
		const char *s = argv[i];

		if (!strcmp(s, "--help") || !strcmp(s, "-h")) {
			printf("%s\noptions:\n%s", usage, usage_params);
			return 0;
		}
		if (!strcmp(s, "--xlen") || !strcmp(s, "--flen") || !strcmp(s, "--mlen") ||
		    (!strcmp(s, "--elf") && !strcmp(a->cmd, "check"))) {
			if (i + 1 >= argc)
				return usage_error("option needs a value", s);
			const char *val = argv[++i];

			if (!strcmp(s, "--elf"))
				a->elves[a->elf_count++] = val;
			else if (parse_width(s, val, &a->params))
				return usage_error("bad width", val);
			continue;
		}
		if (!strcmp(s, "--zero-padded") || !strcmp(s, "--idle-padded")) {
			a->pad = s[2] == 'z' ? 0x00 : 0xFF;
			continue;
		}
		if (s[0] == '-' && s[1] != '\0')
			return usage_error("unknown option", s);
		if (a->file)
			return usage_error("more than one trace file", s);
		a->file = s;
	}
	if (!a->file)
		return usage_error("no trace file", NULL);
	return -1;
}

static int fail(const char *file, const struct nt_err *err)
{
	fprintf(stderr, "tvtrace: %s: %s\n", file, err->msg);
	return 1;
}

static int run_dump(const struct args *a, const uint8_t *buf, size_t len)
{
	struct tv_trace t;
	struct nt_err err = { "" };
	int rc = tv_trace_parse(&a->params, buf, len, a->pad, &t, &err);

	tv_dump(stdout, &t);
	if (t.padding)
		printf("# %zu %s bytes of padding\n", t.padding, a->pad ? "idle" : "zero");
	fflush(stdout);
	tv_trace_free(&t);
	return rc ? fail(a->file, &err) : 0;
}

static void print_summary(const char *file, const struct tv_check_summary *s, size_t padding,
			  int pad)
{
	printf("%s: consistent: %zu records, %zu groups, %zu instructions (%zu compared with the ELF), "
	       "%zu traps (%zu exceptions, %zu interrupts), %zu trap returns, %zu ecalls serviced below the trace\n",
	       file, s->records, s->groups, s->instructions, s->bits_checked,
	       s->exceptions + s->interrupts, s->exceptions, s->interrupts, s->trap_returns,
	       s->ecalls_serviced);
	if (s->unterminated)
		printf("%s: the last group has no end group: not checked\n", file);
	if (padding)
		printf("%s: %zu %s bytes of padding after the last record\n", file, padding,
		       pad ? "idle" : "zero");
}

static int run_check(const struct args *a, const uint8_t *buf, size_t len)
{
	struct tv_trace t;
	struct nt_err err = { "" };
	struct nt_image_set images;
	struct tv_check_summary sum;
	int rc = 0;

	nt_images_init(&images);
	for (size_t i = 0; i < a->elf_count && !rc; i++)
		rc = nt_images_add_elf(&images, a->elves[i], &err);
	if (rc) {
		nt_images_free(&images);
		fprintf(stderr, "tvtrace: %s\n", err.msg);
		return 1;
	}
	rc = tv_trace_parse(&a->params, buf, len, a->pad, &t, &err);
	if (!rc)
		rc = tv_check(&t, &a->params, &images, &sum, &err);
	size_t padding = t.padding;

	tv_trace_free(&t);
	nt_images_free(&images);
	if (rc)
		return fail(a->file, &err);
	print_summary(a->file, &sum, padding, a->pad);
	return 0;
}

int main(int argc, char **argv)
{
	struct args a = { .params = TVTRACE_PARAMS_RV64GC, .pad = TV_PAD_NONE };
	uint8_t *buf = NULL;
	size_t len = 0;
	struct nt_err err = { "" };
	int rc;

	if (argc < 2)
		return usage_error("no command", NULL);
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		fputs(usage_main, stdout);
		return 0;
	}
	a.cmd = argv[1];
	if (strcmp(a.cmd, "dump") != 0 && strcmp(a.cmd, "check") != 0)
		return usage_error("unknown command", a.cmd);
	a.elves = calloc((size_t)argc, sizeof(*a.elves));
	if (!a.elves)
		return 1;
	rc = parse_args(argc, argv, &a);
	if (rc < 0) {
		if (nt_read_file(a.file, &buf, &len, &err)) {
			fprintf(stderr, "tvtrace: %s\n", err.msg);   /* names the file */
			rc = 1;
		} else {
			rc = !strcmp(a.cmd, "dump") ? run_dump(&a, buf, len) : run_check(&a, buf, len);
		}
	}
	free(buf);
	free(a.elves);
	return rc;
}
