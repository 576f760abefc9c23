/* SPDX-License-Identifier: BSD-2-Clause */
#include "rt.h"

const char *sbi_error_name(long error)
{
	static const char *const names[] = {
		"SUCCESS", "ERR_FAILED", "ERR_NOT_SUPPORTED", "ERR_INVALID_PARAM",
		"ERR_DENIED", "ERR_INVALID_ADDRESS", "ERR_ALREADY_AVAILABLE",
		"ERR_ALREADY_STARTED", "ERR_ALREADY_STOPPED", "ERR_NO_SHMEM",
		"ERR_INVALID_STATE", "ERR_BAD_RANGE", "ERR_TIMEOUT", "ERR_IO",
		"ERR_DENIED_LOCKED",
	};
	static char other[8][24];
	static unsigned next;
	char *buf;

	if (error <= 0 && -error < (long)(sizeof(names) / sizeof(names[0])))
		return names[-error];
	buf = other[next++ % 8];
	ksnprintf(buf, sizeof(other[0]), "error %ld", error);
	return buf;
}

void sbi_shutdown(void)
{
	struct sbiret r = sbi_system_reset(SBI_SRST_TYPE_SHUTDOWN, SBI_SRST_REASON_NONE);

	/* A board with a reset line but no power-off (sifive_u): its runs use
	 * QEMU's -no-reboot, so a reboot ends them. */
	if (r.error == SBI_ERR_NOT_SUPPORTED) {
		kprintf("shutdown: not supported, rebooting\n");
		r = sbi_system_reset(SBI_SRST_TYPE_COLD_REBOOT, SBI_SRST_REASON_NONE);
	}
	/* SRST missing or broken: say so, then stop (the runner's timeout
	 * reports the run). */
	kprintf("shutdown: system_reset returned %s\n", sbi_error_name(r.error));
	for (;;)
		wfi();
}
