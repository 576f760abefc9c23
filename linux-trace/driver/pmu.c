// SPDX-License-Identifier: (GPL-2.0 OR BSD-2-Clause)
/*
 * The tracesbi_trace perf PMU.  An event's config selects the encoder's
 * instruction-trace options (the sysfs format attributes below); its
 * exclude_user / exclude_kernel select a privilege filter.  Every pmu
 * start programs and starts the CPU's encoder and RAM sink afresh, and
 * every stop stops them and copies what the sink holds into the event's
 * AUX area, as one PERF_RECORD_AUX: a complete N-Trace stream that begins
 * with the encoder's start (its first sync message).
 *
 * Address filters (perf's PERF_EVENT_IOC_SET_FILTER, "filter" action)
 * become encoder filters with one range comparator each, ANDed with the
 * privilege filter.
 *
 * The sink is not drained while the event runs (it raises no interrupt):
 * it keeps the first sink_kb KiB of each start-stop segment, stops when
 * full, and the record is flagged truncated then.
 */
#include <linux/bitfield.h>
#include <linux/slab.h>

#include "tracesbi_trace.h"
#include "tci_spec.h"

/* perf_event_attr.config bits (the format attributes say the same). */
#define TSBI_CFG_BTM          BIT_ULL(0)
#define TSBI_CFG_SEQJUMP      BIT_ULL(1)
#define TSBI_CFG_IMPLICITRET  BIT_ULL(2)
#define TSBI_CFG_REPEAT       BIT_ULL(3)
#define TSBI_CFG_ALLJUMPS     BIT_ULL(4)
#define TSBI_CFG_EXTADDR      BIT_ULL(5)
#define TSBI_CFG_TS           BIT_ULL(8)
#define TSBI_CFG_CTX          BIT_ULL(9)
#define TSBI_CFG_SYNC         GENMASK_ULL(19, 16)
#define TSBI_CFG_SYNCMAX      GENMASK_ULL(23, 20)
#define TSBI_CFG_VALID        (GENMASK_ULL(5, 0) | TSBI_CFG_TS | TSBI_CFG_CTX | \
			       TSBI_CFG_SYNC | TSBI_CFG_SYNCMAX)

/* trTeInstSyncMode: 0 off, 1 messages, 2 timestamp ticks, 3 half-words. */
#define TSBI_SYNC_MODE_MAX    3

/* MatchChoicePrivilege bits: the privilege levels' encodings (U 0, S 1). */
#define TSBI_PRIV_U           BIT(0)
#define TSBI_PRIV_S           BIT(1)

PMU_FORMAT_ATTR(btm, "config:0");
PMU_FORMAT_ATTR(seqjump, "config:1");
PMU_FORMAT_ATTR(implicitret, "config:2");
PMU_FORMAT_ATTR(repeat, "config:3");
PMU_FORMAT_ATTR(alljumps, "config:4");
PMU_FORMAT_ATTR(extaddr, "config:5");
PMU_FORMAT_ATTR(ts, "config:8");
PMU_FORMAT_ATTR(ctx, "config:9");
PMU_FORMAT_ATTR(sync, "config:16-19");
PMU_FORMAT_ATTR(syncmax, "config:20-23");

static struct attribute *tsbi_format_attrs[] = {
	&format_attr_btm.attr,
	&format_attr_seqjump.attr,
	&format_attr_implicitret.attr,
	&format_attr_repeat.attr,
	&format_attr_alljumps.attr,
	&format_attr_extaddr.attr,
	&format_attr_ts.attr,
	&format_attr_ctx.attr,
	&format_attr_sync.attr,
	&format_attr_syncmax.attr,
	NULL,
};

static const struct attribute_group tsbi_format_group = {
	.name = "format",
	.attrs = tsbi_format_attrs,
};

static const struct attribute_group *tsbi_attr_groups[] = {
	&tsbi_format_group,
	NULL,
};

/* The AUX area of one perf buffer: the pages setup_aux was given. */
struct tsbi_aux {
	void **pages;
	int nr_pages;
	unsigned long size;
};

struct tsbi_trace {
	struct pmu pmu;
	struct tsbi_cpu **cpus;   /* nr_cpu_ids entries, NULL: no components */
};

static struct tsbi_trace tsbi_trace;

/* An event's address filters as its last sync translated them (kept in
 * event->hw.addr_filters, read by its start on the CPU).
 */
