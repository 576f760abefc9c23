/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Drivers found through the DTB by compatible string.  Each probe returns 0
 * when it took the device, a negative value when the node is unusable.
 * A driver registers its descriptors where it is defined (DT_DRIVER,
 * CONSOLE_DRIVER: tables the linker collects, core/hook.h), and the devices
 * it takes with the core (console_register, ipi_device_register, the
 * platform's timer and reset fields).
 */
#ifndef FIRMWARE_CORE_DRIVER_H
#define FIRMWARE_CORE_DRIVER_H

#include <stdbool.h>
#include <stdint.h>
#include "lib/fdt/fdt.h"
#include "firmware/core/hook.h"

struct hart;

/*
 * A driver binds to DT nodes by compatible string.  platform/generic.c walks
 * the tree once and calls probe(fdt, node, parent) for every enabled node
 * whose compatible list holds one of the table's strings, in tree order
 * (for one node, in the table's order).
 */
struct dt_driver {
	const char *compatible;
	int (*probe)(const struct fdt *fdt, int node, int parent);
};

/*
 * Consoles are chosen by /chosen stdout-path, not bound: platform/generic.c
 * probes the node it names, else the first node of a known compatible (in
 * the table's order).
 * Each probe registers the console and returns 0, or returns -1.
 */
struct console_driver {
	const char *compatible;
	int (*probe)(const struct fdt *fdt, int node);
};

/* Defines the descriptor `name` (compatible string, probe) and registers
 * it at `order` (two digits: the order of the tables' walks). */
#define DT_DRIVER(order, name, compatible, probe)                          \
	static const struct dt_driver name = { compatible, probe };        \
	HOOK_REGISTER(dt_driver, order, const struct dt_driver, name)
#define CONSOLE_DRIVER(order, name, compatible, probe)                     \
	static const struct console_driver name = { compatible, probe };   \
	HOOK_REGISTER(console_driver, order, const struct console_driver, name)

#endif
