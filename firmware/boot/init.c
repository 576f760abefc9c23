// SPDX-License-Identifier: BSD-2-Clause
/*
 * Boot flow (see docs/ARCHITECTURE.md):
 *   entry.S  lottery; the winner runs cold_boot on the boot stack
 *   cold_boot  DTB -> platform + hart table + devices, DT fix-up, ecall table,
 *              next stage from the fw_dynamic info, wakes the other harts
 *   hart_warm_boot  on every hart, on its own stack: probe features, set the
 *              M-mode CSRs and PMP; the winner prints the banner, waits until
 *              every hart is set up (at most a second) and starts the
 *              next-stage hart; then every hart enters the HSM stopped
 *              loop, from which the next-stage hart leaves at once.
 */
#include <string.h>
#include "firmware/core/hart.h"
#include "firmware/service/hsm.h"
#include "firmware/service/ipi.h"
#include "firmware/trap/trap.h"
#include "firmware/core/features.h"
#include "firmware/core/platform.h"
#include "drivers/serial/ns16550.h"
#include "firmware/core/console.h"
#include "firmware/sbi/ecall.h"
#include "firmware/core/riscv_csr.h"
#include "firmware/core/guard.h"
#include "firmware/pmu/pmu.h"
#include "firmware/trace/trace.h"
#include "firmware/ctr/ctr_hart.h"
#include "firmware/service/timer.h"
#include "firmware/emu/time_csr.h"
#include "firmware/service/redirect.h"
#include "firmware/service/panic.h"
#include "firmware/core/trap_vector.h"
#include "firmware/service/reset.h"
#include "firmware/core/pmp.h"
#include "firmware/boot/fdt_fixup.h"
#include "firmware/pmu/pmu_hart.h"

#define FW_DYNAMIC_MAGIC   0x4942534fUL    /* "OSBI" */
#define FW_DYNAMIC_MAX_VERSION 2
#define FW_DEFAULT_NEXT    0x80200000UL

/* The fw_dynamic info block QEMU (and other loaders) pass in a2. */
struct fw_dynamic_info {
	unsigned long magic, version, next_addr, next_mode, options, boot_hart;
};
#define FW_DYNAMIC_MODE_U 0
#define FW_DYNAMIC_MODE_S 1

extern char hart_stacks[];
extern volatile uint32_t boot_done;
extern char _fw_start[], _fw_end[];

static unsigned long boot_hartid;
static const char *fixup_error;
static const char *next_note;

static void __attribute__((noreturn)) boot_fail(const struct platform_desc *pd, const char *what,
						const char *why)
{
	if (!console_present() && pd && pd->early_uart)
		ns16550_init_early(pd->early_uart, pd->early_uart_shift);
	printf("\ntracesbi: boot failed: %s: %s\n", what, why);
	for (;;)
		wfi();
}

static const char *pmu_map_error;

static void build_hart_table(void)
{
	unsigned int i;

	for (i = 0; i < hart_count; i++) {
		struct hart *h = (struct hart *)(hart_stacks + (i + 1) * (size_t)HART_STACK_SIZE -
						 HART_STRUCT_SIZE);

		memset(h, 0, HART_STRUCT_SIZE);
		*hart_stack_canary(h) = HART_STACK_CANARY;
		h->hartid = hart_ids[i];
		h->index = i;
		h->hsm_state = SBI_HSM_STATE_STOPPED;
		pmu_hart_attach(h);
		hart_table[i] = h;
	}
}

/* Read the fw_dynamic block under a trap guard: QEMU puts it in its boot
 * ROM, which is not RAM, and a2 may hold anything on other loaders. */
static bool read_fw_dynamic(unsigned long addr, struct fw_dynamic_info *info)
{
	unsigned long *w = (unsigned long *)info;
	unsigned int i, words = sizeof(*info) / sizeof(unsigned long);

	if (!addr || addr & 7 || platform_range_overlaps_fw(addr, sizeof(*info)))
		return false;
	for (i = 0; i < words; i++)
		if (load_u64_guarded(addr + i * sizeof(unsigned long), &w[i]))
			return false;
	return info->magic == FW_DYNAMIC_MAGIC && info->version <= FW_DYNAMIC_MAX_VERSION;
}

