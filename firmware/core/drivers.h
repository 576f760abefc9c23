/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Drivers found through the DTB by compatible string.  Each probe returns 0
 * when it took the device, a negative value when the node is unusable.
 */
#ifndef FIRMWARE_DRIVERS_H
#define FIRMWARE_DRIVERS_H

#include <stdbool.h>
#include <stdint.h>
#include "lib/fdt/fdt.h"

struct hart;

/*
 * A driver binds to DT nodes by compatible string.  platform/generic.c walks
 * the tree once and calls probe(fdt, node, parent) for every enabled node
 * whose compatible list holds one of the table's strings, in tree order.
 */
struct dt_driver {
	const char *compatible;
	int (*probe)(const struct fdt *fdt, int node, int parent);
};

/*
 * Consoles are chosen by /chosen stdout-path, not bound: platform/generic.c
 * probes the node it names, else the first node of a known compatible.
 * Each probe registers the console and returns 0, or returns -1.
 */
struct console_driver {
	const char *compatible;
	int (*probe)(const struct fdt *fdt, int node);
};

/* drivers/serial/ns16550.c */
int ns16550_probe(const struct fdt *fdt, int node);
void ns16550_init_early(uintptr_t base, unsigned int reg_shift);

/* drivers/serial/sifive_uart.c */
int sifive_uart_probe(const struct fdt *fdt, int node);

/* drivers/serial/htif.c: the HTIF console; htif_attach only finds the
 * device (for power-off), htif_exit ends the machine with an exit code. */
int htif_console_probe(const struct fdt *fdt, int node);
int htif_attach(const struct fdt *fdt, int node);
void htif_exit(uint32_t code);

/* drivers/ipi/aclint_mswi.c: fills hart->msip for the harts it serves. */
int aclint_mswi_probe(const struct fdt *fdt, int node, int parent);
/* A CLINT the DTB does not describe: context n is hartid n. */
void clint_mswi_at(uint64_t base);
void aclint_mswi_send(volatile uint32_t *msip);
void aclint_mswi_clear(volatile uint32_t *msip);

/* drivers/timer/aclint_mtimer.c: fills hart->mtimecmp and platform.mtime. */
int aclint_mtimer_probe(const struct fdt *fdt, int node, int parent);
int clint_mtimer_probe(const struct fdt *fdt, int node, int parent);
int thead_clint_mtimer_probe(const struct fdt *fdt, int node, int parent);
void clint_mtimer_at(uint64_t base);

/* drivers/reset/syscon_reset.c: fills platform.poweroff / reboot. */
int syscon_poweroff_probe(const struct fdt *fdt, int node, int parent);
int syscon_reboot_probe(const struct fdt *fdt, int node, int parent);
int sifive_test_probe(const struct fdt *fdt, int node, int parent);
/* drivers/reset/gpio_restart.c: fills platform.reboot / platform.poweroff. */
int gpio_restart_probe(const struct fdt *fdt, int node, int parent);
int gpio_poweroff_probe(const struct fdt *fdt, int node, int parent);
/* drivers/reset/htif_poweroff.c: fills platform.poweroff. */
int htif_poweroff_probe(const struct fdt *fdt, int node, int parent);

/* An output line of a GPIO controller; drive() sets its level. */
struct gpio_line {
	uintptr_t base;
	uint32_t pin;
	bool active_low;
	void (*drive)(const struct gpio_line *line, bool high);
};

/* drivers/gpio/sifive_gpio.c: the line `pin` of a "sifive,gpio0" node. */
int sifive_gpio_line(const struct fdt *fdt, int controller, uint32_t pin,
		     struct gpio_line *line);

/* ACLINT-style per-hart contexts: the hart behind the n-th
 * interrupts-extended entry for `irq` (or NULL), and how many there are. */
struct hart *fdt_irq_context_hart(const struct fdt *fdt, int node, uint32_t irq,
				  unsigned int n);
unsigned int fdt_irq_context_count(const struct fdt *fdt, int node, uint32_t irq);

#endif
