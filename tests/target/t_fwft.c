/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * FWFT extension (ext-firmware-features.adoc): set/get of every feature,
 * its values and flags, the LOCK flag until hart reset, per-hart state,
 * NOT_SUPPORTED exactly where the hart lacks the extension a feature
 * needs (the DT's ISA string says which it has), DENIED for reserved and
 * platform-specific features.  MISALIGNED_EXC_DELEG is checked with real
 * misaligned atomics: delegated, S-mode takes the misaligned exception
 * itself; not delegated, the firmware's emulator refuses atomics and
 * S-mode gets the access fault.  OpenSBI 1.1 has no FWFT: every test is
 * INFO (not applicable) there.
 */
#include "testlib.h"

#define EXC_MISALIGNED_LOAD   4
#define EXC_MISALIGNED_STORE  6
#define OPAQUE_FWFT 0x46575446ul   /* "FWTF" */

static struct sbiret fwft_set(unsigned long feature, unsigned long value, unsigned long flags)
{
	return SBI3(SBI_EXT_FWFT, SBI_FWFT_SET, feature, value, flags);
}

static struct sbiret fwft_get(unsigned long feature)
{
	return SBI1(SBI_EXT_FWFT, SBI_FWFT_GET, feature);
}

static bool fwft_available(void)
{
	struct sbiret r = sbi_probe(SBI_EXT_FWFT);

	if (r.value == 1)
		return true;
	if (run.opensbi)
		test_not_applicable("OpenSBI 1.1 has no FWFT extension (SBI 3.0)");
	else
		check_failed("probe_extension(FWFT) returned %ld", r.value);
	return false;
}

/* The extension's name appears in the DTB (riscv,isa or
 * riscv,isa-extensions): the harts have it. */
static bool dt_mentions(const char *ext)
{
	const char *blob = (const char *)plat.dtb;
	size_t n = strlen(ext), i;

	for (i = 0; i + n <= plat.dtb_size; i++)
		if (!memcmp(blob + i, ext, n))
			return true;
	return false;
}

static void check_value(unsigned long feature, unsigned long want, const char *when)
{
	struct sbiret r = fwft_get(feature);

	if (CHECK_ERR(r.error, SBI_SUCCESS, "fwft_get(%lu) %s", feature, when))
		CHECK_EQ(r.value, want, "fwft_get(%lu) %s", feature, when);
}

static void probe_fwft(void)
{
	fwft_available();
}

static void misaligned_deleg_reset_value(void)
{
	if (fwft_available())
		check_value(SBI_FWFT_MISALIGNED_EXC_DELEG, 0, "at boot");
}

static void misaligned_deleg_set_get(void)
{
	unsigned long v;

	if (!fwft_available())
		return;
	for (v = 0; v <= 1; v++) {
		CHECK_ERR(fwft_set(SBI_FWFT_MISALIGNED_EXC_DELEG, v, 0).error, SBI_SUCCESS,
			  "fwft_set(MISALIGNED_EXC_DELEG, %lu)", v);
		check_value(SBI_FWFT_MISALIGNED_EXC_DELEG, v, "after set");
		/* "The set operation will succeed if requested value matches
		 * the existing value." */
		CHECK_ERR(fwft_set(SBI_FWFT_MISALIGNED_EXC_DELEG, v, 0).error, SBI_SUCCESS,
			  "fwft_set(MISALIGNED_EXC_DELEG, %lu) again", v);
	}
	fwft_set(SBI_FWFT_MISALIGNED_EXC_DELEG, 0, 0);
}

/* A misaligned atomic on `addr`; the fault S-mode took (0: none). */
static unsigned long misaligned_amo(uintptr_t addr, unsigned long *tval)
{
	unsigned long cause = 0, one = 1;

	fault_expect(false);
	__asm__ volatile(".option push\n.option norvc\namoadd.w zero, %1, (%0)\n.option pop"
			 :: "r"(addr), "r"(one) : "memory");
	if (!fault_end(&cause, tval))
		return 0;
	return cause;
}

static unsigned long misaligned_lr(uintptr_t addr, unsigned long *tval)
{
	unsigned long cause = 0, v;

	fault_expect(false);
	__asm__ volatile(".option push\n.option norvc\nlr.w %0, (%1)\n.option pop"
			 : "=r"(v) : "r"(addr) : "memory");
	(void)v;
	if (!fault_end(&cause, tval))
		return 0;
	return cause;
}

static uint32_t amo_words[4] __attribute__((aligned(16)));

/* Delegated: the hart's own misaligned exceptions reach S-mode.  Not
 * delegated: the firmware sees them first and, not emulating atomics,
 * hands S-mode the access fault. */
static void misaligned_deleg_delivers(void)
{
	uintptr_t addr = (uintptr_t)amo_words + 1;
	unsigned long cause, tval = 0;

	if (!fwft_available())
		return;
	CHECK_ERR(fwft_set(SBI_FWFT_MISALIGNED_EXC_DELEG, 1, 0).error, SBI_SUCCESS,
		  "fwft_set(MISALIGNED_EXC_DELEG, 1)");
	cause = misaligned_amo(addr, &tval);
	CHECK_EQ(cause, EXC_MISALIGNED_STORE, "misaligned amoadd.w, delegated: scause");
	CHECK_EQ(tval, addr, "misaligned amoadd.w, delegated: stval");
	cause = misaligned_lr(addr, &tval);
	CHECK_EQ(cause, EXC_MISALIGNED_LOAD, "misaligned lr.w, delegated: scause");
	CHECK_ERR(fwft_set(SBI_FWFT_MISALIGNED_EXC_DELEG, 0, 0).error, SBI_SUCCESS,
		  "fwft_set(MISALIGNED_EXC_DELEG, 0)");
	cause = misaligned_amo(addr, &tval);
	CHECK_EQ(cause, EXC_STORE_ACCESS_FAULT, "misaligned amoadd.w, not delegated: scause");
	CHECK_EQ(tval, addr, "misaligned amoadd.w, not delegated: stval");
	cause = misaligned_lr(addr, &tval);
	CHECK_EQ(cause, EXC_LOAD_ACCESS_FAULT, "misaligned lr.w, not delegated: scause");
	CHECK_EQ(amo_words[0], 0, "the faulting atomics wrote memory");
}

static void invalid_values(void)
{
	static const unsigned long values[] = { 2, 0x100, (unsigned long)-1 };
	size_t i;

	if (!fwft_available())
		return;
	for (i = 0; i < sizeof(values) / sizeof(values[0]); i++)
		CHECK_ERR(fwft_set(SBI_FWFT_MISALIGNED_EXC_DELEG, values[i], 0).error,
			  SBI_ERR_INVALID_PARAM, "fwft_set(MISALIGNED_EXC_DELEG, %#lx)", values[i]);
	check_value(SBI_FWFT_MISALIGNED_EXC_DELEG, 0, "after refused sets");
}

/* flags BIT[XLEN-1:1] "must be zero". */
static void reserved_flags(void)
{
	static const unsigned long flags[] = { 2, 3, 1ul << 31, 1ul << 63 };
	size_t i;

	if (!fwft_available())
		return;
	for (i = 0; i < sizeof(flags) / sizeof(flags[0]); i++)
		CHECK_ERR(fwft_set(SBI_FWFT_MISALIGNED_EXC_DELEG, 1, flags[i]).error,
			  SBI_ERR_INVALID_PARAM, "fwft_set(MISALIGNED_EXC_DELEG, 1, flags %#lx)",
			  flags[i]);
	check_value(SBI_FWFT_MISALIGNED_EXC_DELEG, 0, "after refused sets");
}

/* feature is a uint32_t: bits 63:32 of a0 are not part of it. */
static void feature_is_32_bits(void)
{
	if (!fwft_available())
		return;
	check_value((1ul << 32) | SBI_FWFT_MISALIGNED_EXC_DELEG, 0, "with bit 32 of a0 set");
}

struct needs {
	unsigned long feature;
	const char *name, *ext;
	unsigned long on;   /* a value that enables it */
};

static const struct needs needs[] = {
	{ SBI_FWFT_LANDING_PAD, "LANDING_PAD", "zicfilp", 1 },
	{ SBI_FWFT_SHADOW_STACK, "SHADOW_STACK", "zicfiss", 1 },
	{ SBI_FWFT_DOUBLE_TRAP, "DOUBLE_TRAP", "ssdbltrp", 1 },
	{ SBI_FWFT_PTE_AD_HW_UPDATING, "PTE_AD_HW_UPDATING", "svadu", 1 },
	{ SBI_FWFT_POINTER_MASKING_PMLEN, "POINTER_MASKING_PMLEN", "ssnpm", 7 },
};

/* NOT_SUPPORTED (value 0) exactly where the harts lack the extension. */
static void features_need_their_extension(void)
{
	size_t i;

	if (!fwft_available())
		return;
	for (i = 0; i < sizeof(needs) / sizeof(needs[0]); i++) {
		const struct needs *n = &needs[i];
		struct sbiret r = fwft_get(n->feature);

		if (dt_mentions(n->ext)) {
			CHECK_ERR(r.error, SBI_SUCCESS, "fwft_get(%s) with %s", n->name, n->ext);
			CHECK_EQ(r.value, 0, "fwft_get(%s): reset value", n->name);
			continue;
		}
		CHECK_ERR(r.error, SBI_ERR_NOT_SUPPORTED, "fwft_get(%s) without %s", n->name,
			  n->ext);
		CHECK_EQ(r.value, 0, "fwft_get(%s) value on an error", n->name);
		CHECK_ERR(fwft_set(n->feature, 0, 0).error, SBI_ERR_NOT_SUPPORTED,
			  "fwft_set(%s, 0) without %s", n->name, n->ext);
		CHECK_ERR(fwft_set(n->feature, n->on, SBI_FWFT_SET_FLAG_LOCK).error,
			  SBI_ERR_NOT_SUPPORTED, "fwft_set(%s, %lu, LOCK) without %s", n->name,
			  n->on, n->ext);
	}
}

/* Reserved and platform-specific (none implemented) features: DENIED. */
static void reserved_features_denied(void)
{
	static const unsigned long ids[] = {
		SBI_FWFT_LOCAL_RESERVED_FIRST, 0x3fffffff, SBI_FWFT_PLATFORM_LOCAL_FIRST,
		0x7fffffff, SBI_FWFT_GLOBAL_RESERVED_FIRST, 0xbfffffff,
		SBI_FWFT_PLATFORM_GLOBAL_FIRST, 0xffffffff,
	};
	size_t i;

	if (!fwft_available())
		return;
	for (i = 0; i < sizeof(ids) / sizeof(ids[0]); i++) {
		struct sbiret r = fwft_get(ids[i]);

		CHECK_ERR(r.error, SBI_ERR_DENIED, "fwft_get(%#lx)", ids[i]);
		CHECK_EQ(r.value, 0, "fwft_get(%#lx) value on an error", ids[i]);
		CHECK_ERR(fwft_set(ids[i], 0, 0).error, SBI_ERR_DENIED, "fwft_set(%#lx, 0)",
			  ids[i]);
	}
}

static void unknown_fid(void)
{
	if (!fwft_available())
		return;
	CHECK_ERR(SBI0(SBI_EXT_FWFT, 2).error, SBI_ERR_NOT_SUPPORTED, "FWFT FID 2");
	CHECK_ERR(SBI0(SBI_EXT_FWFT, 0xFFFFFFFF).error, SBI_ERR_NOT_SUPPORTED,
		  "FWFT FID 0xFFFFFFFF");
}

/* ---- on a secondary hart: per-hart state, LOCK until hart reset ---- */

static long get_misaligned_call(unsigned long arg)
{
	struct sbiret r = fwft_get(SBI_FWFT_MISALIGNED_EXC_DELEG);

	(void)arg;
	return r.error ? -1000 + r.error : r.value;
}

/* Set with LOCK, then every further set is DENIED_LOCKED: returns the
 * first unexpected error as -1000 + error, or the locked value. */
static long lock_call(unsigned long value)
{
	unsigned long v;
	long e = fwft_set(SBI_FWFT_MISALIGNED_EXC_DELEG, value, SBI_FWFT_SET_FLAG_LOCK).error;

	if (e)
		return -1000 + e;
	for (v = 0; v <= 1; v++) {
		e = fwft_set(SBI_FWFT_MISALIGNED_EXC_DELEG, v, 0).error;
		if (e != SBI_ERR_DENIED_LOCKED)
			return -2000 + e - (long)v * 100;
		e = fwft_set(SBI_FWFT_MISALIGNED_EXC_DELEG, v, SBI_FWFT_SET_FLAG_LOCK).error;
		if (e != SBI_ERR_DENIED_LOCKED)
			return -3000 + e - (long)v * 100;
	}
	return get_misaligned_call(0);
}

static void per_hart_state(void)
{
	long h = other_hart(0), result = -1;

	if (!fwft_available() || !need_secondaries())
		return;
	CHECK_ERR(fwft_set(SBI_FWFT_MISALIGNED_EXC_DELEG, 1, 0).error, SBI_SUCCESS,
		  "fwft_set(MISALIGNED_EXC_DELEG, 1) on the boot hart");
	if (CHECK(hart_call(h, get_misaligned_call, 0, 2000000, &result), "hart %ld hangs", h))
		CHECK_EQ(result, 0, "MISALIGNED_EXC_DELEG on hart %ld after the boot hart set it",
			 h);
	fwft_set(SBI_FWFT_MISALIGNED_EXC_DELEG, 0, 0);
}

/* LOCK holds until hart reset (HSM stop + start), which brings the reset
 * value back and unlocks. */
static void lock_until_hart_reset(void)
{
	long h = other_hart(0), result = -1;

	if (!fwft_available() || !need_secondaries())
		return;
	if (!CHECK(hart_call(h, lock_call, 1, 2000000, &result), "hart %ld hangs", h))
		return;
	if (!CHECK(result == 1, "locking MISALIGNED_EXC_DELEG = 1 on hart %ld: result %ld "
		   "(-1000: the set, -2000/-3000: a set after it; + error - 100 * value)",
		   h, result))
		return;
	check_value(SBI_FWFT_MISALIGNED_EXC_DELEG, 0, "on the boot hart while hart h locked it");
	if (!restart_hart(h, OPAQUE_FWFT))
		return;
	if (CHECK(hart_call(h, get_misaligned_call, 0, 2000000, &result), "hart %ld hangs", h))
		CHECK_EQ(result, 0, "MISALIGNED_EXC_DELEG on hart %ld after its reset", h);
	if (CHECK(hart_call(h, lock_call, 0, 2000000, &result), "hart %ld hangs", h))
		CHECK_EQ(result, 0, "a new LOCK after the reset on hart %ld", h);
	restart_hart(h, OPAQUE_FWFT);
}

/* "During non-retentive suspend, feature values are retained". */
static long set_and_suspend_call(unsigned long arg)
{
	struct sbiret r;

	(void)arg;
	if (fwft_set(SBI_FWFT_MISALIGNED_EXC_DELEG, 1, 0).error)
		return -1;
	csr_write(sie, SIE_STIE);
	sbi_set_timer(read_time() + us_to_ticks(10000));
	r = sbi_hart_suspend(SBI_HSM_SUSPEND_NON_RET_DEFAULT, (uintptr_t)secondary_entry,
			     OPAQUE_FWFT);
	sbi_set_timer(UINT64_MAX);
	csr_write(sie, SIE_SSIE);
	return r.error ? r.error : -100;   /* it must not return */
}

static long get_and_clear_call(unsigned long arg)
{
	long v = get_misaligned_call(arg);

	fwft_set(SBI_FWFT_MISALIGNED_EXC_DELEG, 0, 0);
	return v;
}

static void kept_over_non_retentive_suspend(void)
{
	long h = other_hart(0), result = -1;
	unsigned long old;

	if (!fwft_available() || !need_secondaries())
		return;
	old = mailbox[h].entry.count;
	hart_post(h, set_and_suspend_call, 0);
	if (!CHECK(hart_wait_entry(h, old, 2000000), "hart %ld did not resume", h))
		return;
	if (CHECK(hart_call(h, get_and_clear_call, 0, 2000000, &result), "hart %ld hangs", h))
		CHECK_EQ(result, 1, "MISALIGNED_EXC_DELEG on hart %ld after a non-retentive "
			 "suspend", h);
}

static const struct target_test tests[] = {
	{ "probe_fwft", probe_fwft, DEV_NONE },
	{ "misaligned_deleg_reset_value", misaligned_deleg_reset_value, DEV_NONE },
	{ "misaligned_deleg_set_get", misaligned_deleg_set_get, DEV_NONE },
	{ "misaligned_deleg_delivers", misaligned_deleg_delivers, DEV_NONE },
	{ "invalid_values", invalid_values, DEV_NONE },
	{ "reserved_flags", reserved_flags, DEV_NONE },
	{ "feature_is_32_bits", feature_is_32_bits, DEV_NONE },
	{ "features_need_their_extension", features_need_their_extension, DEV_NONE },
	{ "reserved_features_denied", reserved_features_denied, DEV_NONE },
	{ "unknown_fid", unknown_fid, DEV_NONE },
	{ "per_hart_state", per_hart_state, DEV_NONE },
	{ "lock_until_hart_reset", lock_until_hart_reset, DEV_NONE },
	{ "kept_over_non_retentive_suspend", kept_over_non_retentive_suspend, DEV_NONE },
};
GROUP(fwft, tests);
