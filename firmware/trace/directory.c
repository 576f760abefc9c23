// SPDX-License-Identifier: BSD-2-Clause
/*
 * The trace directory (directory.h): written once at cold boot.  It points
 * at the live register models instead of copying from them, so it costs
 * the trace path nothing and is always current; a reader stops the
 * machine (QEMU's monitor `stop`) while it reads, for a consistent view.
 */
#include <stddef.h>
#include <string.h>
#include "firmware/trace/directory.h"
#include "firmware/trace/trace_hart.h"
#include "firmware/core/platform.h"
#include "lib/tci/tci_spec.h"
#include "firmware/trace/trace.h"

struct trace_directory trace_directory;

#define FIELD_SIZE(type, field) sizeof(((type *)0)->field)
_Static_assert(FIELD_SIZE(struct tci_encoder, control) == 4 &&
	       FIELD_SIZE(struct tci_encoder, inst_features) == 4 &&
	       FIELD_SIZE(struct tci_encoder, ts_control) == 4 &&
	       FIELD_SIZE(struct tci_encoder, ingress) == 4 &&
	       FIELD_SIZE(struct tci_ramsink, control) == 4 &&
	       FIELD_SIZE(struct tci_ramsink, start) == 8 &&
	       FIELD_SIZE(struct tci_ramsink, limit) == 8 &&
	       FIELD_SIZE(struct tci_ramsink, wp) == 8 &&
	       FIELD_SIZE(struct tci_ramsink, wrap) == 1 &&
	       FIELD_SIZE(struct tci_ramsink, sram) == 8,
	       "the sizes directory.h documents (version 1)");
_Static_assert(offsetof(struct trace_directory, next_addr) == 56 &&
	       offsetof(struct trace_directory, hart) == 64 &&
	       sizeof(struct trace_directory_hart) == 24, "the layout scripts/trace-save.py reads");

void trace_directory_init(void)
{
	struct trace_directory *d = &trace_directory;
	unsigned int i, n = 0;

	memcpy(d->magic, TRACE_DIRECTORY_MAGIC, sizeof(d->magic));
	d->version = TRACE_DIRECTORY_VERSION;
	d->timebase_hz = platform.timebase_hz;
	d->te_control = offsetof(struct tci_encoder, control);
	d->te_features = offsetof(struct tci_encoder, inst_features);
	d->te_tscontrol = offsetof(struct tci_encoder, ts_control);
	d->te_ingress = offsetof(struct tci_encoder, ingress);
	d->ram_control = offsetof(struct tci_ramsink, control);
	d->ram_start = offsetof(struct tci_ramsink, start);
	d->ram_limit = offsetof(struct tci_ramsink, limit);
	d->ram_wp = offsetof(struct tci_ramsink, wp);
	d->ram_wrap = offsetof(struct tci_ramsink, wrap);
	d->ram_sram = offsetof(struct tci_ramsink, sram);
	d->ram_mode_smem = TRRAM_MODE_SMEM;
	d->te_tscontrol_or = (uint32_t)TSBI_TS_WIDTH << TRTS_WIDTH_SHIFT;
	for (i = 0; i < hart_count; i++) {
		struct trace_hart *th = hart_table[i]->trace;

		if (!th)
			continue;
		d->hart[n].hartid = hart_table[i]->hartid;
		d->hart[n].encoder = (uintptr_t)&th->te;
		d->hart[n].sink = (uintptr_t)&th->ram;
		n++;
	}
	d->harts = n;
}

void trace_next_stage(unsigned long addr)
{
	trace_directory.next_addr = addr;
}
