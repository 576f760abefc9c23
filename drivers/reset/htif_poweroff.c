// SPDX-License-Identifier: BSD-2-Clause
/*
 * Power-off through HTIF ("ucb,htif0", protocol in drivers/serial/htif.c):
 * the host ends the program with the exit code the firmware sends, 0 for a
 * shutdown; a "system failure" shutdown sends its own status
 * (firmware/sbi/ecall_srst.c).  HTIF has no reboot.
 */
#include "firmware/core/driver.h"
#include "drivers/serial/htif.h"
#include "firmware/core/platform.h"

static void htif_poweroff(void)
{
	htif_exit(0);
}

static int htif_poweroff_probe(const struct fdt *fdt, int node, int parent)
{
	(void)parent;
	if (htif_attach(fdt, node) < 0)
		return -1;
	platform_register_reset(PLATFORM_POWEROFF,
				&(struct reset_action){ .present = true, .fire = htif_poweroff }, false);
	platform_register_exit_status(htif_exit);
	return 0;
}

DT_DRIVER(23, htif_poweroff_driver, "ucb,htif0", htif_poweroff_probe);
