// SPDX-License-Identifier: (GPL-2.0 OR BSD-2-Clause)
/*
 * Module init and exit: bind the trace components, pair an encoder with
 * its RAM sink per CPU, give each pair a physically contiguous buffer of
 * ordinary RAM (the sink writes it in SMEM mode) and register one PMU,
 * tracesbi_trace, if at least one CPU can be traced.
 */
#include <linux/gfp.h>
#include <linux/io.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/slab.h>

#include "tracesbi_trace.h"

static unsigned int sink_kb = 1024;
module_param(sink_kb, uint, 0444);
MODULE_PARM_DESC(sink_kb, "RAM sink buffer per CPU in KiB (4 up to the largest page allocation; default 1024)");

static struct tsbi_cpu **tsbi_cpus;

/* alloc_pages_exact() serves up to the largest buddy order. */
static int sink_bytes(size_t *bytes)
{
	size_t max = PAGE_SIZE << (MAX_ORDER - 1);

	if (sink_kb < 4 || (size_t)sink_kb > max / 1024) {
		pr_err(TSBI_PMU_NAME ": sink_kb=%u: must be 4..%zu\n", sink_kb, max / 1024);
		return -EINVAL;
	}
	*bytes = (size_t)sink_kb * 1024;
	return 0;
}

static int alloc_sink_buf(struct tsbi_cpu *c, size_t bytes)
{
	c->buf.virt = alloc_pages_exact(bytes, GFP_KERNEL | __GFP_ZERO | __GFP_NOWARN);
	if (!c->buf.virt)
		return -ENOMEM;
	c->buf.phys = virt_to_phys(c->buf.virt);
	c->buf.size = bytes;
	return 0;
}

/* Frees the buffer only once the sink cannot write to it any more. */
static void free_cpu(struct tsbi_cpu *c)
{
	if (c->buf.virt) {
		if (tsbi_hw_release_buffer(c))
			free_pages_exact(c->buf.virt, c->buf.size);
		else
			pr_err(TSBI_PMU_NAME ": CPU %d: sink still writes to %pa: buffer left allocated\n",
			       c->cpu, &c->buf.phys);
	}
	kfree(c);
}

static void free_cpus(void)
{
	unsigned int cpu;

	if (!tsbi_cpus)
		return;
	for (cpu = 0; cpu < nr_cpu_ids; cpu++)
		if (tsbi_cpus[cpu])
			free_cpu(tsbi_cpus[cpu]);
	kfree(tsbi_cpus);
	tsbi_cpus = NULL;
}

/* The CPU's state if it has an encoder feeding a RAM sink, else NULL. */
static struct tsbi_cpu *setup_cpu(int cpu, size_t bytes)
{
	struct tsbi_comp *enc, *sink;
	struct tsbi_cpu *c;

	if (tsbi_components_pair(cpu, &enc, &sink))
		return NULL;
	c = kzalloc(sizeof(*c), GFP_KERNEL);
	if (!c)
		return NULL;
	c->cpu = cpu;
	c->enc = enc;
	c->sink = sink;
	if (alloc_sink_buf(c, bytes)) {
		dev_err(sink->dev, "CPU %d: no %zu bytes of contiguous memory for the sink\n",
			cpu, bytes);
		kfree(c);
		return NULL;
	}
	dev_info(enc->dev, "CPU %d: encoder -> RAM sink %pOF, buffer %pa (%zu KiB)\n",
		 cpu, sink->np, &c->buf.phys, bytes / 1024);
	return c;
}

static int __init tsbi_trace_init(void)
{
	unsigned int traced = 0;
	size_t bytes;
	int cpu, rc;

	rc = sink_bytes(&bytes);
	if (rc)
		return rc;
	rc = tsbi_components_register();
	if (rc)
		return rc;
	tsbi_cpus = kcalloc(nr_cpu_ids, sizeof(*tsbi_cpus), GFP_KERNEL);
	if (!tsbi_cpus) {
		rc = -ENOMEM;
		goto err;
	}
	for_each_possible_cpu(cpu) {
		tsbi_cpus[cpu] = setup_cpu(cpu, bytes);
		traced += !!tsbi_cpus[cpu];
	}
	if (!traced) {
		pr_info(TSBI_PMU_NAME ": no CPU has a trace encoder feeding a RAM sink (riscv,trace-component): no PMU\n");
		rc = -ENODEV;
		goto err;
	}
	rc = tsbi_pmu_register(tsbi_cpus);
	if (rc) {
		pr_err(TSBI_PMU_NAME ": perf_pmu_register: %d\n", rc);
		goto err;
	}
	pr_info(TSBI_PMU_NAME ": PMU registered, %u CPU(s) traced\n", traced);
	return 0;
err:
	free_cpus();
	tsbi_components_unregister();
	return rc;
}

static void __exit tsbi_trace_exit(void)
{
	tsbi_pmu_unregister();
	free_cpus();
	tsbi_components_unregister();
}

module_init(tsbi_trace_init);
module_exit(tsbi_trace_exit);

MODULE_DESCRIPTION("perf AUX PMU for RISC-V TCI trace encoders and RAM sinks (tracesbi)");
MODULE_LICENSE("Dual BSD/GPL");