struct tsbi_filters {
	unsigned int nr;
	struct tsbi_addr_range range[TSBI_NR_ADDR_FILTERS];
};

static struct tsbi_cpu *cpu_state(int cpu)
{
	if (cpu < 0 || cpu >= nr_cpu_ids)
		return NULL;
	return tsbi_trace.cpus[cpu];
}

/* The encoder settings an event asks for; -EINVAL if it asks for what
 * this PMU does not do.
 */
static int encoder_cfg_of(const struct perf_event *event, struct tsbi_encoder_cfg *cfg)
{
	const struct perf_event_attr *attr = &event->attr;
	const struct tsbi_filters *filters;
	u64 config = attr->config;

	if (config & ~TSBI_CFG_VALID || attr->config1 || attr->config2)
		return -EINVAL;
	if (FIELD_GET(TSBI_CFG_SYNC, config) > TSBI_SYNC_MODE_MAX)
		return -EINVAL;
	if (attr->exclude_user && attr->exclude_kernel)
		return -EINVAL;

	memset(cfg, 0, sizeof(*cfg));
	cfg->inst_mode = config & TSBI_CFG_BTM ? TRTE_INST_MODE_BASELINE :
						 TRTE_INST_MODE_OPTIMIZED;
	if (config & TSBI_CFG_SEQJUMP)
		cfg->features |= TRTE_INST_EN_SEQUENTIAL_JUMP;
	/* Implicit return in mode 3, as the firmware's boot option sets it. */
	if (config & TSBI_CFG_IMPLICITRET)
		cfg->features |= TRTE_INST_EN_IMPLICIT_RETURN |
				 3u << TRTE_INST_IMPLICIT_RETURN_MODE_SHIFT;
	if (config & TSBI_CFG_REPEAT)
		cfg->features |= TRTE_INST_EN_REPEATED_HISTORY;
	if (config & TSBI_CFG_ALLJUMPS)
		cfg->features |= TRTE_INST_EN_ALL_JUMPS;
	if (config & TSBI_CFG_EXTADDR)
		cfg->features |= TRTE_INST_EXTEND_ADDR_MSB;
	cfg->timestamps = config & TSBI_CFG_TS;
	cfg->context = config & TSBI_CFG_CTX;
	cfg->sync_mode = FIELD_GET(TSBI_CFG_SYNC, config);
	cfg->sync_max = FIELD_GET(TSBI_CFG_SYNCMAX, config);
	if (attr->exclude_kernel)
		cfg->priv_choice = TSBI_PRIV_U;
	else if (attr->exclude_user)
		cfg->priv_choice = TSBI_PRIV_S;
	filters = event->hw.addr_filters;
	if (filters) {
		cfg->nr_ranges = filters->nr;
		memcpy(cfg->range, filters->range, sizeof(cfg->range));
	}
	return 0;
}

static void tsbi_event_destroy(struct perf_event *event)
{
	kfree(event->hw.addr_filters);
	event->hw.addr_filters = NULL;
}

/* Last in event_init: nothing to undo after it. */
static int alloc_filters(struct perf_event *event)
{
	event->hw.addr_filters = kzalloc(sizeof(struct tsbi_filters), GFP_KERNEL);
	if (!event->hw.addr_filters)
		return -ENOMEM;
	event->destroy = tsbi_event_destroy;
	return 0;
}

/* A per-CPU event's CPU must have components that nobody else uses. */
static int cpu_event_check(int cpu)
{
	struct tsbi_cpu *c = cpu_state(cpu);

	if (!c)
		return -ENOENT;
	if (READ_ONCE(c->broken))
		return -EIO;
	/* -EBUSY: enabled by someone else (the firmware's boot trace), or by
	 * an event of ours already (PERF_PMU_CAP_EXCLUSIVE refuses that too).
	 */
	return tsbi_hw_encoder_state(c->enc);
}

static int tsbi_event_init(struct perf_event *event)
{
	struct tsbi_encoder_cfg cfg;
	int rc;

	if (event->attr.type != event->pmu->type)
		return -ENOENT;
	/* A trace, not samples: nothing would ever overflow. */
	if (is_sampling_event(event))
		return -EINVAL;
	rc = encoder_cfg_of(event, &cfg);
	if (rc)
		return rc;
	/* Per-task events (cpu -1) are checked when they start on a CPU. */
	if (event->cpu >= 0) {
		rc = cpu_event_check(event->cpu);
		if (rc)
			return rc;
	}
	return alloc_filters(event);
}

