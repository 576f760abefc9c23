/* SPDX-License-Identifier: BSD-2-Clause */
/* BASE extension (ext-base.adoc) and the binary encoding's rules for
 * unknown EIDs/FIDs (binary-encoding.adoc). */
#include "testlib.h"

/* Extensions tracesbi implements, and standard ones it does not. */
static const long present_eids[] = {
	SBI_EXT_BASE, SBI_EXT_TIME, SBI_EXT_IPI, SBI_EXT_RFENCE, SBI_EXT_HSM,
	SBI_EXT_SRST, SBI_EXT_LEGACY_CONSOLE_PUTCHAR, SBI_EXT_LEGACY_CONSOLE_GETCHAR,
};
#define EID_SUSP 0x53555350
#define EID_CPPC 0x43505043
#define EID_NACL 0x4E41434C
#define EID_STA  0x535441
#define EID_SSE  0x535345
#define EID_FWFT 0x46574654
#define EID_DBTR 0x44425452
#define EID_MPXY 0x4D505859
static const long absent_eids[] = {
	EID_CPPC, EID_NACL, EID_STA, EID_MPXY,
	0x12345678, 0x08000000 /* experimental */, 0x09000000 /* vendor */,
	0x0A000000 /* firmware */, 0x0F, -1,
	0x0A7ACE00 /* tracesbi's extension before it obeyed ext-firmware.adoc's EID rule */,
};
/* Every legacy extension of ext-legacy.adoc is there; 0x09-0x0F are reserved. */
static const long legacy_present[] = { 0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08 };
static const long legacy_reserved[] = { 0x09, 0x0A, 0x0E, 0x0F };

static void spec_version_encoding(void)
{
	struct sbiret r = SBI0(SBI_EXT_BASE, SBI_BASE_GET_SPEC_VERSION);

	CHECK_ERR(r.error, SBI_SUCCESS, "get_spec_version");
	/* Bit 31 and bits 63:32 are reserved, must be 0. */
	CHECK((r.value & 0xFFFFFFFF80000000ul) == 0, "get_spec_version: reserved bits set in %#lx",
	      r.value);
	CHECK((r.value >> 24) >= 1, "get_spec_version: major %ld < 1 (v0.2+ call encoding in use)",
	      r.value >> 24);
}

static void spec_version_value(void)
{
	struct sbiret r = SBI0(SBI_EXT_BASE, SBI_BASE_GET_SPEC_VERSION);

	CHECK_ERR(r.error, SBI_SUCCESS, "get_spec_version");
	CHECK(((r.value >> 24) & 0x7f) == EXPECTED_SPEC_MAJOR &&
	      (r.value & 0xffffff) == EXPECTED_SPEC_MINOR,
	      "get_spec_version: expected %d.%d, got %ld.%ld", EXPECTED_SPEC_MAJOR,
	      EXPECTED_SPEC_MINOR, (r.value >> 24) & 0x7f, r.value & 0xffffff);
}

static void impl_id(void)
{
	struct sbiret r = SBI0(SBI_EXT_BASE, SBI_BASE_GET_IMPL_ID);

	CHECK_ERR(r.error, SBI_SUCCESS, "get_impl_id");
	CHECK_EQ(r.value, EXPECTED_IMPL_ID, "get_impl_id");
}

static void impl_version(void)
{
	struct sbiret a = SBI0(SBI_EXT_BASE, SBI_BASE_GET_IMPL_VERSION);
	struct sbiret b = SBI0(SBI_EXT_BASE, SBI_BASE_GET_IMPL_VERSION);

	CHECK_ERR(a.error, SBI_SUCCESS, "get_impl_version");
	CHECK_EQ(b.value, a.value, "get_impl_version called twice");
}

/* The same version the README and the banner give (0.1). */
static void impl_version_value(void)
{
	struct sbiret r = SBI0(SBI_EXT_BASE, SBI_BASE_GET_IMPL_VERSION);

	CHECK_ERR(r.error, SBI_SUCCESS, "get_impl_version");
	CHECK_EQ(r.value, EXPECTED_IMPL_VERSION, "get_impl_version");
}

/* ext-firmware.adoc: "The lower 24 bits of the firmware EID must match the
 * lower 24 bits of the SBI implementation ID": tracesbi's own extension is
 * 0x0A000000 | implementation ID. */
static void firmware_eid_rule(void)
{
	struct sbiret id = SBI0(SBI_EXT_BASE, SBI_BASE_GET_IMPL_ID);

	CHECK_ERR(id.error, SBI_SUCCESS, "get_impl_id");
	CHECK_EQ(sbi_probe(0x0A000000 | (id.value & 0xFFFFFF)).value, 1,
		 "probe_extension(0x0A000000 | impl_id)");
}

