/* SPDX-License-Identifier: BSD-2-Clause */
/* Legacy console extensions (ext-legacy.adoc): putchar 0x01, getchar 0x02. */
#include "testlib.h"

static void putchar_returns_zero(void)
{
	static const char line[] = "legacy putchar test\n";
	size_t i;

	for (i = 0; i < sizeof(line) - 1; i++)
		CHECK_EQ(sbi_legacy(SBI_EXT_LEGACY_CONSOLE_PUTCHAR, (unsigned char)line[i]), 0,
			 "console_putchar(%#x)", line[i]);
}

/* The runner gives QEMU no input: getchar fails with -1. */
static void getchar_without_input(void)
{
	int i;

	for (i = 0; i < 3; i++)
		CHECK_EQ(sbi_legacy(SBI_EXT_LEGACY_CONSOLE_GETCHAR, 0), (unsigned long)-1,
			 "console_getchar call %d", i);
}

static const struct target_test tests[] = {
	{ "putchar_returns_zero", putchar_returns_zero, DEV_NONE },
	{ "getchar_without_input", getchar_without_input, DEV_NONE },
};
GROUP(legacy, tests);