/* perf_event_addr_filters_apply() fills one addr_filter_ranges entry per
 * filter: at most TSBI_NR_ADDR_FILTERS.  Start/stop actions would need the
 * encoder's trace-on/off triggers, which this driver does not program.
 */
static int tsbi_addr_filters_validate(struct list_head *filters)
{
	struct perf_addr_filter *f;
	unsigned int n = 0;

	list_for_each_entry(f, filters, entry) {
		if (f->action != PERF_ADDR_FILTER_ACTION_FILTER)
			return -EOPNOTSUPP;
		if (++n > TSBI_NR_ADDR_FILTERS)
			return -EOPNOTSUPP;
		/* A range given by address (no file) must not wrap. */
		if (!f->path.dentry && f->offset + f->size - 1 < f->offset)
			return -EINVAL;
	}
	return 0;
}

/* Called by perf_event_addr_filters_sync() from our start, under the
 * filters' lock: the ranges perf resolved (a file filter whose file is
 * not mapped has size 0 and matches nothing).
 */
static void tsbi_addr_filters_sync(struct perf_event *event)
{
	struct perf_addr_filters_head *head = perf_event_addr_filters(event);
	const struct perf_addr_filter_range *fr = event->addr_filter_ranges;
	struct tsbi_filters *filters = event->hw.addr_filters;
	struct perf_addr_filter *f;
	unsigned int i = 0;

	if (!filters)
		return;
	list_for_each_entry(f, &head->list, entry) {
		struct tsbi_addr_range *r;

		if (i == TSBI_NR_ADDR_FILTERS)
			break;
		r = &filters->range[i];
		r->empty = !fr[i].size;
		r->first = fr[i].start;
		r->last = fr[i].start + fr[i].size - 1;
		i++;
	}
	filters->nr = i;
}

/* Copies len bytes into the AUX ring at position head (a running byte
 * count: the ring offset is head modulo its size).
 */
static void aux_write(const struct tsbi_aux *aux, unsigned long head, const u8 *src, size_t len)
{
	unsigned long off = head % aux->size;

	while (len) {
		size_t in_page = off & (PAGE_SIZE - 1);
		size_t chunk = min_t(size_t, len, PAGE_SIZE - in_page);

		memcpy((u8 *)aux->pages[off >> PAGE_SHIFT] + in_page, src, chunk);
		src += chunk;
		len -= chunk;
		off = (off + chunk) % aux->size;
	}
}

/* The captured bytes, oldest first, as far as the AUX space allows;
 * returns how many were copied.
 */
static size_t copy_capture(struct tsbi_cpu *c, const struct tsbi_capture *cap)
{
	struct perf_output_handle *handle = &c->handle;
	const struct tsbi_aux *aux = perf_get_aux(handle);
	size_t todo = min_t(size_t, cap->len, handle->size);
	size_t first_part = min_t(size_t, todo, c->buf.size - cap->first);
	const u8 *buf = c->buf.virt;

	if (!aux || !todo)
		return 0;
	aux_write(aux, handle->head, buf + cap->first, first_part);
	aux_write(aux, handle->head + first_part, buf, todo - first_part);
	return todo;
}

static void tsbi_event_start(struct perf_event *event, int flags)
{
	struct tsbi_cpu *c = cpu_state(smp_processor_id());
	struct tsbi_encoder_cfg cfg;

	event->hw.state = PERF_HES_STOPPED;
	/* A per-task event on a CPU without components records nothing. */
	if (!c || c->event || c->broken)
		return;
	switch (tsbi_hw_encoder_state(c->enc)) {
	case 0:
		break;
	case -EBUSY:
		dev_info_ratelimited(c->enc->dev, "CPU %d: encoder already enabled (firmware boot trace?): not tracing\n",
				     c->cpu);
		return;
	default:
		return;
	}
	perf_event_addr_filters_sync(event);
	if (encoder_cfg_of(event, &cfg))
		return;
	/* No AUX buffer mapped, or no room in it: perf disables the event. */
	if (!perf_aux_output_begin(&c->handle, event))
		return;
	if (tsbi_hw_start(c, &cfg)) {
		perf_aux_output_end(&c->handle, 0);
		return;
	}
	c->event = event;
	event->hw.state = 0;
}