static void machine_ids(void)
{
	static const char *const what[] = { "mvendorid", "marchid", "mimpid" };
	int fid;

	for (fid = SBI_BASE_GET_MVENDORID; fid <= SBI_BASE_GET_MIMPID; fid++) {
		struct sbiret a = SBI0(SBI_EXT_BASE, fid), b = SBI0(SBI_EXT_BASE, fid);

		CHECK_ERR(a.error, SBI_SUCCESS, "get_%s", what[fid - SBI_BASE_GET_MVENDORID]);
		CHECK_EQ(b.value, a.value, "get_%s called twice", what[fid - SBI_BASE_GET_MVENDORID]);
	}
}

static void probe_present(void)
{
	size_t i;

	for (i = 0; i < sizeof(present_eids) / sizeof(present_eids[0]); i++) {
		struct sbiret r = sbi_probe(present_eids[i]);

		if (present_eids[i] == SBI_EXT_SRST && run.no_reset)
			continue;   /* t_srst.c: srst_absent */
		CHECK_ERR(r.error, SBI_SUCCESS, "probe_extension(%#lx)", present_eids[i]);
		CHECK(r.value != 0, "probe_extension(%#lx): expected available (non-zero), got 0",
		      present_eids[i]);
	}
}

static void probe_dbcn(void)
{
	struct sbiret r = sbi_probe(SBI_EXT_DBCN);

	CHECK_ERR(r.error, SBI_SUCCESS, "probe_extension(DBCN)");
	CHECK(r.value != 0, "probe_extension(DBCN): expected available, got 0");
}

static void probe_absent(void)
{
	size_t i;

	for (i = 0; i < sizeof(absent_eids) / sizeof(absent_eids[0]); i++) {
		struct sbiret r = sbi_probe(absent_eids[i]);

		CHECK_ERR(r.error, SBI_SUCCESS, "probe_extension(%#lx)", absent_eids[i]);
		CHECK_EQ(r.value, 0, "probe_extension(%#lx)", absent_eids[i]);
	}
}

static void probe_legacy(void)
{
	size_t i;

	for (i = 0; i < sizeof(legacy_present) / sizeof(legacy_present[0]); i++) {
		struct sbiret r = sbi_probe(legacy_present[i]);

		CHECK_ERR(r.error, SBI_SUCCESS, "probe_extension(%#lx)", legacy_present[i]);
		CHECK_EQ(r.value, 1, "probe_extension(legacy %#lx)", legacy_present[i]);
	}
	for (i = 0; i < sizeof(legacy_reserved) / sizeof(legacy_reserved[0]); i++) {
		struct sbiret r = sbi_probe(legacy_reserved[i]);

		CHECK_ERR(r.error, SBI_SUCCESS, "probe_extension(%#lx)", legacy_reserved[i]);
		CHECK_EQ(r.value, 0, "probe_extension(reserved legacy %#lx)", legacy_reserved[i]);
	}
}

/* PMU may be present or absent; whatever it says, probing says it twice. */
static void probe_pmu_consistent(void)
{
	struct sbiret a = sbi_probe(SBI_EXT_PMU), b = sbi_probe(SBI_EXT_PMU);

	CHECK_ERR(a.error, SBI_SUCCESS, "probe_extension(PMU)");
	CHECK(a.value == 0 || a.value == 1, "probe_extension(PMU): expected 0 or 1, got %ld",
	      a.value);
	CHECK_EQ(b.value, a.value, "probe_extension(PMU) called twice");
}

static void unknown_fid(void)
{
	static const unsigned long fids[] = { 7, 8, 0xFFFF, 0x7FFFFFFF };
	size_t i;

	for (i = 0; i < sizeof(fids) / sizeof(fids[0]); i++)
		CHECK_ERR(SBI0(SBI_EXT_BASE, fids[i]).error, SBI_ERR_NOT_SUPPORTED,
			  "BASE FID %#lx", fids[i]);
	CHECK_ERR(SBI0(SBI_EXT_TIME, 1).error, SBI_ERR_NOT_SUPPORTED, "TIME FID 1");
	CHECK_ERR(SBI0(SBI_EXT_IPI, 1).error, SBI_ERR_NOT_SUPPORTED, "IPI FID 1");
	CHECK_ERR(SBI0(SBI_EXT_RFENCE, 7).error, SBI_ERR_NOT_SUPPORTED, "RFENCE FID 7");
	CHECK_ERR(SBI0(SBI_EXT_HSM, 4).error, SBI_ERR_NOT_SUPPORTED, "HSM FID 4");
	CHECK_ERR(SBI0(SBI_EXT_SRST, 1).error, SBI_ERR_NOT_SUPPORTED, "SRST FID 1");
}

static void unknown_eid(void)
{
	size_t i;

	for (i = 0; i < sizeof(absent_eids) / sizeof(absent_eids[0]); i++)
		CHECK_ERR(SBI0(absent_eids[i], 0).error, SBI_ERR_NOT_SUPPORTED, "EID %#lx FID 0",
			  absent_eids[i]);
}