/* Next stage: the fw_dynamic block when it is valid, else the default. */
static void choose_next_stage(unsigned long info_addr, unsigned long winner)
{
	struct fw_dynamic_info info;

	platform.next_addr = FW_DEFAULT_NEXT;
	platform.next_mode = PRV_S;
	platform.next_hartid = winner;
	if (!read_fw_dynamic(info_addr, &info)) {
		next_note = "no fw_dynamic info: default address";
		return;
	}
	if (!platform_smode_range_ok(info.next_addr, 4)) {
		/* Then none of the block's next-stage fields are trusted. */
		next_note = "fw_dynamic next_addr unusable: default address";
	} else {
		platform.next_addr = info.next_addr;
		next_note = "from fw_dynamic info";
		if (info.next_mode == FW_DYNAMIC_MODE_U)
			platform.next_mode = PRV_U;
		else if (info.next_mode != FW_DYNAMIC_MODE_S)
			next_note = "fw_dynamic next_mode unsupported: S-mode";
	}
	if (info.version >= 2 && info.boot_hart != -1UL && hart_by_id(info.boot_hart))
		platform.next_hartid = info.boot_hart;
}

void cold_boot(unsigned long hartid, unsigned long dtb, unsigned long info)
{
	const struct platform_desc *pd;
	const char *err;
	struct fdt fdt;
	unsigned int i;
	int rc;

	trap_vectors_init();
	boot_hartid = hartid;
	if (!dtb || dtb & 7)
		boot_fail(platform_match(NULL), "device tree", "no DTB address in a1");
	rc = fdt_open(&fdt, (const void *)dtb, 4u << 20);
	if (rc < 0)
		boot_fail(&platform_qemu_virt, "device tree", fdt_strerror(rc));
	pd = platform_match(&fdt);
	platform.name = pd->name;
	platform.dtb_addr = dtb;
	err = platform_parse_fdt(&fdt);
	if (err)
		boot_fail(pd, "device tree", err);
	build_hart_table();
	err = platform_probe_devices(&fdt);
	if (err)
		boot_fail(pd, "devices", err);
	pmu_map_error = pmu_map_from_fdt(&pmu_event_map, &fdt);
	trace_cold_init(&fdt);
	ctr_cold_init(&fdt);
	reset_cold_init(&fdt);
	choose_next_stage(info, hartid);
	trace_next_stage(platform.next_addr);
	if (!hart_by_id(platform.next_hartid))
		platform.next_hartid = hart_ids[0];
	/* A winner the DTB does not list parks: the next-stage hart boots. */
	if (!hart_by_id(hartid))
		boot_hartid = platform.next_hartid;
	rc = fdt_fixup((void *)dtb, fdt.totalsize);
	if (rc < 0)
		fixup_error = fdt_strerror(rc);
	sbi_ecall_init();

	__atomic_store_n(&boot_done, 1, __ATOMIC_RELEASE);
	for (i = 0; i < hart_count; i++)
		if (hart_ids[i] != hartid)
			ipi_raise(hart_table[i]);
}

static void print_pmu_map(void)
{
	const struct pmu_map *m = &pmu_event_map;

	if (pmu_map_error)
		printf("WARNING          : riscv,pmu %s cell %d: %s; "
		       "using the platform default PMU event map\n",
		       m->error_prop, m->error_cell, pmu_map_error);
	printf("PMU event map    : %s (%u ranges, %u selectors, %u raw)\n",
	       m->from_dt ? "from riscv,pmu" : "platform default", m->nranges,
	       m->nselectors, m->nraw);
}

/* Harts without S-mode park at entry: nothing could run on them. */
static void print_no_smode_harts(void)
{
	unsigned int i, n = platform.no_smode_hart_count;

	if (!n)
		return;
	printf("Harts skipped    : %u without S-mode, parked:", n);
	for (i = 0; i < n && i < PLATFORM_MAX_NO_SMODE; i++)
		printf(" %lu", platform.no_smode_hart_ids[i]);
	printf("%s\n", n > PLATFORM_MAX_NO_SMODE ? " ..." : "");
}