static void tsbi_event_stop(struct perf_event *event, int flags)
{
	struct tsbi_cpu *c = cpu_state(smp_processor_id());
	struct tsbi_capture cap;
	size_t copied = 0;

	if (event->hw.state & PERF_HES_STOPPED)
		return;
	event->hw.state = PERF_HES_STOPPED | PERF_HES_UPTODATE;
	if (WARN_ON_ONCE(!c || c->event != event))
		return;
	c->event = NULL;
	if (tsbi_hw_stop(c, &cap)) {
		/* Nothing trustworthy to hand over: say bytes were lost. */
		perf_aux_output_flag(&c->handle, PERF_AUX_FLAG_TRUNCATED);
	} else {
		copied = copy_capture(c, &cap);
		if (cap.filled || cap.overflow || copied < cap.len)
			perf_aux_output_flag(&c->handle, PERF_AUX_FLAG_TRUNCATED);
	}
	/* The bytes before the aux_head that perf_aux_output_end publishes
	 * (user space reads aux_head, then the data).
	 */
	smp_wmb();
	perf_aux_output_end(&c->handle, copied);
}

static int tsbi_event_add(struct perf_event *event, int flags)
{
	struct tsbi_cpu *c = cpu_state(smp_processor_id());

	/* PERF_PMU_CAP_EXCLUSIVE keeps a second event off this CPU. */
	if (c && c->event)
		return -EBUSY;
	event->hw.state = PERF_HES_STOPPED | PERF_HES_UPTODATE;
	if (flags & PERF_EF_START)
		tsbi_event_start(event, PERF_EF_RELOAD);
	return 0;
}

static void tsbi_event_del(struct perf_event *event, int flags)
{
	tsbi_event_stop(event, PERF_EF_UPDATE);
}

/* No counter: the trace is the AUX data. */
static void tsbi_event_read(struct perf_event *event)
{
}

static void *tsbi_setup_aux(struct perf_event *event, void **pages, int nr_pages,
			    bool overwrite)
{
	int node = event->cpu < 0 ? NUMA_NO_NODE : cpu_to_node(event->cpu);
	struct tsbi_aux *aux;

	/* Snapshot mode (a read-only AUX mapping) needs the trace of the
	 * moment of a snapshot, which a sink drained only at stop cannot
	 * give; perf reports the refusal as ENOMEM from mmap.
	 */
	if (overwrite) {
		pr_debug(TSBI_PMU_NAME ": AUX snapshot (overwrite) mode is not supported\n");
		return NULL;
	}
	if (nr_pages <= 0)
		return NULL;
	aux = kzalloc_node(sizeof(*aux), GFP_KERNEL, node);
	if (!aux)
		return NULL;
	/* perf keeps the array until after free_aux. */
	aux->pages = pages;
	aux->nr_pages = nr_pages;
	aux->size = (unsigned long)nr_pages << PAGE_SHIFT;
	return aux;
}

static void tsbi_free_aux(void *aux)
{
	kfree(aux);
}

int tsbi_pmu_register(struct tsbi_cpu **cpus)
{
	tsbi_trace.cpus = cpus;
	tsbi_trace.pmu = (struct pmu) {
		.module = THIS_MODULE,
		.attr_groups = tsbi_attr_groups,
		/* One trace per CPU; perf_sw_context lets per-task events
		 * follow their task beside the core PMU's hardware context.
		 */
		.capabilities = PERF_PMU_CAP_EXCLUSIVE | PERF_PMU_CAP_ITRACE,
		.task_ctx_nr = perf_sw_context,
		.nr_addr_filters = TSBI_NR_ADDR_FILTERS,
		.addr_filters_validate = tsbi_addr_filters_validate,
		.addr_filters_sync = tsbi_addr_filters_sync,
		.event_init = tsbi_event_init,
		.add = tsbi_event_add,
		.del = tsbi_event_del,
		.start = tsbi_event_start,
		.stop = tsbi_event_stop,
		.read = tsbi_event_read,
		.setup_aux = tsbi_setup_aux,
		.free_aux = tsbi_free_aux,
	};
	return perf_pmu_register(&tsbi_trace.pmu, TSBI_PMU_NAME, -1);
}

void tsbi_pmu_unregister(void)
{
	perf_pmu_unregister(&tsbi_trace.pmu);
}
