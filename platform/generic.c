// SPDX-License-Identifier: BSD-2-Clause
/*
 * The generic FDT platform: everything the firmware needs to know about the
 * machine comes from the DTB — harts, memory, console, timer, IPI and reset
 * devices.  A board needs code only for what its DTB cannot say
 * (platform_desc: platform/qemu_virt.c).
 */
#include <string.h>
#include "firmware/core/platform.h"
#include "firmware/core/hart.h"
#include "firmware/core/console.h"
#include "firmware/core/driver.h"
#include "firmware/core/fdt_irq.h"
#include "platform/dt_memory.h"
#include "drivers/ipi/aclint_mswi.h"
#include "drivers/timer/aclint_mtimer.h"

extern char _fw_start[], _fw_region_end[];

const struct platform_desc platform_generic = {
	.name = "generic",
	.compatible = NULL,
	.early_uart = 0,
};

static const struct platform_desc *const platform_list[] = {
	&platform_qemu_virt,
	&platform_sifive_fu540,
	&platform_sifive_fu740,
	&platform_mpfs,
	&platform_generic,
};

const struct platform_desc *platform_match(const struct fdt *fdt)
{
	unsigned int i;

	for (i = 0; i < sizeof(platform_list) / sizeof(platform_list[0]); i++) {
		const struct platform_desc *p = platform_list[i];

		if (!p->compatible || (fdt && fdt_is_compatible(fdt, fdt_root(fdt), p->compatible)))
			return p;
	}
	return &platform_generic;
}

static uint32_t cpu_intc_phandle(const struct fdt *fdt, int cpu)
{
	int child;

	for (child = fdt_first_child(fdt, cpu); child >= 0; child = fdt_next_sibling(fdt, child))
		if (fdt_is_compatible(fdt, child, "riscv,cpu-intc"))
			return fdt_get_phandle(fdt, child);
	return 0;
}

/* A hart without S-mode parks for good at entry (entry.S checks misa.S
 * too); the banner names it and the DT fix-up disables its node. */
static void note_no_smode_hart(unsigned long hartid)
{
	if (platform.no_smode_hart_count < PLATFORM_MAX_NO_SMODE)
		platform.no_smode_hart_ids[platform.no_smode_hart_count] = hartid;
	platform.no_smode_hart_count++;
}

static const char *parse_harts(const struct fdt *fdt)
{
	int cpus = fdt_path_offset(fdt, "/cpus"), cpu;

	if (cpus < 0)
		return "no /cpus node";
	for (cpu = fdt_first_child(fdt, cpus); cpu >= 0; cpu = fdt_next_sibling(fdt, cpu)) {
		uint64_t hartid, size;

		if (!fdt_prop_is_string(fdt, cpu, "device_type", "cpu") ||
		    !fdt_node_is_enabled(fdt, cpu))
			continue;
		if (fdt_get_reg_under(fdt, cpus, cpu, 0, &hartid, &size) < 0)
			return "cpu node without a valid reg";
		if (!fdt_cpu_has_smode(fdt, cpu)) {
			note_no_smode_hart((unsigned long)hartid);
			continue;
		}
		platform.dt_hart_count++;
		if (hart_count >= MAX_HARTS)
			continue;
		fdt_irq_note_hart(hart_count, cpu_intc_phandle(fdt, cpu));
		hart_ids[hart_count++] = (unsigned long)hartid;
	}
	if (!hart_count)
		return "no usable cpu in /cpus (none with S-mode)";
	return NULL;
}

static const char *parse_memory(const struct fdt *fdt)
{
	platform.ram_count = (unsigned int)fdt_memory_regions(fdt, platform.ram, PLATFORM_MAX_RAM);
	if (!platform.ram_count)
		return "no memory node";
	return NULL;
}

HOOK_TABLE(console_driver, const struct console_driver);
HOOK_TABLE(dt_driver, const struct dt_driver);

/* The consoles the firmware can drive (CONSOLE_DRIVER), in the order of
 * the fallback search. */
#define for_each_console_driver(d) hook_for_each(console_driver, d)
#define for_each_dt_driver(d) hook_for_each(dt_driver, d)

static int probe_console_node(const struct fdt *fdt, int node)
{
	const struct console_driver *const *d;

	for_each_console_driver(d)
		if (fdt_is_compatible(fdt, node, (*d)->compatible) && (*d)->probe(fdt, node) == 0)
			return 0;
	return -1;
}

/* The node /chosen stdout-path names (a path or an alias, optionally
 * followed by ":options"), or -1. */
static int stdout_path_node(const struct fdt *fdt)
{
	int chosen = fdt_path_offset(fdt, "/chosen"), len;
	const char *path = chosen >= 0 ? fdt_getprop(fdt, chosen, "stdout-path", &len) : NULL;
	char buf[128];
	int n = 0;

	if (!path || len <= 1 || len >= 128 || path[len - 1] != '\0')
		return -1;
	while (path[n] && path[n] != ':')
		n++;
	memcpy(buf, path, (size_t)n);
	buf[n] = '\0';
	if (buf[0] != '/') {
		int aliases = fdt_path_offset(fdt, "/aliases"), alen;
		const char *a = aliases >= 0 ? fdt_getprop(fdt, aliases, buf, &alen) : NULL;

		if (!a || alen <= 1 || alen >= 128 || a[alen - 1] != '\0')
			return -1;
		return fdt_path_offset(fdt, a);
	}
	return fdt_path_offset(fdt, buf);
}

