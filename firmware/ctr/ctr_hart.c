// SPDX-License-Identifier: BSD-2-Clause
/*
 * CTR on each hart: which kind it has (hardware, emulated, none), the boot
 * option choosing the emulated layout, the banner line and the suspend
 * save/restore.  The illegal-instruction hook into the emulation is the
 * trace engine's (trace/ctr_access.c): recording steps the hart.
 */
#include <string.h>
#include "firmware/ctr/ctr_hart.h"
#include "drivers/ctr/ctr_hw_csr.h"
#include "firmware/core/hart.h"
#include "firmware/core/console.h"
#include "firmware/core/riscv_csr.h"
#include "lib/fdt/fdt.h"
#include "firmware/core/fw_hooks.h"
#include "firmware/core/per_hart.h"

/* Each hart's is reset by ctr_hart_init. */
static PER_HART(struct ctr_hart, ctr_harts);

static struct {
	bool off;                  /* tracesbi.ctr=off: no emulation */
	enum ctr_layout layout;
	const char *error;
} boot;

/* tracesbi.ctr=<ratified|draft|off> among /chosen/bootargs. */
void ctr_cold_init(const struct fdt *fdt)
{
	const char *p = fdt_chosen_bootarg(fdt, "tracesbi.ctr=");
	size_t n;

	boot.layout = CTR_LAYOUT_RATIFIED;
	if (!p)
		return;
	n = strcspn(p, " ");
	if (n == 5 && !memcmp(p, "draft", 5))
		boot.layout = CTR_LAYOUT_DRAFT;
	else if (n == 3 && !memcmp(p, "off", 3))
		boot.off = true;
	else if (!(n == 8 && !memcmp(p, "ratified", 8)))
		boot.error = "tracesbi.ctr: unknown value (ratified, draft or off)";
}

void ctr_hart_init(struct hart *h)
{
	struct ctr_hart *c = per_hart(ctr_harts, h);

	h->ctr = c;
	if (ctr_hw_probe(&c->hw, h->feat.h)) {
		c->kind = CTR_KIND_HARDWARE;
		c->saved.count = 0;
		ctr_hw_enable(&c->hw);
	} else if (boot.off) {
		c->kind = CTR_KIND_NONE;
	} else {
		c->kind = CTR_KIND_EMULATED;
		ctr_reset(&c->emul, boot.layout);
	}
}

void ctr_print_banner(void)
{
	const struct ctr_hart *c = hart_self()->ctr;

	if (boot.error)
		printf("WARNING          : %s\n", boot.error);
	if (!c || c->kind == CTR_KIND_NONE)
		printf("CTR              : none (tracesbi.ctr=off)\n");
	else if (c->kind == CTR_KIND_HARDWARE)
		printf("CTR              : hardware (Smctr/Ssctr), depth %u\n",
		       ctr_hw_depth_max(&c->hw));
	else
		printf("CTR              : emulated (%s layout), depth 16-%u\n",
		       c->emul.layout == CTR_LAYOUT_DRAFT ? "draft v0.1.4" : "ratified 1.0",
		       CTR_MAX_ENTRIES);
}

void ctr_suspend_save(struct hart *h)
{
	if (h->ctr && h->ctr->kind == CTR_KIND_HARDWARE)
		ctr_hw_save(&h->ctr->hw, &h->ctr->saved);
}

void ctr_resume_restore(struct hart *h)
{
	if (h->ctr && h->ctr->kind == CTR_KIND_HARDWARE)
		ctr_hw_restore(&h->ctr->hw, &h->ctr->saved);
}

static const struct fw_hooks ctr_hooks = {
	.hart_suspend = ctr_suspend_save,
	.hart_resume = ctr_resume_restore,
};
FW_HOOKS(20, ctr_hooks);
