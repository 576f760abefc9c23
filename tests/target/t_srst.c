/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * SRST extension (ext-sys-reset.adoc): reserved or unimplemented types and
 * reasons are refused with INVALID_PARAM.  A call that wrongly succeeds ends
 * the run (the runner then reports the missing done marker), so this group
 * runs last.  Reboots are tested by reboot.c in a run of their own.  On a
 * board with no reset device (no-reset=1: the PolarFire SoC's is a request
 * to its system controller) the extension is absent: probe says 0 and
 * every call, valid or not, is NOT_SUPPORTED (SBI: an extension that is
 * not implemented).
 */
#include "testlib.h"

/* The tests of a present SRST: not applicable on a board without one. */
static bool srst_present(void)
{
	if (run.no_reset)
		test_not_applicable("the board has no reset device: SRST is absent (srst_absent)");
	return !run.no_reset;
}

static void srst_absent(void)
{
	static const unsigned long types[] = { SBI_SRST_TYPE_SHUTDOWN, 1, 2, 3, 0xF0000000 };
	size_t i;

	if (!run.no_reset) {
		test_not_applicable("the board has a reset device (no-reset= not given)");
		return;
	}
	CHECK_EQ(sbi_probe(SBI_EXT_SRST).value, 0, "probe_extension(SRST)");
	for (i = 0; i < sizeof(types) / sizeof(types[0]); i++)
		CHECK_ERR(sbi_system_reset(types[i], SBI_SRST_REASON_NONE).error,
			  SBI_ERR_NOT_SUPPORTED, "system_reset(type %#lx)", types[i]);
}

static void reserved_types(void)
{
	static const unsigned long types[] = { 3, 4, 0x1000, 0xEFFFFFFF };
	size_t i;

	if (!srst_present())
		return;
	for (i = 0; i < sizeof(types) / sizeof(types[0]); i++)
		CHECK_ERR(sbi_system_reset(types[i], SBI_SRST_REASON_NONE).error,
			  SBI_ERR_INVALID_PARAM, "system_reset(type %#lx)", types[i]);
}

/* Vendor/platform-specific types no platform of ours implements. */
static void vendor_types_unimplemented(void)
{
	static const unsigned long types[] = { 0xF0000000, 0xFFFFFFFF };
	size_t i;

	if (!srst_present())
		return;
	for (i = 0; i < sizeof(types) / sizeof(types[0]); i++)
		CHECK_ERR(sbi_system_reset(types[i], SBI_SRST_REASON_NONE).error,
			  SBI_ERR_INVALID_PARAM, "system_reset(type %#lx)", types[i]);
}

static void reserved_reasons(void)
{
	static const unsigned long reasons[] = { 2, 0x1000, 0xDFFFFFFF };
	size_t i;

	if (!srst_present())
		return;
	for (i = 0; i < sizeof(reasons) / sizeof(reasons[0]); i++)
		CHECK_ERR(sbi_system_reset(SBI_SRST_TYPE_SHUTDOWN, reasons[i]).error,
			  SBI_ERR_INVALID_PARAM, "system_reset(shutdown, reason %#lx)",
			  reasons[i]);
}

static const struct target_test tests[] = {
	{ "srst_absent", srst_absent, DEV_NONE },
	{ "reserved_types", reserved_types, DEV_NONE },
	{ "vendor_types_unimplemented", vendor_types_unimplemented, DEV_NONE },
	{ "reserved_reasons", reserved_reasons, DEV_NONE },
};
GROUP(srst, tests);
