/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Demo payload (`make run`): what the SBI implementation says about itself,
 * which standard extensions it has, the state of every hart, then power off.
 */
#include "rt.h"


struct named_eid {
	long eid;
	const char *name;
};

static const struct named_eid extensions[] = {
	{ SBI_EXT_BASE, "BASE" },
	{ SBI_EXT_LEGACY_SET_TIMER, "legacy set_timer" },
	{ SBI_EXT_LEGACY_CONSOLE_PUTCHAR, "legacy console_putchar" },
	{ SBI_EXT_LEGACY_CONSOLE_GETCHAR, "legacy console_getchar" },
	{ 0x03, "legacy clear_ipi" },
	{ 0x04, "legacy send_ipi" },
	{ 0x05, "legacy remote_fence_i" },
	{ 0x06, "legacy remote_sfence_vma" },
	{ 0x07, "legacy remote_sfence_vma_asid" },
	{ 0x08, "legacy shutdown" },
	{ SBI_EXT_TIME, "TIME" },
	{ SBI_EXT_IPI, "IPI" },
	{ SBI_EXT_RFENCE, "RFENCE" },
	{ SBI_EXT_HSM, "HSM" },
	{ SBI_EXT_SRST, "SRST" },
	{ SBI_EXT_PMU, "PMU" },
	{ SBI_EXT_DBCN, "DBCN" },
	{ 0x53555350, "SUSP" },
	{ 0x43505043, "CPPC" },
	{ 0x4E41434C, "NACL" },
	{ 0x535441, "STA" },
	{ 0x535345, "SSE" },
	{ 0x46574654, "FWFT" },
	{ 0x44425452, "DBTR" },
	{ 0x4D505859, "MPXY" },
};

/* Table "SBI Implementation IDs" of ext-base.adoc, plus ours. */
static const char *impl_name(long id)
{
	static const char *const names[] = {
		"Berkeley Boot Loader (BBL)", "OpenSBI", "Xvisor", "KVM", "RustSBI",
		"Diosix", "Coffer", "Xen Project", "PolarFire Hart Software Services",
		"coreboot", "oreboot", "bhyve",
	};

	if (id == 0x7ACE)
		return "tracesbi";
	if (id >= 0 && id < (long)(sizeof(names) / sizeof(names[0])))
		return names[id];
	return "unknown";
}

static const char *hart_state_name(long state)
{
	static const char *const names[] = {
		"STARTED", "STOPPED", "START_PENDING", "STOP_PENDING",
		"SUSPENDED", "SUSPEND_PENDING", "RESUME_PENDING",
	};

	if (state >= 0 && state < (long)(sizeof(names) / sizeof(names[0])))
		return names[state];
	return "?";
}

static void print_versions(void)
{
	struct sbiret spec = SBI0(SBI_EXT_BASE, SBI_BASE_GET_SPEC_VERSION);
	struct sbiret id = SBI0(SBI_EXT_BASE, SBI_BASE_GET_IMPL_ID);
	struct sbiret ver = SBI0(SBI_EXT_BASE, SBI_BASE_GET_IMPL_VERSION);

	kprintf("SBI specification version : %ld.%ld\n", (spec.value >> 24) & 0x7f,
		spec.value & 0xffffff);
	kprintf("SBI implementation        : %s (id %#lx)\n", impl_name(id.value), id.value);
	kprintf("Implementation version    : %#lx\n", ver.value);
}

static void print_extensions(void)
{
	size_t i;

	kprintf("Standard extensions:\n");
	for (i = 0; i < sizeof(extensions) / sizeof(extensions[0]); i++) {
		struct sbiret r = sbi_probe(extensions[i].eid);

		kprintf("  %-30s %#10lx  %s\n", extensions[i].name, extensions[i].eid,
			r.error ? sbi_error_name(r.error) : r.value ? "present" : "absent");
	}
}

/*
 * Every hart id up to the highest enabled cpu node of the DT the firmware
 * passed on: hart ids may be sparse, and a hart the firmware does not
 * serve (sifive_u's E51, which has no S-mode) is an invalid id to HSM
 * while the harts after it are not.
 */
static void print_harts(void)
{
	unsigned long h, served = 0;

	kprintf("Harts (HSM hart_get_status, running on hart %lu):\n", plat.boot_hart);
	for (h = 0; h <= plat.max_hart_id; h++) {
		struct sbiret r = sbi_hart_status(h);

		if (r.error == SBI_ERR_INVALID_PARAM) {
			kprintf("  hart %lu: not served (no enabled cpu node: e.g. a hart without "
				"S-mode)\n", h);
			continue;
		}
		if (r.error) {
			kprintf("  hart %lu: %s\n", h, sbi_error_name(r.error));
			continue;
		}
		served++;
		kprintf("  hart %lu: %s\n", h, hart_state_name(r.value));
	}
	kprintf("  %lu harts served\n", served);
}

void boot_main(unsigned long hartid, uintptr_t dtb);
void boot_main(unsigned long hartid, uintptr_t dtb)
{
	csr_write(sscratch, hartid);
	trap_init_hart();
	kprintf("\ntracesbi demo payload: hart %lu, DTB at %#lx\n", hartid, (unsigned long)dtb);
	if (platform_init(hartid, dtb))
		plat.max_hart_id = hartid;   /* unreadable DT: this hart at least */
	plat.boot_hart = hartid;
	print_versions();
	print_extensions();
	print_harts();
	kprintf("Powering off through SRST.\n");
	sbi_shutdown();
}
