/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The firmware protects its memory from S-mode (PMP): S-mode accesses to the
 * region the DTB's /reserved-memory gives for it fault with an access fault
 * delivered to S-mode; the first byte after it is ordinary RAM.
 */
#include "testlib.h"

static void reserved_region_is_firmware(void)
{
	uintptr_t img = (uintptr_t)__image_start;

	CHECK(fw_base() == plat.ram_base, "firmware region starts at %lx, RAM at %lx",
	      (unsigned long)fw_base(), (unsigned long)plat.ram_base);
	CHECK(fw_end() > fw_base() && fw_end() <= img,
	      "firmware region %lx..%lx overlaps the payload at %lx or is empty",
	      (unsigned long)fw_base(), (unsigned long)fw_end(), (unsigned long)img);
}

/* Loads from the first, second and last page of a copy of the firmware's
 * region at `base` (the region itself, or where an alias shows it) fault. */
static void check_region_load_faults(uintptr_t base)
{
	const uintptr_t addrs[] = { base, base + 0x1000, base + (fw_end() - fw_base()) - 8 };
	size_t i;

	for (i = 0; i < sizeof(addrs) / sizeof(addrs[0]); i++) {
		unsigned long cause = 0;
		uint64_t v = 0;

		if (probe_load64(addrs[i], &v, &cause)) {
			check_failed("load from %lx did not fault (read %lx)",
				     (unsigned long)addrs[i], (unsigned long)v);
			continue;
		}
		CHECK_EQ(cause, EXC_LOAD_ACCESS_FAULT, "scause of a load from %lx",
			 (unsigned long)addrs[i]);
	}
}

static void load_faults(void)
{
	check_region_load_faults(fw_base());
}

static void load_fault_stval(void)
{
	unsigned long cause, tval;

	fault_expect(false);
	raw_load64(fw_base() + 0x40);
	if (!CHECK(fault_end(&cause, &tval), "load from %lx did not fault",
		   (unsigned long)fw_base() + 0x40))
		return;
	CHECK_EQ(cause, EXC_LOAD_ACCESS_FAULT, "scause of the load");
	CHECK_EQ(tval, fw_base() + 0x40, "stval of the load access fault");
}

static void store_faults(void)
{
	unsigned long cause, tval;

	/* The firmware's first word is its cold-boot entry: the least harmful
	 * place to scribble on should the protection be missing. */
	fault_expect(false);
	raw_store64(fw_base(), 0);
	if (!fault_end(&cause, &tval)) {
		check_failed("store to %lx did not fault", (unsigned long)fw_base());
		return;
	}
	CHECK_EQ(cause, EXC_STORE_ACCESS_FAULT, "scause of a store to %lx",
		 (unsigned long)fw_base());
	CHECK_EQ(tval, fw_base(), "stval of the store access fault");
}

static void fetch_faults(void)
{
	unsigned long cause;

	if (probe_exec(fw_base(), &cause)) {
		check_failed("jump to %lx did not fault", (unsigned long)fw_base());
		return;
	}
	CHECK_EQ(cause, EXC_INSN_ACCESS_FAULT, "scause of a fetch from %lx",
		 (unsigned long)fw_base());
}

/* The boundary is exact: RAM right after the firmware region is S-mode's. */
static void ram_after_firmware_accessible(void)
{
	unsigned long cause = 0;
	uint64_t v;

	if (fw_end() >= (uintptr_t)__image_start)
		return;   /* reserved_region_is_firmware reports this */
	CHECK(probe_load64(fw_end(), &v, &cause), "load from %lx faulted (scause %lu)",
	      (unsigned long)fw_end(), cause);
	CHECK(probe_store64(fw_end(), v, &cause), "store to %lx faulted (scause %lu)",
	      (unsigned long)fw_end(), cause);
}

/*
 * A board whose RAM answers at a second address (the PolarFire SoC's
 * non-cached DDR window): the runner names where the firmware's region
 * appears there (fw-alias=ADDR), and S-mode must fault there as at the
 * region itself.  Loads and a jump only: a store that did not fault would
 * write the firmware.
 */
/* A hex number ("0x" optional), or 0. */
static uintptr_t parse_hex(const char *p)
{
	uintptr_t n = 0;

	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
		p += 2;
	for (; *p; p++) {
		int d = *p >= '0' && *p <= '9' ? *p - '0' :
			*p >= 'a' && *p <= 'f' ? *p - 'a' + 10 :
			*p >= 'A' && *p <= 'F' ? *p - 'A' + 10 : -1;

		if (d < 0)
			return 0;
		n = n * 16 + (uintptr_t)d;
	}
	return n;
}

static void alias_faults(void)
{
	char v[24];
	uintptr_t alias;
	unsigned long cause = 0;

	if (!bootarg("fw-alias", v, sizeof(v))) {
		test_not_applicable("the runner names no alias of the firmware's region (fw-alias=)");
		return;
	}
	alias = parse_hex(v);
	if (!CHECK(alias != 0, "fw-alias=%s is no hex address", v))
		return;
	check_region_load_faults(alias);
	if (probe_exec(alias, &cause))
		check_failed("jump to the alias %lx did not fault", (unsigned long)alias);
	else
		CHECK_EQ(cause, EXC_INSN_ACCESS_FAULT, "scause of a jump to the alias %lx",
			 (unsigned long)alias);
}

static const struct target_test tests[] = {
	{ "reserved_region_is_firmware", reserved_region_is_firmware, DEV_NONE },
	{ "load_faults", load_faults, DEV_NONE },
	{ "load_fault_stval", load_fault_stval, DEV_NONE },
	{ "store_faults", store_faults, DEV_NONE },
	{ "fetch_faults", fetch_faults, DEV_NONE },
	{ "ram_after_firmware_accessible", ram_after_firmware_accessible, DEV_NONE },
	{ "alias_faults", alias_faults, DEV_NONE },
};
GROUP(pmp, tests);
