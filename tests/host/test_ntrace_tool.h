/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Helpers shared by the ntrace tool's host tests.  Include after <cmocka.h>
 * and "ntrace_tool.h".
 */
#ifndef TEST_NTRACE_TOOL_H
#define TEST_NTRACE_TOOL_H

#include <stdint.h>
#include <stdlib.h>

/* A whole text file, NUL-terminated; fails the test when it cannot be read. */
static char *slurp_text(const char *path)
{
	uint8_t *buf;
	size_t len;
	struct nt_err err;

	if (nt_read_file(path, &buf, &len, &err))
		fail_msg("%s", err.msg);
	char *t = realloc(buf, len + 1);
	assert_non_null(t);
	t[len] = '\0';
	return t;
}

#endif /* TEST_NTRACE_TOOL_H */
