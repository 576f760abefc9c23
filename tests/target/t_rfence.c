/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * RFENCE extension (ext-rfence.adoc).  QEMU executes fences without any
 * observable effect, so the tests check the result codes, that the targeted
 * harts keep running, and the hart mask errors.
 */
#include "testlib.h"

struct fence_target {
	const char *name;
	unsigned long mask, base;
};

static int fence_targets(struct fence_target *t)
{
	unsigned long others = 0;
	int i, n = 0;

	for (i = 0; i < plat.nharts; i++)
		if (plat.hart_ids[i] != plat.boot_hart)
			others |= 1ul << plat.hart_ids[i];
	t[n++] = (struct fence_target){ "self", 1, plat.boot_hart };
	t[n++] = (struct fence_target){ "others", others, 0 };
	t[n++] = (struct fence_target){ "all", 0, (unsigned long)-1 };
	t[n++] = (struct fence_target){ "one other", 1, (unsigned long)other_hart(0) };
	return n;
}

static struct sbiret rfence(int fid, unsigned long mask, unsigned long base, unsigned long start,
			    unsigned long size, unsigned long id)
{
	return sbi_ecall(SBI_EXT_RFENCE, fid, mask, base, start, size, id, 0);
}

static void remote_fence_i(void)
{
	struct fence_target t[4];
	int i, n;

	if (!need_secondaries())
		return;
	n = fence_targets(t);
	for (i = 0; i < n; i++)
		CHECK_ERR(rfence(SBI_RFENCE_REMOTE_FENCE_I, t[i].mask, t[i].base, 0, 0, 0).error,
			  SBI_SUCCESS, "remote_fence_i(%s)", t[i].name);
	check_secondaries_alive("remote_fence_i");
}

/* Ranges: whole space (0, 0) and (x, -1), one page, several pages. */
static const unsigned long ranges[][2] = {
	{ 0, 0 }, { 0, (unsigned long)-1 }, { 0x80200000, 0x1000 }, { 0x10000, 0x40000 },
};

/* remote_sfence_vma of each range to every kind of target succeeds, and
 * every secondary still answers afterwards. */
static void sfence_ranges_succeed(const unsigned long (*list)[2], size_t count,
				  const char *what)
{
	struct fence_target t[4];
	int i, n;
	size_t r;

	if (!need_secondaries())
		return;
	n = fence_targets(t);
	for (i = 0; i < n; i++)
		for (r = 0; r < count; r++)
			CHECK_ERR(rfence(SBI_RFENCE_REMOTE_SFENCE_VMA, t[i].mask, t[i].base,
					 list[r][0], list[r][1], 0).error,
				  SBI_SUCCESS, "remote_sfence_vma(%s, %#lx, %#lx)", t[i].name,
				  list[r][0], list[r][1]);
	check_secondaries_alive(what);
}

static void remote_sfence_vma(void)
{
	sfence_ranges_succeed(ranges, sizeof(ranges) / sizeof(ranges[0]), "remote_sfence_vma");
}

/*
 * Ranges at the top of the address space: the last byte is start + size - 1,
 * so a range may end exactly at 2^64 (valid), and a range ending inside the
 * last page must not make the flush loop wrap around.  Each call must come
 * back, on this hart and on the others.
 */
static void top_of_address_space(void)
{
	static const unsigned long top[][2] = {
		{ -4096UL, 4096 }, { -4096UL, 0xfff }, { -0x3000UL, 0x3000 },
	};

	sfence_ranges_succeed(top, sizeof(top) / sizeof(top[0]),
			      "remote_sfence_vma at the top of the address space");
}

/* RFENCE errors: SBI_ERR_INVALID_ADDRESS when start_addr or size is not
 * valid; a range running past 2^64 is not an address range. */
static void range_past_top_invalid(void)
{
	CHECK_ERR(rfence(SBI_RFENCE_REMOTE_SFENCE_VMA, 1, current_hart(), -4096UL, 4097, 0).error,
		  SBI_ERR_INVALID_ADDRESS, "remote_sfence_vma(self, -4096, 4097)");
	CHECK_ERR(rfence(SBI_RFENCE_REMOTE_SFENCE_VMA_ASID, 1, current_hart(), -2UL, 3, 0).error,
		  SBI_ERR_INVALID_ADDRESS, "remote_sfence_vma_asid(self, -2, 3)");
}

