// SPDX-License-Identifier: BSD-2-Clause
/*
 * DT fix-ups before hand-over: a /reserved-memory child with no-map covering
 * the firmware region, so the next stage never maps or touches it.  Growth
 * happens in place, only into RAM S-mode could use anyway, and everything
 * QEMU put in the tree is kept.
 */
#include <string.h>
#include "lib/fdt/fdt.h"
#include "firmware/core/platform.h"
#include "firmware/core/console.h"
#include "firmware/core/hart.h"
#include "firmware/trace/trace.h"
#include "firmware/core/guard.h"
#include "firmware/core/riscv_csr.h"
#include "firmware/boot/fdt_fixup.h"

#define FIXUP_HEADROOM 1024

/*
 * Offsets: an edit only moves what lies after the place it inserts at.
 * Properties go inside their node and a subnode at the end of its parent,
 * so the offset of the node being edited (and of its parent) stays valid
 * across the edits below, and no lookup is repeated (each walk of the tree
 * costs as much as the edit).
 */
static int reserve_firmware(struct fdt_rw *rw)
{
	uint8_t reg[16];
	char name[40];
	int root = fdt_root(&rw->fdt), resv, node, ac, sc, err;

	resv = fdt_subnode(&rw->fdt, root, "reserved-memory");
	if (resv < 0) {
		resv = fdt_rw_add_subnode(rw, root, "reserved-memory");
		if (resv < 0)
			return resv;
		if ((err = fdt_rw_setprop_u32(rw, resv, "#address-cells", 2)) < 0 ||
		    (err = fdt_rw_setprop_u32(rw, resv, "#size-cells", 2)) < 0 ||
		    (err = fdt_rw_setprop(rw, resv, "ranges", NULL, 0)) < 0)
			return err;
	}
	ac = fdt_address_cells(&rw->fdt, resv);
	sc = fdt_size_cells(&rw->fdt, resv);
	if (ac < 1 || ac > 2 || sc < 1 || sc > 2 ||
	    !fdt_put_cells(reg, ac, platform.fw_base) ||
	    !fdt_put_cells(reg + 4 * (size_t)ac, sc, platform.fw_size))
		return -FDT_ERR_BADVALUE;

	/* "mmode_resv<N>@<base>", the name kernels booted by OpenSBI know. */
	fdt_unit_name(name, "mmode_resv0@", platform.fw_base);
	node = fdt_rw_add_subnode(rw, resv, name);
	if (node < 0)
		return node;
	if ((err = fdt_rw_setprop(rw, node, "reg", reg, 4 * (ac + sc))) < 0 ||
	    (err = fdt_rw_setprop(rw, node, "no-map", NULL, 0)) < 0)
		return err;
	return 0;
}

/* The first enabled cpu node of a hart the firmware does not serve. */
static int find_unserved_cpu(const struct fdt *fdt)
{
	int cpus = fdt_path_offset(fdt, "/cpus"), cpu;

	for (cpu = fdt_first_child(fdt, cpus); cpu >= 0; cpu = fdt_next_sibling(fdt, cpu)) {
		uint64_t hartid, size;

		if (!fdt_prop_is_string(fdt, cpu, "device_type", "cpu") ||
		    !fdt_node_is_enabled(fdt, cpu) ||
		    fdt_get_reg_under(fdt, cpus, cpu, 0, &hartid, &size) < 0)
			continue;
		if (!hart_by_id((unsigned long)hartid))
			return cpu;
	}
	return -FDT_ERR_NOTFOUND;
}

/* Harts beyond MAX_HARTS and harts without S-mode stay parked: the next
 * stage must not try to start them, so their cpu nodes say "disabled". */
static int disable_unserved_harts(struct fdt_rw *rw)
{
	int cpu, err;

	while ((cpu = find_unserved_cpu(&rw->fdt)) >= 0)
		if ((err = fdt_rw_setprop_string(rw, cpu, "status", "disabled")) < 0)
			return err;
	return 0;
}

/* Where "_sstc" stands in a riscv,isa string as a whole extension, or NULL. */
static const char *find_sstc(const char *isa, int len)
{
	const char *p;

	if (len < 1 || isa[len - 1] != '\0')
		return NULL;
	for (p = strstr(isa, "_sstc"); p; p = strstr(p + 1, "_sstc"))
		if (p[5] == '\0' || p[5] == '_')
			return p;
	return NULL;
}

/* The first cpu node of a served hart whose riscv,isa names Sstc. */
static int find_cpu_claiming_sstc(const struct fdt *fdt, const char **isa, int *len)
{
	int cpus = fdt_path_offset(fdt, "/cpus"), cpu;

	for (cpu = fdt_first_child(fdt, cpus); cpu >= 0; cpu = fdt_next_sibling(fdt, cpu)) {
		uint64_t hartid, size;

		*isa = fdt_getprop(fdt, cpu, "riscv,isa", len);
		if (*isa && find_sstc(*isa, *len) &&
		    fdt_get_reg_under(fdt, cpus, cpu, 0, &hartid, &size) == 0 &&
		    hart_by_id((unsigned long)hartid))
			return cpu;
	}
	return -FDT_ERR_NOTFOUND;
}

/*
 * QEMU 7.2's spike DT names Sstc in riscv,isa although its harts refuse
 * stimecmp (a kernel that believes the DT takes an illegal instruction).
 * When the boot hart has no stimecmp, Sstc leaves every served cpu's
 * riscv,isa: the DT tells S-mode what the harts do.
 */
static int drop_sstc_claims(struct fdt_rw *rw)
{
	unsigned long v;
	const char *isa;
	char fixed[256];
	int cpu, len, err;

	if (csr_read_guarded(CSR_STIMECMP, &v) == 0)
		return 0;
	while ((cpu = find_cpu_claiming_sstc(&rw->fdt, &isa, &len)) >= 0) {
		size_t at = (size_t)(find_sstc(isa, len) - isa);

		if ((size_t)len > sizeof(fixed))
			return -FDT_ERR_BADVALUE;
		memcpy(fixed, isa, at);
		memcpy(fixed + at, isa + at + 5, (size_t)len - at - 5);
		if ((err = fdt_rw_setprop_string(rw, cpu, "riscv,isa", fixed)) < 0)
			return err;
	}
	return 0;
}

int fdt_fixup(void *dtb, uint32_t totalsize)
{
	struct fdt_rw rw;
	uint64_t capacity;
	int err;

	capacity = (uint64_t)totalsize + FIXUP_HEADROOM + trace_fdt_space();
	if (!platform_smode_range_ok((uintptr_t)dtb, capacity)) {
		/* No room to grow: fix up within the blob's own free space. */
		capacity = totalsize;
	}
	err = fdt_rw_open(&rw, dtb, (size_t)capacity);
	if (err < 0)
		return err;
	err = reserve_firmware(&rw);
	if (err < 0)
		return err;
	if (platform.dt_hart_count > hart_count || platform.no_smode_hart_count)
		err = disable_unserved_harts(&rw);
	if (err < 0)
		return err;
	err = drop_sstc_claims(&rw);
	if (err < 0)
		return err;
	return trace_fdt_fixup(&rw);
}
