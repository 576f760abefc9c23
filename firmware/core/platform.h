/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * What the firmware knows about the machine, all of it read from the DTB at
 * cold boot (platform/generic.c) except the few per-board defaults a
 * platform descriptor supplies (platform/qemu_virt.c).
 */
#ifndef FIRMWARE_PLATFORM_H
#define FIRMWARE_PLATFORM_H

#include <stdint.h>
#include <stdbool.h>
#include "lib/fdt/fdt.h"

#define PLATFORM_MAX_RAM 8
#define PLATFORM_MAX_FW_ALIASES 2
#define PLATFORM_MAX_NO_SMODE 8   /* harts without S-mode the banner names */

struct mem_region {
	uint64_t base, size;
};

/* Reset by writing `value` under `mask` to a 32-bit register, or, for a
 * device that needs more than one write (a GPIO line, HTIF), by `fire`. */
struct reset_action {
	bool present;
	volatile uint32_t *reg;
	uint32_t value, mask;
	void (*fire)(void);
};

struct platform {
	char model[64];
	const char *name;            /* descriptor name */
	struct mem_region ram[PLATFORM_MAX_RAM];
	unsigned int ram_count;
	uint64_t fw_base, fw_size;   /* firmware region, protected by PMP */
	/* The same region seen through the board's RAM aliases, also kept from
	 * S-mode by PMP. */
	struct mem_region fw_aliases[PLATFORM_MAX_FW_ALIASES];
	unsigned int fw_alias_count;
	uint64_t timebase_hz;

	volatile uint64_t *mtime;    /* NULL: no M-mode timer found */
	/* T-Head C9xx CLINT: no MTIME register (the harts' time CSR counts),
	 * MTIMECMP written as two 32-bit halves. */
	bool mtime_in_time_csr;
	struct reset_action poweroff, reboot;
	/* Ends the machine with an exit status (sifive,test0 finisher, HTIF),
	 * used to report "system failure" shutdowns; NULL: no such device. */
	void (*exit_with_status)(uint32_t status);

	unsigned int dt_hart_count;  /* harts in the DTB with S-mode (may exceed MAX_HARTS) */
	/* Harts in the DTB without S-mode: parked for good, never served
	 * (the count may exceed the ids kept). */
	unsigned long no_smode_hart_ids[PLATFORM_MAX_NO_SMODE];
	unsigned int no_smode_hart_count;
	unsigned long next_addr, next_mode, next_hartid;
	unsigned long dtb_addr;
};

extern struct platform platform;

/* RAM that also answers at another address (a board's non-cached window
 * onto its DDR): [ram_base, ram_base + size) appears again at alias. */
struct ram_alias {
	uint64_t ram_base, size, alias;
};

/* A board: its name, how to recognise it and its fallbacks. */
struct platform_desc {
	const char *name;
	const char *compatible;      /* root node compatible, NULL = any */
	uintptr_t early_uart;        /* ns16550 for errors before the DTB is read */
	unsigned int early_uart_shift;
	/* A CLINT the DTB may lack (context = hartid); 0: none. */
	uint64_t clint_base;
	/* Where the board's RAM is seen again: the firmware's region is kept
	 * from S-mode there too (platform.fw_aliases). */
	const struct ram_alias *ram_aliases;
	unsigned int ram_alias_count;
};

const struct platform_desc *platform_match(const struct fdt *fdt);
extern const struct platform_desc platform_qemu_virt, platform_generic;
extern const struct platform_desc platform_sifive_fu540, platform_sifive_fu740;
extern const struct platform_desc platform_mpfs;

/* The cpu node describes a hart with S-mode (platform/cpu_smode.c). */
bool fdt_cpu_has_smode(const struct fdt *fdt, int cpu);

/* Parse the DTB into `platform` and the hart table; 0 or a message. */
const char *platform_parse_fdt(const struct fdt *fdt);
/* Bind the DTB's devices to their drivers (once the hart structs exist);
 * 0 or a message. */
const char *platform_probe_devices(const struct fdt *fdt);

/* What the device drivers register as they probe (drivers/timer, drivers/
 * reset): the machine's time (mtime, or NULL with in_time_csr: a T-Head
 * CLINT, whose harts' time CSR counts), and its ways to power off and
 * reboot (a reset device found later replaces an earlier one, but a
 * `fallback` one, sifive,test0's, only takes a slot still empty) and to
 * end with an exit status. */
enum platform_reset { PLATFORM_POWEROFF, PLATFORM_REBOOT };
void platform_register_mtime(volatile uint64_t *mtime, bool in_time_csr);
void platform_register_reset(enum platform_reset which, const struct reset_action *act,
			     bool fallback);
void platform_register_exit_status(void (*exit_with_status)(uint32_t status));

/* Memory checks for addresses S-mode passes in. */
bool platform_range_in_ram(uint64_t base, uint64_t size);
bool platform_range_overlaps_fw(uint64_t base, uint64_t size);
/* S-mode may access [base, base + size): in RAM, not firmware, no wrap. */
bool platform_smode_range_ok(uint64_t base, uint64_t size);

#endif
