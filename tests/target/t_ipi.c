/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * IPI extension (ext-ipi.adoc) and the hart mask rules of the binary
 * encoding: each targeted hart sees a supervisor software interrupt.
 */
#include "testlib.h"

static unsigned long ssi_counts[MAX_HARTS];

static void snapshot_ssi(void)
{
	int i;

	for (i = 0; i < plat.nharts; i++)
		ssi_counts[i] = trap_record_of(plat.hart_ids[i])->ssi_count;
}

static bool got_ssi(unsigned long index)
{
	return trap_record_of(plat.hart_ids[index])->ssi_count != ssi_counts[index];
}

/* Every secondary in `mask` (bit = index into plat.hart_ids) received an SSI. */
static void check_secondaries_got_ssi(unsigned long idx_mask, const char *what)
{
	int i;

	for (i = 0; i < plat.nharts; i++) {
		if (plat.hart_ids[i] == plat.boot_hart || !(idx_mask & (1ul << i)))
			continue;
		CHECK(wait_for(got_ssi, i, 2000000), "%s: hart %lu received no SSI", what,
		      plat.hart_ids[i]);
	}
}

/* The boot hart itself: SSIP becomes pending (sie.SSIE = 0, nothing taken). */
static bool self_ssip_within(uint64_t timeout_us)
{
	uint64_t deadline = read_time() + us_to_ticks(timeout_us);
	bool seen;

	while (!(seen = csr_read(sip) & SIP_SSIP) && read_time() < deadline)
		;
	csr_clear(sip, SIP_SSIP);
	return seen;
}

static void to_self(void)
{
	csr_clear(sie, SIE_SSIE);
	csr_clear(sip, SIP_SSIP);
	CHECK_ERR(sbi_send_ipi(1, plat.boot_hart).error, SBI_SUCCESS, "send_ipi(1, %lu)",
		  plat.boot_hart);
	CHECK(self_ssip_within(100000), "no SSIP on the sending hart");
}

static void to_each_other_hart(void)
{
	int i;

	if (!need_secondaries())
		return;
	for (i = 0; i < plat.nharts; i++) {
		unsigned long h = plat.hart_ids[i];

		if (h == plat.boot_hart)
			continue;
		snapshot_ssi();
		CHECK_ERR(sbi_send_ipi(1, h).error, SBI_SUCCESS, "send_ipi(1, %lu)", h);
		CHECK(wait_for(got_ssi, i, 2000000), "hart %lu received no SSI", h);
	}
}

static void mask_of_many(void)
{
	unsigned long mask = 0, idx_mask = 0;
	int i;

	if (!need_secondaries())
		return;
	for (i = 0; i < plat.nharts; i++)
		if (plat.hart_ids[i] != plat.boot_hart) {
			mask |= 1ul << plat.hart_ids[i];
			idx_mask |= 1ul << i;
		}
	snapshot_ssi();
	CHECK_ERR(sbi_send_ipi(mask, 0).error, SBI_SUCCESS, "send_ipi(%#lx, 0)", mask);
	check_secondaries_got_ssi(idx_mask, "mask of all secondaries");
	/* The same set through a non-zero base. */
	snapshot_ssi();
	CHECK_ERR(sbi_send_ipi(mask >> 1, 1).error, SBI_SUCCESS, "send_ipi(%#lx, 1)", mask >> 1);
	check_secondaries_got_ssi(idx_mask & ~1ul, "base 1");
}

static void base_minus_one_means_all(void)
{
	if (!need_secondaries())
		return;
	csr_clear(sie, SIE_SSIE);
	csr_clear(sip, SIP_SSIP);
	snapshot_ssi();
	/* hart_mask is ignored: 0 here must still reach everyone. */
	CHECK_ERR(sbi_send_ipi(0, (unsigned long)-1).error, SBI_SUCCESS, "send_ipi(0, -1)");
	check_secondaries_got_ssi(~0ul, "base -1");
	CHECK(self_ssip_within(100000), "base -1: no SSIP on the sending hart");
}

static void empty_mask(void)
{
	csr_clear(sip, SIP_SSIP);
	CHECK_ERR(sbi_send_ipi(0, 0).error, SBI_SUCCESS, "send_ipi(0, 0)");
	CHECK_ERR(sbi_send_ipi(0, plat.boot_hart).error, SBI_SUCCESS, "send_ipi(0, %lu)",
		  plat.boot_hart);
	CHECK(!self_ssip_within(1000), "an empty mask raised SSIP on the sending hart");
}

/* "hart_mask_base does not need to be an enabled or supervisor available
 * hartid unless the zeroth bit of hart_mask is set." */
static void empty_mask_any_base(void)
{
	csr_clear(sip, SIP_SSIP);
	CHECK_ERR(sbi_send_ipi(0, plat.max_hart_id + 1).error, SBI_SUCCESS,
		  "send_ipi(0, %lu)", plat.max_hart_id + 1);
	CHECK_ERR(sbi_send_ipi(0, 100000).error, SBI_SUCCESS, "send_ipi(0, 100000)");
	CHECK_ERR(sbi_send_ipi(2, plat.max_hart_id).error, SBI_ERR_INVALID_PARAM,
		  "send_ipi(2, %lu)", plat.max_hart_id);
	CHECK(!self_ssip_within(1000), "an empty mask raised SSIP on the sending hart");
}

static void invalid_hart_in_mask(void)
{
	unsigned long past = plat.max_hart_id + 1;

	CHECK_ERR(sbi_send_ipi(1ul << past, 0).error, SBI_ERR_INVALID_PARAM,
		  "send_ipi(1 << %lu, 0)", past);
	CHECK_ERR(sbi_send_ipi(1ul << 63, 0).error, SBI_ERR_INVALID_PARAM, "send_ipi(1 << 63, 0)");
	CHECK_ERR(sbi_send_ipi(1ul << plat.boot_hart | 1ul << past, 0).error,
		  SBI_ERR_INVALID_PARAM, "send_ipi(valid | invalid, 0)");
	csr_clear(sip, SIP_SSIP);
}

static void base_beyond_last_hart(void)
{
	unsigned long past = plat.max_hart_id + 1;

	CHECK_ERR(sbi_send_ipi(1, past).error, SBI_ERR_INVALID_PARAM, "send_ipi(1, %lu)", past);
	CHECK_ERR(sbi_send_ipi(3, past + 64).error, SBI_ERR_INVALID_PARAM, "send_ipi(3, %lu)",
		  past + 64);
	/* A base that wraps the mask past the end of hart ids. */
	CHECK_ERR(sbi_send_ipi(1, (unsigned long)-2).error, SBI_ERR_INVALID_PARAM,
		  "send_ipi(1, -2)");
	csr_clear(sip, SIP_SSIP);
}

static const struct target_test tests[] = {
	{ "to_self", to_self, DEV_NONE },
	{ "to_each_other_hart", to_each_other_hart, DEV_NONE },
	{ "mask_of_many", mask_of_many, DEV_NONE },
	{ "base_minus_one_means_all", base_minus_one_means_all, DEV_NONE },
	{ "empty_mask", empty_mask, DEV_NONE },
	{ "empty_mask_any_base", empty_mask_any_base, DEV_OPENSBI_MASK_BASE },
	{ "invalid_hart_in_mask", invalid_hart_in_mask, DEV_OPENSBI_HART_MASK },
	{ "base_beyond_last_hart", base_beyond_last_hart, DEV_NONE },
};
GROUP(ipi, tests);
