// SPDX-License-Identifier: BSD-2-Clause
/*
 * Whether a cpu node describes a hart with S-mode, which the firmware needs
 * to serve it (everything it boots runs in S-mode).  Monitor cores such as
 * the FU540's E51 have M and U only: their nodes have no mmu-type and their
 * ISA string names no supervisor-level extension.
 */
#include <string.h>
#include "firmware/core/platform.h"

/*
 * An extension name that implies S-mode: "s" itself, and the prefixes of
 * supervisor-level ("Ss*"), virtual-memory ("Sv*") and hypervisor ("Sh*")
 * extensions (ISA manual, "ISA Extension Naming Conventions").  "Sm*" are
 * machine-level and imply nothing.
 */
static bool extension_implies_smode(const char *name, size_t len)
{
	if (len == 1)
		return name[0] == 's';
	return len > 2 && name[0] == 's' && (name[1] == 's' || name[1] == 'v' || name[1] == 'h');
}

/* "rv64imac_zicsr_sstc": the single letters after "rv64", then the
 * multi-letter extensions between underscores. */
static bool isa_string_has_smode(const char *isa, int len)
{
	int i = 0, start;

	if (len < 5 || strncmp(isa, "rv", 2) != 0)
		return false;
	for (i = 4; i < len && isa[i] && isa[i] != '_'; i++)
		if (isa[i] == 's')
			return true;
	while (i < len && isa[i] == '_') {
		start = ++i;
		while (i < len && isa[i] && isa[i] != '_')
			i++;
		if (extension_implies_smode(isa + start, (size_t)(i - start)))
			return true;
	}
	return false;
}

/* riscv,isa-extensions: one extension name per string. */
static bool isa_extensions_have_smode(const char *list, int len)
{
	int i = 0;

	while (i < len) {
		size_t n = strnlen(list + i, (size_t)(len - i));

		if (extension_implies_smode(list + i, n))
			return true;
		i += (int)n + 1;
	}
	return false;
}

bool fdt_cpu_has_smode(const struct fdt *fdt, int cpu)
{
	const char *isa, *exts;
	int isa_len, exts_len;

	if (fdt_getprop(fdt, cpu, "mmu-type", NULL) &&
	    !fdt_prop_is_string(fdt, cpu, "mmu-type", "riscv,none"))
		return true;
	isa = fdt_getprop(fdt, cpu, "riscv,isa", &isa_len);
	exts = fdt_getprop(fdt, cpu, "riscv,isa-extensions", &exts_len);
	if (!isa && !exts)
		return true;   /* nothing says otherwise: serve it */
	return (isa && isa_string_has_smode(isa, isa_len)) ||
	       (exts && isa_extensions_have_smode(exts, exts_len));
}
