/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Golden N-Trace byte files (the .hex files of tests/data/ntrace/golden: hexadecimal
 * bytes, '#' comments) for the codec tests.  Include after <cmocka.h>.
 */
#ifndef TEST_NTRACE_GOLDEN_H
#define TEST_NTRACE_GOLDEN_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef NTRACE_GOLDEN_DIR
#define NTRACE_GOLDEN_DIR "tests/data/ntrace/golden"
#endif

/* Read a golden .hex file into buf; returns the number of bytes. */
static size_t load_golden(const char *name, uint8_t *buf, size_t cap)
{
	char path[512], line[512];
	size_t n = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", NTRACE_GOLDEN_DIR, name);
	f = fopen(path, "r");
	if (!f)
		fail_msg("cannot open %s", path);
	while (fgets(line, sizeof(line), f)) {
		char *p = line, *end;

		if (strchr(line, '#'))
			*strchr(line, '#') = 0;
		for (;;) {
			unsigned long v = strtoul(p, &end, 16);

			if (end == p)
				break;
			assert_true(n < cap);
			buf[n++] = (uint8_t)v;
			p = end;
		}
	}
	fclose(f);
	return n;
}

#endif /* TEST_NTRACE_GOLDEN_H */