static void print_banner(const struct hart *self)
{
	unsigned int i;

	printf("\ntracesbi v%d.%d — SBI %d.%d, implementation ID 0x%x\n", TRACESBI_VERSION_MAJOR,
	       TRACESBI_VERSION_MINOR, SBI_SPEC_VERSION_MAJOR, SBI_SPEC_VERSION_MINOR, SBI_IMPL_ID);
	printf("Platform         : %s (%s)\n", platform.model, platform.name);
	printf("Harts            : %u:", hart_count);
	for (i = 0; i < hart_count; i++)
		printf(" %lu", hart_ids[i]);
	printf(" (boot hart %lu)\n", self->hartid);
	if (platform.dt_hart_count > hart_count)
		printf("WARNING          : the DTB has %u harts; tracesbi serves at most %d, "
		       "the others stay parked\n", platform.dt_hart_count, MAX_HARTS);
	print_no_smode_harts();
	printf("Firmware         : 0x%lx-0x%lx (%lu KiB region, %lu KiB used)\n",
	       (unsigned long)platform.fw_base,
	       (unsigned long)(platform.fw_base + platform.fw_size - 1),
	       (unsigned long)platform.fw_size >> 10,
	       ((unsigned long)_fw_end - (unsigned long)_fw_start) >> 10);
	for (i = 0; i < platform.fw_alias_count; i++)
		printf("Firmware alias   : 0x%lx-0x%lx (the board's RAM seen again; PMP keeps "
		       "it from S-mode too)\n", (unsigned long)platform.fw_aliases[i].base,
		       (unsigned long)(platform.fw_aliases[i].base + platform.fw_aliases[i].size - 1));
	for (i = 0; i < platform.ram_count; i++)
		printf("RAM              : 0x%lx-0x%lx (%lu MiB)\n",
		       (unsigned long)platform.ram[i].base,
		       (unsigned long)(platform.ram[i].base + platform.ram[i].size - 1),
		       (unsigned long)(platform.ram[i].size >> 20));
	printf("Timer            : %lu Hz\n", (unsigned long)platform.timebase_hz);
	features_print(&self->feat);
	if (self->feat.pmp_count < 2)
		printf("WARNING          : not enough PMP entries: firmware memory is NOT "
		       "protected from S-mode\n");
	print_pmu_map();
	trace_print_banner();
	ctr_print_banner();
	reset_print_banner();
	printf("SBI extensions   :");
	sbi_ecall_print_extensions();
	printf("\nDTB              : 0x%lx%s%s\n", platform.dtb_addr,
	       fixup_error ? ", fix-up failed: " : "", fixup_error ? fixup_error : "");
	printf("Next             : 0x%lx in %s-mode on hart %lu (%s)\n\n", platform.next_addr,
	       platform.next_mode == PRV_U ? "U" : "S", platform.next_hartid, next_note);
}

/* PMP: the firmware, where the board's RAM aliases show it again, and
 * the trace components' window when there is one and enough entries for
 * it (the banner says when there are not). */
static void protect_memory(const struct hart_features *f)
{
	struct mem_region deny[2 + PLATFORM_MAX_FW_ALIASES] = {
		{ platform.fw_base, platform.fw_size } };
	unsigned int n = 1 + platform.fw_alias_count, i;

	for (i = 0; i < platform.fw_alias_count; i++)
		deny[1 + i] = platform.fw_aliases[i];
	trace_window(&deny[n].base, &deny[n].size);
	if (deny[n].size && pmp_protect(f, deny, n + 1) == 0)
		return;
	if (pmp_protect(f, deny, n) < 0 && f->pmp_count >= 2)
		panic("cannot protect the firmware region %lx+%lx with PMP\n",
		      (unsigned long)platform.fw_base, (unsigned long)platform.fw_size);
}

/* M-mode state every hart sets up for S-mode (and again on HSM start,
 * since nothing here changes after boot). */
