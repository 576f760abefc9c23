/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Running a host tool from a cmocka test (the tools' command-line tests):
 * a temporary directory for the group, the tool's exit status, stdout and
 * stderr.  Define CLI_TOOL (path of the tool) and CLI_TMP_TEMPLATE
 * ("/tmp/xx-cli-XXXXXX"), then include after <cmocka.h>.
 */
#ifndef TEST_TOOL_CLI_H
#define TEST_TOOL_CLI_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static char tmpdir[64];

struct cli_result {
	int status;
	char out[1 << 15];
	char err[1 << 13];
};

static void cli_read_into(const char *path, char *buf, size_t size)
{
	FILE *f = fopen(path, "r");
	size_t n = f ? fread(buf, 1, size - 1, f) : 0;

	buf[n] = '\0';
	if (f)
		fclose(f);
}

/* Runs "CLI_TOOL <args>" in tmpdir (args already shell-quoted as needed). */
static struct cli_result *run(const char *fmt, ...)
{
	static struct cli_result r;
	char args[1024], cmd[2048], path[128];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(args, sizeof(args), fmt, ap);
	va_end(ap);
	/* a sanitizer report exits 99: never one of the statuses expected */
	snprintf(cmd, sizeof(cmd), "cd %s && ASAN_OPTIONS=exitcode=99 UBSAN_OPTIONS=exitcode=99 %s %s >out 2>err",
		 tmpdir, CLI_TOOL, args);
	int st = system(cmd);

	assert_true(WIFEXITED(st));
	r.status = WEXITSTATUS(st);
	snprintf(path, sizeof(path), "%s/out", tmpdir);
	cli_read_into(path, r.out, sizeof(r.out));
	snprintf(path, sizeof(path), "%s/err", tmpdir);
	cli_read_into(path, r.err, sizeof(r.err));
	return &r;
}

static int setup(void **state)
{
	(void)state;
	strcpy(tmpdir, CLI_TMP_TEMPLATE);
	return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf %s", tmpdir);
	return system(cmd) == 0 ? 0 : -1;
}

#endif /* TEST_TOOL_CLI_H */
