// SPDX-License-Identifier: BSD-2-Clause
/*
 * The generic FDT platform: everything the firmware needs to know about the
 * machine comes from the DTB — harts, memory, console, timer, IPI and reset
 * devices.  A board needs code only for what its DTB cannot say
 * (platform_desc: platform/qemu_virt.c).
 */
#include <string.h>
#include "platform.h"
#include "hart.h"
#include "console.h"
#include "drivers.h"

struct platform platform;

extern char _fw_start[], _fw_region_end[];

const struct platform_desc platform_generic = {
	.name = "generic",
	.compatible = NULL,
	.early_uart = 0,
};

static const struct platform_desc *const platform_list[] = {
	&platform_qemu_virt,
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

long fdt_intc_phandle_to_hartid(const struct fdt *fdt, uint32_t phandle)
{
	int intc = fdt_find_phandle(fdt, phandle), cpu;
	uint64_t hartid, size;

	if (intc < 0)
		return -1;
	cpu = fdt_parent(fdt, intc);
	if (cpu < 0 || fdt_get_reg(fdt, cpu, 0, &hartid, &size) < 0)
		return -1;
	return (long)hartid;
}

static bool node_has_device_type(const struct fdt *fdt, int node, const char *type)
{
	int len;
	const char *t = fdt_getprop(fdt, node, "device_type", &len);

	return t && len == (int)strlen(type) + 1 && memcmp(t, type, (size_t)len) == 0;
}

static const char *parse_harts(const struct fdt *fdt)
{
	int cpus = fdt_path_offset(fdt, "/cpus"), cpu;

	if (cpus < 0)
		return "no /cpus node";
	for (cpu = fdt_first_child(fdt, cpus); cpu >= 0; cpu = fdt_next_sibling(fdt, cpu)) {
		uint64_t hartid, size;

		if (!node_has_device_type(fdt, cpu, "cpu") || !fdt_node_is_enabled(fdt, cpu))
			continue;
		if (fdt_get_reg(fdt, cpu, 0, &hartid, &size) < 0)
			return "cpu node without a valid reg";
		platform.dt_hart_count++;
		if (hart_count >= MAX_HARTS)
			continue;
		hart_ids[hart_count++] = (unsigned long)hartid;
	}
	if (!hart_count)
		return "no usable cpu in /cpus";
	return NULL;
}

static const char *parse_memory(const struct fdt *fdt)
{
	int node = -1, depth = 0;

	for (node = fdt_next_node(fdt, fdt_root(fdt), &depth); node >= 0;
	     node = fdt_next_node(fdt, node, &depth)) {
		uint64_t base, size;
		int i;

		if (depth != 1 || !node_has_device_type(fdt, node, "memory") ||
		    !fdt_node_is_enabled(fdt, node))
			continue;
		for (i = 0; fdt_get_reg(fdt, node, i, &base, &size) == 0; i++) {
			if (platform.ram_count >= PLATFORM_MAX_RAM || !size)
				continue;
			platform.ram[platform.ram_count++] = (struct mem_region){ base, size };
		}
	}
	if (!platform.ram_count)
		return "no memory node";
	return NULL;
}

/* The console named by /chosen stdout-path (a path or an alias, optionally
 * followed by ":options"), else the first NS16550. */
static void probe_console(const struct fdt *fdt)
{
	int chosen = fdt_path_offset(fdt, "/chosen"), len, node = -1;
	const char *path = chosen >= 0 ? fdt_getprop(fdt, chosen, "stdout-path", &len) : NULL;

	if (path && len > 1 && len < 128 && path[len - 1] == '\0') {
		char buf[128];
		int n = 0;

		while (path[n] && path[n] != ':')
			n++;
		memcpy(buf, path, (size_t)n);
		buf[n] = '\0';
		if (buf[0] != '/') {
			int aliases = fdt_path_offset(fdt, "/aliases"), alen;
			const char *a = aliases >= 0 ? fdt_getprop(fdt, aliases, buf, &alen) : NULL;

			if (a && alen > 1 && alen < 128 && a[alen - 1] == '\0')
				node = fdt_path_offset(fdt, a);
		} else {
			node = fdt_path_offset(fdt, buf);
		}
		if (node >= 0 && ns16550_probe(fdt, node) == 0)
			return;
	}
	node = -1;
	while ((node = fdt_find_compatible(fdt, node, "ns16550a")) >= 0)
		if (fdt_node_is_enabled(fdt, node) && ns16550_probe(fdt, node) == 0)
			return;
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

const char *platform_parse_fdt(const struct fdt *fdt)
{
	const char *err;
	int cpus = fdt_path_offset(fdt, "/cpus");
	uint32_t tb = 0;

	platform.fw_base = (uintptr_t)_fw_start;
	platform.fw_size = (uintptr_t)_fw_region_end - (uintptr_t)_fw_start;
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

/* Called once the hart structs exist (hart_by_id works). */
const char *platform_probe_devices(const struct fdt *fdt)
{
	if (aclint_mswi_probe_all(fdt) < 0)
		return "no ACLINT MSWI / CLINT for inter-processor interrupts";
	if (aclint_mtimer_probe_all(fdt) < 0)
		return "no ACLINT MTIMER / CLINT timer";
	syscon_reset_probe_all(fdt);
	return NULL;
}

bool platform_range_in_ram(uint64_t base, uint64_t size)
{
	unsigned int i;

	if (base + size < base)
		return false;
	for (i = 0; i < platform.ram_count; i++) {
		const struct mem_region *r = &platform.ram[i];

		if (base >= r->base && base + size <= r->base + r->size)
			return true;
	}
	return false;
}

bool platform_range_overlaps_fw(uint64_t base, uint64_t size)
{
	uint64_t end = base + size;

	return base < platform.fw_base + platform.fw_size && end > platform.fw_base;
}

bool platform_smode_range_ok(uint64_t base, uint64_t size)
{
	return base + size >= base && platform_range_in_ram(base, size) &&
	       !platform_range_overlaps_fw(base, size);
}
