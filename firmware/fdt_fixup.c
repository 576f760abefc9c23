// SPDX-License-Identifier: BSD-2-Clause
/*
 * DT fix-ups before hand-over: a /reserved-memory child with no-map covering
 * the firmware region, so the next stage never maps or touches it.  Growth
 * happens in place, only into RAM S-mode could use anyway, and everything
 * QEMU put in the tree is kept.
 */
#include <string.h>
#include "fdt.h"
#include "platform.h"
#include "console.h"

#define FIXUP_HEADROOM 1024

static int put_cells(uint8_t *p, int cells, uint64_t v)
{
	if (cells == 2) {
		fdt_put_be32(p, (uint32_t)(v >> 32));
		fdt_put_be32(p + 4, (uint32_t)v);
		return 8;
	}
	fdt_put_be32(p, (uint32_t)v);
	return 4;
}

static int reserve_firmware(struct fdt_rw *rw)
{
	uint8_t reg[16];
	char name[40];
	int root = fdt_root(&rw->fdt), resv, node, ac, sc, len;

	resv = fdt_subnode(&rw->fdt, root, "reserved-memory");
	if (resv < 0) {
		resv = fdt_rw_add_subnode(rw, root, "reserved-memory");
		if (resv < 0)
			return resv;
		if (fdt_rw_setprop_u32(rw, resv, "#address-cells", 2) < 0 ||
		    fdt_rw_setprop_u32(rw, fdt_subnode(&rw->fdt, root, "reserved-memory"),
				       "#size-cells", 2) < 0)
			return -FDT_ERR_NOSPACE;
		resv = fdt_subnode(&rw->fdt, root, "reserved-memory");
		if (fdt_rw_setprop(rw, resv, "ranges", NULL, 0) < 0)
			return -FDT_ERR_NOSPACE;
		resv = fdt_subnode(&rw->fdt, root, "reserved-memory");
	}
	ac = fdt_address_cells(&rw->fdt, resv);
	sc = fdt_size_cells(&rw->fdt, resv);
	if (ac < 1 || ac > 2 || sc < 1 || sc > 2)
		return -FDT_ERR_BADVALUE;
	if ((ac == 1 && platform.fw_base >> 32) || (sc == 1 && platform.fw_size >> 32))
		return -FDT_ERR_BADVALUE;

	/* "mmode_resv<N>@<base>" as OpenSBI-booted kernels are used to. */
	strcpy(name, "mmode_resv0@");
	{
		char hex[17];
		int n = 0;
		uint64_t b = platform.fw_base;

		do {
			hex[n++] = "0123456789abcdef"[b & 15];
			b >>= 4;
		} while (b);
		len = (int)strlen(name);
		while (n)
			name[len++] = hex[--n];
		name[len] = '\0';
	}
	node = fdt_rw_add_subnode(rw, resv, name);
	if (node < 0)
		return node;
	len = put_cells(reg, ac, platform.fw_base);
	len += put_cells(reg + len, sc, platform.fw_size);
	if (fdt_rw_setprop(rw, node, "reg", reg, len) < 0)
		return -FDT_ERR_NOSPACE;
	node = fdt_subnode(&rw->fdt, fdt_subnode(&rw->fdt, fdt_root(&rw->fdt), "reserved-memory"),
			   name);
	if (node < 0 || fdt_rw_setprop(rw, node, "no-map", NULL, 0) < 0)
		return -FDT_ERR_NOSPACE;
	return 0;
}

int fdt_fixup(void *dtb)
{
	struct fdt_rw rw;
	struct fdt probe;
	uint64_t capacity;
	int err;

	err = fdt_open(&probe, dtb, 4u << 20);
	if (err < 0)
		return err;
	capacity = probe.totalsize + FIXUP_HEADROOM;
	if (!platform_smode_range_ok((uintptr_t)dtb, capacity)) {
		/* No room to grow: fix up within the blob's own free space. */
		capacity = probe.totalsize;
	}
	err = fdt_rw_open(&rw, dtb, (size_t)capacity);
	if (err < 0)
		return err;
	return reserve_firmware(&rw);
}