static void remote_sfence_vma_asid(void)
{
	static const unsigned long asids[] = { 0, 1, 0xFFFF };
	struct fence_target t[4];
	int i, n;
	size_t r, a;

	if (!need_secondaries())
		return;
	n = fence_targets(t);
	for (i = 0; i < n; i++)
		for (r = 0; r < sizeof(ranges) / sizeof(ranges[0]); r++)
			for (a = 0; a < sizeof(asids) / sizeof(asids[0]); a++)
				CHECK_ERR(rfence(SBI_RFENCE_REMOTE_SFENCE_VMA_ASID, t[i].mask,
						 t[i].base, ranges[r][0], ranges[r][1],
						 asids[a]).error,
					  SBI_SUCCESS, "remote_sfence_vma_asid(%s, %#lx, %#lx, asid %lu)",
					  t[i].name, ranges[r][0], ranges[r][1], asids[a]);
	check_secondaries_alive("remote_sfence_vma_asid");
}

static void invalid_harts(void)
{
	unsigned long past = plat.max_hart_id + 1;
	int fid;

	for (fid = SBI_RFENCE_REMOTE_FENCE_I; fid <= SBI_RFENCE_REMOTE_SFENCE_VMA_ASID; fid++) {
		CHECK_ERR(rfence(fid, 1ul << past, 0, 0, 0, 0).error, SBI_ERR_INVALID_PARAM,
			  "RFENCE FID %d, mask 1 << %lu", fid, past);
		CHECK_ERR(rfence(fid, 1, past, 0, 0, 0).error, SBI_ERR_INVALID_PARAM,
			  "RFENCE FID %d, base %lu", fid, past);
		CHECK_ERR(rfence(fid, 1ul << plat.boot_hart | 1ul << 63, 0, 0, 0, 0).error,
			  SBI_ERR_INVALID_PARAM, "RFENCE FID %d, valid | bit 63", fid);
	}
}

static void empty_mask(void)
{
	int fid;

	for (fid = SBI_RFENCE_REMOTE_FENCE_I; fid <= SBI_RFENCE_REMOTE_SFENCE_VMA_ASID; fid++)
		CHECK_ERR(rfence(fid, 0, 0, 0, 0, 0).error, SBI_SUCCESS,
			  "RFENCE FID %d, empty mask", fid);
}

/*
 * HFENCE (FIDs 3..6) is only valid for harts with the H extension: without
 * H the answer must be NOT_SUPPORTED; with H, SUCCESS or NOT_SUPPORTED (not
 * implemented), the same for every call of one function.  H is detected by
 * executing HFENCE.GVMA in HS-mode under the fault guard.
 */
static void hfence(void)
{
	static const char *const names[] = { "hfence_gvma_vmid", "hfence_gvma",
					      "hfence_vvma_asid", "hfence_vvma" };
	bool has_h = probe_hfence_gvma();
	struct fence_target t[4];
	int fid, i, n;

	if (!need_secondaries())
		return;
	n = fence_targets(t);
	for (fid = SBI_RFENCE_REMOTE_HFENCE_GVMA_VMID; fid <= SBI_RFENCE_REMOTE_HFENCE_VVMA; fid++) {
		const char *name = names[fid - SBI_RFENCE_REMOTE_HFENCE_GVMA_VMID];
		long first = rfence(fid, t[0].mask, t[0].base, 0, 0, 0).error;

		if (has_h)
			CHECK(first == SBI_SUCCESS || first == SBI_ERR_NOT_SUPPORTED,
			      "%s with H: expected SUCCESS or NOT_SUPPORTED, got %s", name,
			      sbi_error_name(first));
		else
			CHECK_ERR(first, SBI_ERR_NOT_SUPPORTED, "%s without H", name);
		for (i = 0; i < n; i++)
			CHECK_ERR(rfence(fid, t[i].mask, t[i].base, 0x1000, 0x1000, 1).error, first,
				  "%s(%s) after a first call", name, t[i].name);
	}
	check_secondaries_alive("hfence");
}

static const struct target_test tests[] = {
	{ "top_of_address_space", top_of_address_space, DEV_NONE },
	{ "range_past_top_invalid", range_past_top_invalid, DEV_OPENSBI_RANGE_CHECK },
	{ "remote_fence_i", remote_fence_i, DEV_NONE },
	{ "remote_sfence_vma", remote_sfence_vma, DEV_NONE },
	{ "remote_sfence_vma_asid", remote_sfence_vma_asid, DEV_NONE },
	{ "empty_mask", empty_mask, DEV_NONE },
	{ "invalid_harts", invalid_harts, DEV_OPENSBI_HART_MASK },
	{ "hfence", hfence, DEV_NONE },
};
GROUP(rfence, tests);
