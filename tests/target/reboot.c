/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * SRST reboots (bootargs mode=reboot): boot 1 requests a cold reboot, boot 2
 * a warm reboot, boot 3 shuts down.  The boot count is kept in the page
 * after the image, which no ELF segment covers, so QEMU's reset (which
 * reloads the image and zeroes .bss) leaves it alone.  The runner checks the
 * done marker; each boot prints its number so the log shows the sequence.
 * The "system failure" shutdown (bootargs mode=sysfail) is here too: its
 * result is QEMU's exit status, which the runner checks.
 */
#include "testlib.h"

#define REBOOT_MAGIC 0x5245424F4F540000ul   /* "REBOOT" + boot number */

struct reboot_state {
	volatile unsigned long magic_and_boot;
	volatile unsigned long check;   /* ~magic_and_boot */
};

static unsigned long boot_number(struct reboot_state *st)
{
	unsigned long v = st->magic_and_boot;

	if ((v & ~0xFFFFul) != REBOOT_MAGIC || st->check != ~v)
		return 1;
	return (v & 0xFFFF) + 1;
}

static void remember_boot(struct reboot_state *st, unsigned long n)
{
	st->magic_and_boot = REBOOT_MAGIC | n;
	st->check = ~(REBOOT_MAGIC | n);
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
}

static void request_reset(unsigned long type, const char *name)
{
	struct sbiret r = sbi_system_reset(type, SBI_SRST_REASON_NONE);

	kprintf("FAIL: target/srst/%s: system_reset returned %s\n", name, sbi_error_name(r.error));
	sbi_shutdown();
}

void reboot_test_main(void)
{
	struct reboot_state *st = (struct reboot_state *)__noinit_page;
	uintptr_t page = (uintptr_t)__noinit_page;
	unsigned long n;

	if (plat.dtb < page + 4096 && page < plat.dtb + plat.dtb_size) {
		kprintf("FAIL: target/srst/reboot_setup: the DTB at %lx overlaps the boot-count page\n",
			(unsigned long)plat.dtb);
		sbi_shutdown();
	}
	n = boot_number(st);
	kprintf("reboot-test: boot %lu on hart %lu\n", n, plat.boot_hart);
	switch (n) {
	case 1:
		remember_boot(st, 1);
		request_reset(SBI_SRST_TYPE_COLD_REBOOT, "cold_reboot");
		break;
	case 2:
		kprintf("PASS: target/srst/cold_reboot\n");
		remember_boot(st, 2);
		request_reset(SBI_SRST_TYPE_WARM_REBOOT, "warm_reboot");
		break;
	case 3:
		kprintf("PASS: target/srst/warm_reboot\n");
		remember_boot(st, 0);
		kprintf("DONE: reboot-test\n");
		sbi_shutdown();
		break;
	default:
		kprintf("FAIL: target/srst/reboot_sequence: unexpected boot %lu\n", n);
		remember_boot(st, 0);
		sbi_shutdown();
	}
	sbi_shutdown();
}

/* Ends the run with a failure shutdown; the runner expects QEMU to exit with
 * the status docs/README give for it (0 on tracesbi, 3 with
 * tracesbi.sysfail=status). */
void sysfail_test_main(void)
{
	struct sbiret r;

	kprintf("DONE: sysfail-test\n");
	r = sbi_system_reset(SBI_SRST_TYPE_SHUTDOWN, SBI_SRST_REASON_SYSFAIL);
	kprintf("FAIL: target/srst/sysfail_shutdown: system_reset returned %s\n",
		sbi_error_name(r.error));
	sbi_shutdown();
}

/*
 * M-mode fault report (bootargs mode=mfault fault=N), only on the
 * fault-injection build of tracesbi (TRACESBI_FAULT_INJECT): tracesbi's
 * extension makes the firmware fault on purpose; the firmware must print
 * its report and end QEMU with status 3.  Kind 2 (canary) returns: the
 * next trap that takes the firmware's full path (an illegal instruction,
 * which comes to M-mode first) finds the damaged canary.  Nothing after the call may run.
 */
#define SBI_EXT_TRACESBI_FW       0x0A007ACE
#define SBI_TRACESBI_FAULT_INJECT 0x100

void mfault_test_main(unsigned long kind)
{
	struct sbiret r;

	kprintf("DONE: mfault-test %lu\n", kind);
	r = SBI1(SBI_EXT_TRACESBI_FW, SBI_TRACESBI_FAULT_INJECT, kind);
	if (r.error == 0)
		__asm__ volatile("unimp");
	kprintf("FAIL: target/mfault/%lu: the firmware went on (error %ld)\n", kind, r.error);
	sbi_shutdown();
}

/*
 * A test program's end as kvm-unit-tests ends one (bootargs mode=exit-code
 * code=N): "EXIT: STATUS=" with N << 1 | 1 on the console, then an SRST
 * shutdown, "system failure" when N is not 0.  N = 0: passed, 1: failed,
 * 38: every test skipped (the console says 77).  The runner
 * (scripts/kut-verdict.sh) turns QEMU's status and the console into the
 * harness's verdict.
 */
void exit_code_test_main(void)
{
	unsigned long code = bootarg_ulong("code", 0);
	struct sbiret r;

	kprintf("DONE: exit-code-test %lu\n", code);
	kprintf("EXIT: STATUS=%lu\n", code << 1 | 1);
	r = sbi_system_reset(SBI_SRST_TYPE_SHUTDOWN,
			     code ? SBI_SRST_REASON_SYSFAIL : SBI_SRST_REASON_NONE);
	kprintf("FAIL: target/srst/exit_code_shutdown: system_reset returned %s\n",
		sbi_error_name(r.error));
	sbi_shutdown();
}
