// SPDX-License-Identifier: BSD-2-Clause
/*
 * SBI Firmware Features (ext-firmware-features.adoc).  Each feature is a
 * row of data: whether this hart can have it (probed at boot,
 * features_probe_fwft),
 * which values it takes, and how a value reaches the hart (medeleg or a
 * menvcfg field).  Values and locks live in struct hart (fwft_hart): every
 * feature of the spec is local, and a hart reset (boot, HSM stop) puts
 * each back to its reset value, unlocked.
 */
#include "firmware/service/fwft.h"
#include "firmware/core/riscv_csr.h"

_Static_assert(sizeof(((struct fwft_hart *)0)->value) == FWFT_FEATURES, "one value a feature");

/* Misaligned load/store exceptions; misaligned fetches are always
 * delegated (init.c). */
#define MEDELEG_MISALIGNED_LS ((1UL << CAUSE_MISALIGNED_LOAD) | (1UL << CAUSE_MISALIGNED_STORE))

struct fwft_feature {
	bool (*supported)(const struct fwft_support *s);
	bool (*value_ok)(const struct fwft_support *s, unsigned long value);
	void (*apply)(unsigned long value);
};

static bool has_misaligned_deleg(const struct fwft_support *s) { return s->misaligned_deleg; }
static bool has_zicfilp(const struct fwft_support *s) { return s->zicfilp; }
static bool has_zicfiss(const struct fwft_support *s) { return s->zicfiss; }
static bool has_ssdbltrp(const struct fwft_support *s) { return s->ssdbltrp; }
static bool has_svadu(const struct fwft_support *s) { return s->svadu; }
static bool has_ssnpm(const struct fwft_support *s) { return s->pmm_values != 0; }

static bool value_is_bool(const struct fwft_support *s, unsigned long value)
{
	(void)s;
	return value <= 1;
}

/* PMLEN -> menvcfg.PMM (Ssnpm: PMM 2 is PMLEN = XLEN - 57 = 7, PMM 3 is
 * PMLEN = XLEN - 48 = 16); 0 turns pointer masking off; -1: no such PMLEN. */
static int pmm_of_pmlen(unsigned long pmlen)
{
	switch (pmlen) {
	case 0: return 0;
	case 7: return 2;
	case 16: return 3;
	default: return -1;
	}
}

/* A PMLEN the hart implements exactly (the spec's "N: PMLEN = N"). */
static bool value_is_pmlen(const struct fwft_support *s, unsigned long value)
{
	int pmm = pmm_of_pmlen(value);

	return pmm == 0 || (pmm > 0 && (s->pmm_values & (1u << pmm)));
}

static void menvcfg_put(unsigned long field, unsigned long bits)
{
	csr_write(CSR_MENVCFG, (csr_read(CSR_MENVCFG) & ~field) | bits);
}

static void apply_misaligned_deleg(unsigned long on)
{
	if (on)
		csr_set(medeleg, MEDELEG_MISALIGNED_LS);
	else
		csr_clear(medeleg, MEDELEG_MISALIGNED_LS);
}

static void apply_landing_pad(unsigned long on) { menvcfg_put(MENVCFG_LPE, on ? MENVCFG_LPE : 0); }
static void apply_shadow_stack(unsigned long on) { menvcfg_put(MENVCFG_SSE, on ? MENVCFG_SSE : 0); }
static void apply_double_trap(unsigned long on) { menvcfg_put(MENVCFG_DTE, on ? MENVCFG_DTE : 0); }
static void apply_pte_ad(unsigned long on) { menvcfg_put(MENVCFG_ADUE, on ? MENVCFG_ADUE : 0); }

static void apply_pmlen(unsigned long pmlen)
{
	int pmm = pmm_of_pmlen(pmlen);

	menvcfg_put(MENVCFG_PMM, (unsigned long)(pmm > 0 ? pmm : 0) << MENVCFG_PMM_SHIFT);
}

/* Table "FWFT Feature Attribute Values", by feature ID. */
static const struct fwft_feature features[FWFT_FEATURES] = {
	[SBI_FWFT_MISALIGNED_EXC_DELEG] = { has_misaligned_deleg, value_is_bool,
					    apply_misaligned_deleg },
	[SBI_FWFT_LANDING_PAD] = { has_zicfilp, value_is_bool, apply_landing_pad },
	[SBI_FWFT_SHADOW_STACK] = { has_zicfiss, value_is_bool, apply_shadow_stack },
	[SBI_FWFT_DOUBLE_TRAP] = { has_ssdbltrp, value_is_bool, apply_double_trap },
	[SBI_FWFT_PTE_AD_HW_UPDATING] = { has_svadu, value_is_bool, apply_pte_ad },
	[SBI_FWFT_POINTER_MASKING_PMLEN] = { has_ssnpm, value_is_pmlen, apply_pmlen },
};

long fwft_set(struct hart *self, uint32_t feature, unsigned long value, unsigned long flags)
{
	long ret = fwft_feature_check(self, feature);

	if (ret)
		return ret;
	if ((flags & ~SBI_FWFT_SET_FLAG_LOCK) ||
	    !features[feature].value_ok(&self->fwft.support, value))
		return SBI_ERR_INVALID_PARAM;
	/* LOCK: "the feature value can no longer be modified until hart
	 * reset" — a set of the same value is refused too. */
	if (self->fwft.locked & (1u << feature))
		return SBI_ERR_DENIED_LOCKED;
	features[feature].apply(value);
	self->fwft.value[feature] = (uint8_t)value;
	if (flags & SBI_FWFT_SET_FLAG_LOCK)
		self->fwft.locked |= (uint8_t)(1u << feature);
	return SBI_SUCCESS;
}

/* Reset values: 0 for every feature (MISALIGNED_EXC_DELEG's is the
 * implementation's choice: off, the firmware emulates misaligned accesses). */
void fwft_hart_reset(struct hart *self)
{
	unsigned int f;

	self->fwft.supported = 0;
	for (f = 0; f < FWFT_FEATURES; f++) {
		if (features[f].supported(&self->fwft.support)) {
			self->fwft.supported |= (uint8_t)(1u << f);
			features[f].apply(0);
		}
		self->fwft.value[f] = 0;
	}
	self->fwft.locked = 0;
}
