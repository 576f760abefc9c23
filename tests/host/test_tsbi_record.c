// SPDX-License-Identifier: BSD-2-Clause
/*
 * tsbi-record's command line (linux-trace/recorder/tsbi-record.c), on a host
 * build: the host has no tracesbi_trace PMU, so what is checked is what
 * does not need one: usage errors (exit 2), the missing PMU's message, the
 * format terms read from a stand-in sysfs directory (TSBI_RECORD_PMU_DIR),
 * and that a failing step names its syscall and errno, writes no
 * recording and never runs the program.  The recording itself is checked
 * by `ntrace perf`'s tests (test_ntrace_tool_perf) and on Linux.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdbool.h>
#include <sys/stat.h>

#define CLI_TOOL TSBI_RECORD_TOOL
#define CLI_TMP_TEMPLATE "/tmp/tsbi-rec-XXXXXX"
#include "test_tool_cli.h"

static bool exists(const char *name)
{
	char path[160];
	struct stat st;

	snprintf(path, sizeof(path), "%s/%s", tmpdir, name);
	return stat(path, &st) == 0;
}

static void write_text(const char *name, const char *text)
{
	char path[160];

	snprintf(path, sizeof(path), "%s/%s", tmpdir, name);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

/* A stand-in PMU directory, pmu/: type 1 (PERF_TYPE_SOFTWARE: an event the
 * host can open, with no AUX area) and the format terms given. */
static void make_pmu(void)
{
	char cmd[200];

	snprintf(cmd, sizeof(cmd), "mkdir -p %s/pmu/format", tmpdir);
	assert_int_equal(system(cmd), 0);
	write_text("pmu/type", "1\n");
	write_text("pmu/format/event", "config:0-63\n");
	write_text("pmu/format/btm", "config:0\n");
	write_text("pmu/format/sync", "config:16-19\n");
	write_text("pmu/format/odd", "config:3,5\n");
}

static void usage_errors_exit_2(void **state)
{
	struct cli_result *r;

	(void)state;
	r = run("-h");
	assert_int_equal(r->status, 0);
	assert_non_null(strstr(r->out, "usage: tsbi-record [-e TERMS] [-u|-k] [-f FILTERS] [-C CPU] [-m AUX_KB] -o FILE"));
	r = run("-- true");
	assert_int_equal(r->status, 2);
	assert_non_null(strstr(r->err, "needs -o FILE"));
	r = run("-o x.rec");
	assert_int_equal(r->status, 2);
	assert_non_null(strstr(r->err, "needs the program to run"));
	r = run("-u -k -o x.rec -- true");
	assert_int_equal(r->status, 2);
	assert_non_null(strstr(r->err, "give -u or -k, not both"));
	r = run("-m 12 -o x.rec -- true");
	assert_int_equal(r->status, 2);
	assert_non_null(strstr(r->err, "-m 12: the AUX area must be a power of two pages"));
	r = run("-C many -o x.rec -- true");
	assert_int_equal(r->status, 2);
	assert_non_null(strstr(r->err, "-C needs a CPU number"));
	assert_false(exists("x.rec"));
}

static void missing_pmu_is_named(void **state)
{
	struct cli_result *r;

	(void)state;
	setenv("TSBI_RECORD_PMU_DIR", "/nonexistent/tracesbi_trace", 1);
	r = run("-o x.rec -- touch ran");
	unsetenv("TSBI_RECORD_PMU_DIR");
	assert_int_equal(r->status, 2);
	assert_string_equal(r->err, "tsbi-record: no tracesbi_trace PMU (is the module loaded?)\n");
	assert_false(exists("x.rec"));
	assert_false(exists("ran"));
}

static struct cli_result *run_with_pmu(const char *args)
{
	char dir[160];
	struct cli_result *r;

	snprintf(dir, sizeof(dir), "%s/pmu", tmpdir);
	setenv("TSBI_RECORD_PMU_DIR", dir, 1);
	r = run("%s", args);
	unsetenv("TSBI_RECORD_PMU_DIR");
	return r;
}

static void terms_are_read_from_the_format_files(void **state)
{
	struct cli_result *r;

	(void)state;
	make_pmu();
	r = run_with_pmu("-e nosuch -o x.rec -- true");
	assert_int_equal(r->status, 2);
	assert_non_null(strstr(r->err, "tsbi-record: -e: the PMU has no term 'nosuch' (its terms: "));
	assert_non_null(strstr(r->err, "sync"));
	r = run_with_pmu("-e sync=16 -o x.rec -- true");
	assert_int_equal(r->status, 2);
	assert_non_null(strstr(r->err, "sync=16 does not fit in config:16-19 (4 bits)"));
	r = run_with_pmu("-e sync=x -o x.rec -- true");
	assert_int_equal(r->status, 2);
	assert_non_null(strstr(r->err, "the value of 'sync' is not a number"));
	r = run_with_pmu("-e odd -o x.rec -- true");
	assert_int_equal(r->status, 2);
	assert_non_null(strstr(r->err, "'config:3,5' is not config:N or config:N-M"));
	r = run_with_pmu("-e ../type -o x.rec -- true");
	assert_int_equal(r->status, 2);
	assert_non_null(strstr(r->err, "'../type' is not a term name"));
	assert_false(exists("x.rec"));
}

/* The stand-in PMU opens (a software event) or is refused, but has no AUX
 * area: either way the step that failed is named with its errno, and the
 * program, held until the recorder is ready, never runs. */
static void failing_syscall_is_named_and_the_program_never_runs(void **state)
{
	struct cli_result *r;

	(void)state;
	make_pmu();
	r = run_with_pmu("-e event=9,btm,sync=2 -m 8 -o x.rec -- touch ran");
	assert_int_equal(r->status, 2);
	assert_true(strstr(r->err, "tsbi-record: mmap of the AUX area (8 KiB): ") != NULL ||
		    strstr(r->err, "tsbi-record: perf_event_open: ") != NULL);
	assert_non_null(strstr(r->err, " (errno "));
	assert_non_null(strstr(r->err, "tsbi-record: no recording written\n"));
	assert_false(exists("x.rec"));
	assert_false(exists("ran"));
}

/* -f on the stand-in (a software event, which takes no address filter):
 * the ioctl is refused, named with the filter string and the syntax hint,
 * or the open itself was; the program never runs either way. */
static void refused_filter_is_named_and_the_program_never_runs(void **state)
{
	struct cli_result *r;

	(void)state;
	make_pmu();
	r = run_with_pmu("-u -f 'filter 0x1000/0x100' -o x.rec -- touch ran");
	assert_int_equal(r->status, 2);
	if (!strstr(r->err, "tsbi-record: perf_event_open: ")) {
		assert_non_null(strstr(r->err, "tsbi-record: ioctl PERF_EVENT_IOC_SET_FILTER"));
		assert_non_null(strstr(r->err, "filter 0x1000/0x100"));
		assert_non_null(strstr(r->err, "-f takes 'filter START/SIZE'"));
	}
	assert_false(exists("x.rec"));
	assert_false(exists("ran"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(usage_errors_exit_2),
		cmocka_unit_test(missing_pmu_is_named),
		cmocka_unit_test(terms_are_read_from_the_format_files),
		cmocka_unit_test(failing_syscall_is_named_and_the_program_never_runs),
		cmocka_unit_test(refused_filter_is_named_and_the_program_never_runs),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
