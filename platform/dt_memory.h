/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The RAM a DT describes: the reg ranges of its enabled top-level nodes
 * with device_type "memory" (DT specification, "/memory node").  The
 * firmware's platform code (platform/generic.c) and tools/board-check
 * read it here; inline, as boot walks the whole tree with it once.
 */
#ifndef PLATFORM_DT_MEMORY_H
#define PLATFORM_DT_MEMORY_H

#include "firmware/core/platform.h"

/* Up to max ranges into out; the count. */
static inline int fdt_memory_regions(const struct fdt *fdt, struct mem_region *out, int max)
{
	int root = fdt_root(fdt), node, depth = 0, n = 0;

	for (node = fdt_next_node(fdt, root, &depth); node >= 0;
	     node = fdt_next_node(fdt, node, &depth)) {
		uint64_t base, size;
		int i;

		if (depth != 1 || !fdt_prop_is_string(fdt, node, "device_type", "memory") ||
		    !fdt_node_is_enabled(fdt, node))
			continue;
		for (i = 0; fdt_get_reg_under(fdt, root, node, i, &base, &size) == 0; i++)
			if (n < max && size)
				out[n++] = (struct mem_region){ base, size };
	}
	return n;
}

#endif
