// SPDX-License-Identifier: BSD-2-Clause
/*
 * System reset devices: "syscon-poweroff" / "syscon-reboot" (a value written
 * to a register of the syscon node their "regmap" phandle names, at
 * "offset", under "mask") and, when those are absent, the "sifive,test0"
 * finisher directly (0x5555 pass/poweroff, 0x7777 reset, 0x3333 fail).
 */
#include "firmware/core/driver.h"
#include "firmware/core/platform.h"

#define SIFIVE_TEST_FAIL  0x3333
#define SIFIVE_TEST_PASS  0x5555
#define SIFIVE_TEST_RESET 0x7777

static int syscon_action(const struct fdt *fdt, int node, enum platform_reset which)
{
	struct reset_action act = { .present = true };
	uint32_t regmap, offset = 0, value, mask = 0xffffffffu;
	uint64_t base, size;
	int syscon;

	if (fdt_prop_u32(fdt, node, "regmap", &regmap) < 0 ||
	    fdt_prop_u32(fdt, node, "value", &value) < 0)
		return -1;
	fdt_prop_u32(fdt, node, "offset", &offset);
	fdt_prop_u32(fdt, node, "mask", &mask);
	syscon = fdt_find_phandle(fdt, regmap);
	if (syscon < 0 || fdt_get_reg(fdt, syscon, 0, &base, &size) < 0 ||
	    offset + 4 > size)
		return -1;
	act.reg = (volatile uint32_t *)(uintptr_t)(base + offset);
	act.value = value;
	act.mask = mask;
	platform_register_reset(which, &act, false);
	return 0;
}

/* A syscon-poweroff / syscon-reboot node overrides the sifive,test0
 * default, whichever comes first in the tree. */
static int syscon_poweroff_probe(const struct fdt *fdt, int node, int parent)
{
	(void)parent;
	return syscon_action(fdt, node, PLATFORM_POWEROFF);
}

static int syscon_reboot_probe(const struct fdt *fdt, int node, int parent)
{
	(void)parent;
	return syscon_action(fdt, node, PLATFORM_REBOOT);
}

static volatile uint32_t *sifive_test;

/* FAIL with the exit status in bits 31:16. */
static void sifive_test_exit(uint32_t status)
{
	*sifive_test = status << 16 | SIFIVE_TEST_FAIL;
}

static int sifive_test_probe(const struct fdt *fdt, int node, int parent)
{
	uint64_t base, size;
	volatile uint32_t *reg;

	if (fdt_get_reg_under(fdt, parent, node, 0, &base, &size) < 0 || size < 4)
		return -1;
	reg = (volatile uint32_t *)(uintptr_t)base;
	sifive_test = reg;
	platform_register_exit_status(sifive_test_exit);
	platform_register_reset(PLATFORM_POWEROFF,
				&(struct reset_action){ true, reg, SIFIVE_TEST_PASS, 0xffffffffu, NULL },
				true);
	platform_register_reset(PLATFORM_REBOOT,
				&(struct reset_action){ true, reg, SIFIVE_TEST_RESET, 0xffffffffu, NULL },
				true);
	return 0;
}

DT_DRIVER(18, sifive_test_driver, "sifive,test0", sifive_test_probe);
DT_DRIVER(19, syscon_poweroff_driver, "syscon-poweroff", syscon_poweroff_probe);
DT_DRIVER(20, syscon_reboot_driver, "syscon-reboot", syscon_reboot_probe);
