/* SPDX-License-Identifier: (GPL-2.0 OR BSD-2-Clause) */
/*
 * tracesbi_trace: a perf AUX PMU over RISC-V Trace Control Interface 1.0
 * components (one N-Trace encoder feeding one RAM sink per CPU), as the
 * tracesbi firmware emulates them.  Shared types of the module's parts:
 *
 *   components.c  platform driver: finds the components, pairs them per CPU
 *   tci_hw.c      TCI register sequences on one encoder + RAM sink pair
 *   pmu.c         the perf PMU and its AUX output
 *   main.c        module parameters, sink buffers, init and exit
 */
#ifndef TRACESBI_TRACE_H
#define TRACESBI_TRACE_H

#include <linux/device.h>
#include <linux/list.h>
#include <linux/of.h>
#include <linux/perf_event.h>
#include <linux/types.h>

#define TSBI_PMU_NAME "tracesbi_trace"

/* One trace component node (any type) bound by the platform driver. */
struct tsbi_comp {
	struct device *dev;
	struct device_node *np;
	void __iomem *regs;       /* the 4 KiB register block */
	u32 impl;                 /* tr??Impl as read at probe */
	int cpu;                  /* Linux CPU of its `cpus` hart, or -1 */
	bool claimed;             /* paired with an encoder already */
	struct list_head link;
};

/* The physically contiguous SMEM buffer of one RAM sink. */
struct tsbi_sink_buf {
	void *virt;
	phys_addr_t phys;
	size_t size;              /* a multiple of 4; limit = phys + size - 4 */
};

/* Address range filters an event may have (perf's addr filters, action
 * "filter" only): one encoder filter and one comparator each.
 */
#define TSBI_NR_ADDR_FILTERS 4

/* Instructions at first..last (inclusive, so that a range may end at the
 * top of the address space); `empty`: a file filter not mapped (yet).
 */
struct tsbi_addr_range {
	u64 first, last;
	bool empty;
};

/* What one event asks of the encoder (derived from perf_event_attr and
 * the event's address filters).
 */
struct tsbi_encoder_cfg {
	u32 inst_mode;            /* TRTE_INST_MODE_BASELINE or _OPTIMIZED */
	u32 features;             /* trTeInstFeatures */
	u32 sync_mode, sync_max;  /* trTeInstSyncMode, trTeInstSyncMax */
	bool context;             /* trTeContext */
	bool timestamps;          /* trTsControl on */
	u32 priv_choice;          /* 0: no filter; else MatchChoicePrivilege */
	unsigned int nr_ranges;   /* 0: no address filter */
	struct tsbi_addr_range range[TSBI_NR_ADDR_FILTERS];
};

/* What a stopped sink holds: `len` bytes from buffer offset `first`,
 * continuing at offset 0 when the end of the buffer is reached.
 */
struct tsbi_capture {
	size_t first;
	size_t len;
	bool filled;              /* trRamWrap set or WP at the end: full */
	bool overflow;            /* trTeInstStallOrOverflow: bytes were lost */
};

/* Per-CPU state.  After init only the CPU itself changes it (perf calls
 * add/del/start/stop on the event's CPU with interrupts off); event_init
 * elsewhere only reads `broken` and the encoder's trTeControl.
 */
struct tsbi_cpu {
	int cpu;
	struct tsbi_comp *enc, *sink;
	struct tsbi_sink_buf buf;
	struct perf_output_handle handle;
	struct perf_event *event; /* the event tracing here now, or NULL */
	bool broken;              /* the sink did not stop: never used again */
};

/* components.c */
int tsbi_components_register(void);
void tsbi_components_unregister(void);
int tsbi_components_pair(int cpu, struct tsbi_comp **enc, struct tsbi_comp **sink);

/* tci_hw.c */
int tsbi_hw_read_impl(struct tsbi_comp *comp, u32 *impl);
/* 0: idle; -EBUSY: trTeEnable is set; -EIO: not accessible */
int tsbi_hw_encoder_state(struct tsbi_comp *enc);
int tsbi_hw_start(struct tsbi_cpu *c, const struct tsbi_encoder_cfg *cfg);
int tsbi_hw_stop(struct tsbi_cpu *c, struct tsbi_capture *cap);
bool tsbi_hw_release_buffer(struct tsbi_cpu *c);

/* pmu.c */
int tsbi_pmu_register(struct tsbi_cpu **cpus);
void tsbi_pmu_unregister(void);

#endif /* TRACESBI_TRACE_H */
