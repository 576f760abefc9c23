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

static void load_faults(void)
{
	const uintptr_t addrs[] = { fw_base(), fw_base() + 0x1000, fw_end() - 8 };
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

static const struct target_test tests[] = {
	{ "reserved_region_is_firmware", reserved_region_is_firmware, DEV_NONE },
	{ "load_faults", load_faults, DEV_NONE },
	{ "load_fault_stval", load_fault_stval, DEV_NONE },
	{ "store_faults", store_faults, DEV_NONE },
	{ "fetch_faults", fetch_faults, DEV_NONE },
	{ "ram_after_firmware_accessible", ram_after_firmware_accessible, DEV_NONE },
};
GROUP(pmp, tests);