static void hart_setup_csrs(struct hart *self)
{
	const struct hart_features *f = &self->feat;
	unsigned long deleg, mstatus;

	trap_set_vector(self);
	/* Delegated exceptions: those S-mode handles itself (as OpenSBI):
	 * misaligned fetch, breakpoint, U-mode ecall, page faults.  Access
	 * faults, misaligned loads/stores and illegal instructions come here
	 * first (emulation), then go to S-mode via trap_redirect. */
	deleg = (1UL << CAUSE_MISALIGNED_FETCH) | (1UL << CAUSE_BREAKPOINT) |
		(1UL << CAUSE_USER_ECALL) | (1UL << CAUSE_FETCH_PAGE_FAULT) |
		(1UL << CAUSE_LOAD_PAGE_FAULT) | (1UL << CAUSE_STORE_PAGE_FAULT);
	if (f->h)
		deleg |= (1UL << CAUSE_VS_ECALL) | (1UL << CAUSE_FETCH_GUEST_PAGE_FAULT) |
			 (1UL << CAUSE_LOAD_GUEST_PAGE_FAULT) | (1UL << CAUSE_VIRTUAL_INSN) |
			 (1UL << CAUSE_STORE_GUEST_PAGE_FAULT);
	csr_write(medeleg, deleg);
	deleg = MIP_SSIP | MIP_STIP | MIP_SEIP;
	if (f->sscofpmf)
		deleg |= MIP_LCOFIP;
	csr_write(mideleg, deleg);
	csr_write(mcounteren, -1UL);   /* CY, TM, IR and every HPM counter */
	/* U-mode may read cycle, time and instret until S-mode decides
	 * otherwise: a kernel without a PMU driver never writes scounteren,
	 * and its vDSO reads time from U-mode. */
	csr_write(scounteren, MCOUNTEREN_CY | MCOUNTEREN_TM | MCOUNTEREN_IR);
	/* menvcfg: the features S-mode may use.  Every bit is WARL, so
	 * setting one the hart lacks leaves it 0: Svpbmt, Zicbom flush/clean,
	 * Zicboz, and the S-mode timer (Sstc). */
	if (f->menvcfg)
		csr_write(CSR_MENVCFG, csr_read(CSR_MENVCFG) | MENVCFG_PBMTE | MENVCFG_CBZE |
			  MENVCFG_CBCFE | MENVCFG_CBIE_FLUSH | (f->sstc ? MENVCFG_STCE : 0));
	/* Smstateen: nothing of S-mode's state is hidden from it. */
	if (f->smstateen)
		csr_write_guarded(CSR_MSTATEEN0, -1UL);
	if (f->sstc)
		csr_write(CSR_STIMECMP, -1UL);
	mstatus = csr_read(mstatus) & ~(MSTATUS_FS | MSTATUS_VS | MSTATUS_MPRV | MSTATUS_TVM |
					MSTATUS_TW | MSTATUS_TSR);
	if (f->f || f->d)
		mstatus |= MSTATUS_FS_INITIAL;
	if (f->v)
		mstatus |= MSTATUS_VS_INITIAL;
	csr_write(mstatus, mstatus);
	protect_memory(f);
	csr_write(mie, MIP_MSIP);
}

/* Harts whose M-mode state is set up (hart_warm_boot). */
static unsigned int harts_ready;

static void hart_ready(const struct hart *self)
{
	__atomic_add_fetch(&harts_ready, 1, __ATOMIC_RELEASE);
	if (self->hartid != boot_hartid)
		ipi_post(hart_by_id(boot_hartid), IPI_EVENT_WAKE);
}

/*
 * S-mode may use every hart's trace components at once, and what their
 * encoders report (the triggers) only their own hart can find out
 * (trace_hart_init): the next stage starts once every hart is set up.
 * Bounded: a hart the DT lists that has not arrived within a second is
 * left behind (its components answer without it, trace/mmio.c; its encoder
 * reads as one that cannot trace until it arrives).
 */
static void wait_for_harts(struct hart *self)
{
	uint64_t deadline = time_now() + platform.timebase_hz;
	unsigned int ready;

	while ((ready = __atomic_load_n(&harts_ready, __ATOMIC_ACQUIRE)) < hart_count &&
	       time_now() < deadline && timer_boot_wake_at(self, deadline))
		ipi_wait_and_handle(self);
	timer_cancel(self);
	if (ready < hart_count)
		printf("WARNING          : %u of %u harts did not boot within a second\n",
		       hart_count - ready, hart_count);
}

/* From entry.S on this hart's own stack; build_hart_table set its hartid.
 * The boot IPI (cold_boot) stays pending, with whatever events other harts
 * posted since: the HSM stopped loop takes them. */
void hart_warm_boot(void)
{
	struct hart *self = hart_self();
	struct hart *next;

	features_probe(&self->feat);
	features_probe_fwft(&self->fwft.support, self->feat.menvcfg);
	hart_setup_csrs(self);
	trace_hart_init(self);
	ctr_hart_init(self);
	hart_ready(self);
	if (self->hartid == boot_hartid) {
		print_banner(self);
		wait_for_harts(self);
		next = hart_by_id(platform.next_hartid);
		hsm_set_start_pending(next, platform.next_addr, platform.dtb_addr,
				      platform.next_mode);
		if (next != self)
			ipi_post(next, IPI_EVENT_WAKE);
	}
	hsm_stopped_loop(self);
}