/* The console named by /chosen stdout-path, else the first enabled node
 * of a known console. */
static void probe_console(const struct fdt *fdt)
{
	const struct console_driver *const *d;
	int node = stdout_path_node(fdt);

	if (node >= 0 && probe_console_node(fdt, node) == 0)
		return;
	for_each_console_driver(d) {
		node = -1;
		while ((node = fdt_find_compatible(fdt, node, (*d)->compatible)) >= 0)
			if (fdt_node_is_enabled(fdt, node) && (*d)->probe(fdt, node) == 0)
				return;
	}
}

static void parse_model(const struct fdt *fdt)
{
	int len;
	const char *model = fdt_getprop(fdt, fdt_root(fdt), "model", &len);

	if (!model || len <= 1)
		model = fdt_stringlist_get(fdt, fdt_root(fdt), "compatible", 0, &len);
	if (!model) {
		strcpy(platform.model, "unknown");
		return;
	}
	len = len > (int)sizeof(platform.model) - 1 ? (int)sizeof(platform.model) - 1 : len;
	memcpy(platform.model, model, (size_t)len);
	platform.model[len] = '\0';
}

/* The firmware's region as the board's RAM aliases show it again. */
static void note_fw_aliases(const struct platform_desc *pd)
{
	unsigned int i;

	platform.fw_alias_count = 0;
	for (i = 0; i < pd->ram_alias_count; i++) {
		const struct ram_alias *a = &pd->ram_aliases[i];

		if (platform.fw_alias_count >= PLATFORM_MAX_FW_ALIASES ||
		    platform.fw_base < a->ram_base ||
		    platform.fw_base - a->ram_base + platform.fw_size > a->size)
			continue;
		platform.fw_aliases[platform.fw_alias_count++] = (struct mem_region){
			a->alias + (platform.fw_base - a->ram_base), platform.fw_size };
	}
}

const char *platform_parse_fdt(const struct fdt *fdt)
{
	const char *err;
	int cpus = fdt_path_offset(fdt, "/cpus");
	uint32_t tb = 0;

	platform.fw_base = (uintptr_t)_fw_start;
	platform.fw_size = (uintptr_t)_fw_region_end - (uintptr_t)_fw_start;
	note_fw_aliases(platform_match(fdt));
	parse_model(fdt);
	probe_console(fdt);
	err = parse_harts(fdt);
	if (err)
		return err;
	err = parse_memory(fdt);
	if (err)
		return err;
	if (cpus >= 0 && fdt_prop_u32(fdt, cpus, "timebase-frequency", &tb) == 0)
		platform.timebase_hz = tb;
	return NULL;
}

static void probe_node(const struct fdt *fdt, int node, int parent)
{
	const struct dt_driver *const *d;
	int len;
	/* Read once, matched against every driver (the DT does not change
	 * while drivers probe). */
	const char *compatible = fdt_getprop(fdt, node, "compatible", &len);

	if (!compatible || !fdt_node_is_enabled(fdt, node))
		return;
	for_each_dt_driver(d)
		if (fdt_stringlist_has(compatible, len, (*d)->compatible))
			(*d)->probe(fdt, node, parent);
}

/* A hart nobody can interrupt could never be started. */
static bool every_hart_has_msip(void)
{
	unsigned int i;

	for (i = 0; i < hart_count; i++)
		if (!hart_table[i]->msip)
			return false;
	return true;
}

/* The board's CLINT when its DTB has none (platform/sifive_fu.c). */
static void clint_fallback(const struct platform_desc *pd)
{
	if (!pd->clint_base)
		return;
	clint_mswi_at(pd->clint_base);
	clint_mtimer_at(pd->clint_base);
}

/*
 * One walk of the tree binds every driver (a walk per compatible string
 * made DT parsing most of the boot time).  Called once the hart structs
 * exist, since the interrupt controllers fill them in.
 */
const char *platform_probe_devices(const struct fdt *fdt)
{
	int parents[FDT_MAX_DEPTH + 1];
	int node = fdt_root(fdt), depth = 0;

	parents[0] = node;
	for (node = fdt_next_node(fdt, node, &depth); node >= 0;
	     node = fdt_next_node(fdt, node, &depth)) {
		if (depth < 1 || depth > FDT_MAX_DEPTH)
			break;
		parents[depth] = node;
		probe_node(fdt, node, parents[depth - 1]);
	}
	if (!platform.mtime && !platform.mtime_in_time_csr && !every_hart_has_msip())
		clint_fallback(platform_match(fdt));
	if (!every_hart_has_msip())
		return "a hart has no ACLINT MSWI / CLINT MSIP register";
	if (!platform.mtime && !platform.mtime_in_time_csr)
		return "no ACLINT MTIMER / CLINT timer";
	return NULL;
}