/* Reserved legacy EIDs answer NOT_SUPPORTED in a0 (legacy encoding). */
static void legacy_reserved_calls(void)
{
	size_t i;

	for (i = 0; i < sizeof(legacy_reserved) / sizeof(legacy_reserved[0]); i++)
		CHECK_ERR(sbi_legacy(legacy_reserved[i], 0), SBI_ERR_NOT_SUPPORTED,
			  "reserved legacy EID %#lx", legacy_reserved[i]);
}

/* Legacy convention: only a0 is returned; a1 is preserved even by an EID
 * the firmware does not implement (0x09: no legacy function at all). */
static void legacy_unimplemented_preserves_a1(void)
{
	register unsigned long a0 __asm__("a0") = 0;
	register unsigned long a1 __asm__("a1") = 0x5678;
	register unsigned long a7 __asm__("a7") = 0x09;

	unsigned long ret, kept;

	__asm__ volatile("ecall" : "+r"(a0), "+r"(a1) : "r"(a7) : "memory");
	/* Register variables are only tied to their registers in the asm. */
	ret = a0;
	kept = a1;
	CHECK_ERR((long)ret, SBI_ERR_NOT_SUPPORTED, "legacy EID 0x09");
	CHECK_EQ(kept, 0x5678, "a1 after legacy EID 0x09");
}

/* a0/a1 return, every other register preserved (binary encoding). */
static void registers_preserved(void)
{
	register unsigned long a0 __asm__("a0") = 0;
	register unsigned long a1 __asm__("a1") = 0;
	register unsigned long a2 __asm__("a2") = 0xa2a2;
	register unsigned long a3 __asm__("a3") = 0xa3a3;
	register unsigned long a4 __asm__("a4") = 0xa4a4;
	register unsigned long a5 __asm__("a5") = 0xa5a5;
	register unsigned long a6 __asm__("a6") = SBI_BASE_GET_SPEC_VERSION;
	register unsigned long a7 __asm__("a7") = SBI_EXT_BASE;
	register unsigned long t0 __asm__("t0") = 0x7070;
	register unsigned long t6 __asm__("t6") = 0x7676;
	register unsigned long s2 __asm__("s2") = 0x5252;
	unsigned long sp_before, sp_after;

	__asm__ volatile("mv %0, sp" : "=r"(sp_before));
	__asm__ volatile("ecall"
			 : "+r"(a0), "+r"(a1), "+r"(a2), "+r"(a3), "+r"(a4), "+r"(a5),
			   "+r"(a6), "+r"(a7), "+r"(t0), "+r"(t6), "+r"(s2)
			 :
			 : "memory");
	/* Register variables are only bound at the asm: copy them out before
	 * any call. */
	volatile unsigned long out[10] = { a0, a2, a3, a4, a5, a6, a7, t0, t6, s2 };

	__asm__ volatile("mv %0, sp" : "=r"(sp_after));
	CHECK_ERR((long)out[0], SBI_SUCCESS, "get_spec_version");
	CHECK(out[1] == 0xa2a2 && out[2] == 0xa3a3 && out[3] == 0xa4a4 && out[4] == 0xa5a5,
	      "a2..a5 changed: %lx %lx %lx %lx", out[1], out[2], out[3], out[4]);
	CHECK(out[5] == SBI_BASE_GET_SPEC_VERSION && out[6] == SBI_EXT_BASE,
	      "a6/a7 changed: %lx %lx", out[5], out[6]);
	CHECK(out[7] == 0x7070 && out[8] == 0x7676 && out[9] == 0x5252,
	      "t0/t6/s2 changed: %lx %lx %lx", out[7], out[8], out[9]);
	CHECK_EQ(sp_after, sp_before, "sp across the ecall");
}

static const struct target_test tests[] = {
	{ "spec_version_encoding", spec_version_encoding, DEV_NONE },
	{ "spec_version_value", spec_version_value, DEV_OPENSBI_SPEC_VERSION },
	{ "impl_id", impl_id, DEV_OPENSBI_IMPL_ID },
	{ "impl_version", impl_version, DEV_NONE },
	{ "impl_version_value", impl_version_value, DEV_OPENSBI_IMPL_VERSION },
	{ "firmware_eid_rule", firmware_eid_rule, DEV_OPENSBI_NO_TRACESBI_EXT },
	{ "machine_ids", machine_ids, DEV_NONE },
	{ "probe_present", probe_present, DEV_NONE },
	{ "probe_dbcn", probe_dbcn, DEV_OPENSBI_NO_DBCN },
	{ "probe_absent", probe_absent, DEV_NONE },
	{ "probe_legacy", probe_legacy, DEV_NONE },
	{ "probe_pmu_consistent", probe_pmu_consistent, DEV_NONE },
	{ "unknown_fid", unknown_fid, DEV_NONE },
	{ "unknown_eid", unknown_eid, DEV_NONE },
	{ "legacy_reserved_calls", legacy_reserved_calls, DEV_NONE },
	{ "registers_preserved", registers_preserved, DEV_NONE },
	{ "legacy_unimplemented_preserves_a1", legacy_unimplemented_preserves_a1,
	  DEV_OPENSBI_LEGACY_A1 },
};
GROUP(base, tests);
