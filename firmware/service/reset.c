// SPDX-License-Identifier: BSD-2-Clause
/*
 * System reset: shutdown and reboot through the reset device the DTB
 * names (drivers/reset), for SRST (and the legacy shutdown) and for the
 * firmware's own failures (panic.c).
 *
 * A "system failure" shutdown S-mode asks for is by default an ordinary
 * power-off (QEMU ends with status 0), as on OpenSBI: test harnesses that
 * read the verdict from the console (kvm-unit-tests' "EXIT: STATUS=")
 * only do so when QEMU ends with 0.  The boot option
 * tracesbi.sysfail=status gives it its own exit status instead, 3, for
 * shells and CI that go by QEMU's status; the firmware's own failures
 * (panic.c) always end with 3.  README.md, docs/SBI.md "SRST".
 */
#include <string.h>
#include "firmware/service/reset.h"
#include "firmware/core/console.h"
#include "firmware/core/fw_hooks.h"
#include "firmware/core/platform.h"
#include "firmware/core/riscv_csr.h"
#include "firmware/core/sbi_spec.h"

/* Exit status of a firmware failure, and of a "system failure" shutdown
 * under tracesbi.sysfail=status: not 0 and not 1 (which kvm-unit-tests
 * reads as success under QEMU's debug-exit convention, status = code << 1
 * | 1), but that convention's "the test failed". */
#define SRST_SYSFAIL_EXIT_STATUS 3u

static struct {
	bool exit_status;          /* tracesbi.sysfail=status */
	const char *error;
} sysfail_opt;

/* tracesbi.sysfail=<poweroff|status> among /chosen/bootargs. */
void reset_cold_init(const struct fdt *fdt)
{
	const char *p = fdt_chosen_bootarg(fdt, "tracesbi.sysfail=");
	size_t n;

	sysfail_opt.exit_status = false;
	sysfail_opt.error = NULL;
	if (!p)
		return;
	n = strcspn(p, " ");
	if (n == 6 && !memcmp(p, "status", 6))
		sysfail_opt.exit_status = true;
	else if (!(n == 8 && !memcmp(p, "poweroff", 8)))
		sysfail_opt.error = "tracesbi.sysfail: unknown value (poweroff or status)";
}

void reset_print_banner(void)
{
	if (sysfail_opt.error)
		printf("WARNING          : %s\n", sysfail_opt.error);
}

static void reset_write(const struct reset_action *act)
{
	if (act->fire)
		act->fire();
	else
		*act->reg = (*act->reg & ~act->mask) | (act->value & act->mask);
}

static bool reason_valid(uint32_t reason)
{
	/* Only "no reason" and "system failure": the implementation- and
	 * vendor-specific ranges have nothing implemented here. */
	return reason == SBI_SRST_REASON_NONE || reason == SBI_SRST_REASON_SYSFAIL;
}

/* A reset device may take a moment to act. */
static void wait_for_reset(void)
{
	for (int i = 0; i < 1000000; i++)
		__asm__ __volatile__("nop");
}

void system_failure_shutdown(void)
{
	/* Status 3 wherever a device can say so (virt's test finisher,
	 * spike's HTIF), else a plain power-off. */
	if (platform.exit_with_status)
		platform.exit_with_status(SRST_SYSFAIL_EXIT_STATUS);
	else if (platform.poweroff.present)
		reset_write(&platform.poweroff);
	wait_for_reset();
}

long system_reset(uint32_t type, uint32_t reason)
{
	const struct reset_action *act;

	if (type > SBI_SRST_TYPE_WARM_REBOOT || !reason_valid(reason))
		return SBI_ERR_INVALID_PARAM;
	act = type == SBI_SRST_TYPE_SHUTDOWN ? &platform.poweroff : &platform.reboot;
	if (!act->present)
		return SBI_ERR_NOT_SUPPORTED;
	/* Trace buffers are complete when the machine goes down (or, for
	 * `make trace`, stays up with them for QEMU's monitor to save). */
	if (fw_hooks_before_reset()) {
		csr_write(mie, 0);
		for (;;)
			wfi();
	}
	if (type == SBI_SRST_TYPE_SHUTDOWN && reason == SBI_SRST_REASON_SYSFAIL) {
		/* One line, so a console log shows it whatever the status. */
		printf("tracesbi: system failure shutdown requested by S-mode\n");
		if (sysfail_opt.exit_status)
			system_failure_shutdown();
	}
	reset_write(act);
	wait_for_reset();
	/* The device did not act. */
	return SBI_ERR_FAILED;
}

bool system_reset_available(void)
{
	return platform.poweroff.present || platform.reboot.present;
}
