// SPDX-License-Identifier: (GPL-2.0 OR BSD-2-Clause)
/*
 * Trace component discovery (trace-component-dt-binding.md): a platform
 * driver binds every "riscv,trace-component" node, maps its 4 KiB block
 * and identifies it from tr??Impl (the binding has no per-type
 * compatible).  Probing is forced synchronous, so once
 * tsbi_components_register() returns every node has been seen and
 * tsbi_components_pair() can follow the out-ports graph.
 *
 * Probing never writes a register: a component may be tracing the boot
 * for the firmware (tracesbi.trace=), and that trace must survive.
 */
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/of_graph.h>
#include <linux/platform_device.h>

#include "tracesbi_trace.h"
#include "tci_spec.h"

static LIST_HEAD(tsbi_comps);
static DEFINE_MUTEX(tsbi_comps_lock);

static const char *comp_type_name(unsigned int type)
{
	switch (type) {
	case TRCOMP_ENCODER:
		return "encoder";
	case TRCOMP_FUNNEL:
		return "funnel";
	case TRCOMP_RAMSINK:
		return "RAM sink";
	case TRCOMP_PIBSINK:
		return "PIB sink";
	case TRCOMP_ATBBRIDGE:
		return "ATB bridge";
	default:
		return "unknown component";
	}
}

static unsigned int comp_type(const struct tsbi_comp *comp)
{
	return TCI_IMPL_COMP_TYPE(comp->impl);
}

/* The Linux CPU of the `cpus` hart: the cpu node's reg is the hart ID, and
 * of_cpu_node_to_id() maps the node through the kernel's hart ID map (the
 * lookup riscv_hartid_to_cpuid() does, which 6.1 does not export).
 */
static int cpu_of_component(struct device *dev, struct device_node *np)
{
	struct device_node *cpu_np = of_parse_phandle(np, "cpus", 0);
	const __be32 *reg;
	int cpu, len, cells;

	if (!cpu_np)
		return -1;
	cpu = of_cpu_node_to_id(cpu_np);
	if (cpu < 0) {
		cells = of_n_addr_cells(cpu_np);
		reg = of_get_property(cpu_np, "reg", &len);
		if (reg && cells > 0 && len >= cells * (int)sizeof(*reg))
			dev_warn(dev, "cpus: hart %llu (%pOF) is not a CPU of this kernel\n",
				 of_read_number(reg, cells), cpu_np);
		else
			dev_warn(dev, "cpus: %pOF has no hart ID\n", cpu_np);
		cpu = -1;
	}
	of_node_put(cpu_np);
	return cpu;
}

static int tsbi_comp_probe(struct platform_device *pdev)
{
	struct device *dev = &pdev->dev;
	struct resource *res;
	struct tsbi_comp *comp;

	comp = devm_kzalloc(dev, sizeof(*comp), GFP_KERNEL);
	if (!comp)
		return -ENOMEM;
	comp->dev = dev;
	comp->np = dev->of_node;
	comp->regs = devm_platform_get_and_ioremap_resource(pdev, 0, &res);
	if (IS_ERR(comp->regs))
		return PTR_ERR(comp->regs);
	if (resource_size(res) < TCI_COMPONENT_SIZE) {
		dev_err(dev, "reg: %pR is smaller than a 4 KiB component\n", res);
		return -EINVAL;
	}
	if (tsbi_hw_read_impl(comp, &comp->impl)) {
		dev_err(dev, "tr??Impl (%pR + 0x%x) cannot be read\n", res, TCI_IMPL_OFFSET);
		return -EIO;
	}
	/* "Versioning of Components": 0 is pre-ratified, 2+ incompatible. */
	if (TCI_IMPL_VER_MAJOR(comp->impl) != 1) {
		dev_err(dev, "tr??Impl 0x%08x: version %u.%u, only 1.x is supported\n",
			comp->impl, TCI_IMPL_VER_MAJOR(comp->impl),
			TCI_IMPL_VER_MINOR(comp->impl));
		return -ENODEV;
	}
	comp->cpu = cpu_of_component(dev, comp->np);
	platform_set_drvdata(pdev, comp);

	mutex_lock(&tsbi_comps_lock);
	list_add_tail(&comp->link, &tsbi_comps);
	mutex_unlock(&tsbi_comps_lock);
	dev_dbg(dev, "%s, TCI %u.%u, cpu %d\n", comp_type_name(comp_type(comp)),
		TCI_IMPL_VER_MAJOR(comp->impl), TCI_IMPL_VER_MINOR(comp->impl), comp->cpu);
	return 0;
}

static int tsbi_comp_remove(struct platform_device *pdev)
{
	struct tsbi_comp *comp = platform_get_drvdata(pdev);

	mutex_lock(&tsbi_comps_lock);
	list_del(&comp->link);
	mutex_unlock(&tsbi_comps_lock);
	return 0;
}

static const struct of_device_id tsbi_comp_of_match[] = {
	{ .compatible = "riscv,trace-component" },
	{ }
};
MODULE_DEVICE_TABLE(of, tsbi_comp_of_match);

static struct platform_driver tsbi_comp_driver = {
	.probe = tsbi_comp_probe,
	.remove = tsbi_comp_remove,
	.driver = {
		.name = "tracesbi-trace-component",
		.of_match_table = tsbi_comp_of_match,
		/* Every node probed before register() returns. */
		.probe_type = PROBE_FORCE_SYNCHRONOUS,
		/* The PMU uses the mappings until module exit. */
		.suppress_bind_attrs = true,
	},
};

int tsbi_components_register(void)
{
	return platform_driver_register(&tsbi_comp_driver);
}

void tsbi_components_unregister(void)
{
	platform_driver_unregister(&tsbi_comp_driver);
}

/* The component a remote endpoint belongs to: endpoint -> port ->
 * (in-ports | ports | none) -> component node.
 */
static struct tsbi_comp *component_owning(struct device_node *endpoint)
{
	struct device_node *np = of_node_get(endpoint);
	struct tsbi_comp *comp;
	int level;

	for (level = 0; np && level < 4; level++) {
		list_for_each_entry(comp, &tsbi_comps, link) {
			if (comp->np == np) {
				of_node_put(np);
				return comp;
			}
		}
		np = of_get_next_parent(np);
	}
	of_node_put(np);
	return NULL;
}

/* The component the encoder's out-ports point at, or NULL. */
static struct tsbi_comp *component_fed_by(struct tsbi_comp *enc)
{
	struct device_node *ports = of_get_child_by_name(enc->np, "out-ports");
	struct device_node *ep, *remote;
	struct tsbi_comp *found = NULL;

	if (!ports)
		return NULL;
	for_each_endpoint_of_node(ports, ep) {
		remote = of_graph_get_remote_endpoint(ep);
		if (!remote)
			continue;
		found = component_owning(remote);
		of_node_put(remote);
		if (found) {
			of_node_put(ep);
			break;
		}
	}
	of_node_put(ports);
	return found;
}

static struct tsbi_comp *encoder_of_cpu(int cpu)
{
	struct tsbi_comp *comp, *enc = NULL;

	list_for_each_entry(comp, &tsbi_comps, link) {
		if (comp_type(comp) != TRCOMP_ENCODER || comp->cpu != cpu)
			continue;
		if (!enc)
			enc = comp;
		else
			dev_warn(comp->dev, "second encoder of CPU %d: ignored\n", cpu);
	}
	return enc;
}

/* Checks the encoder feeds a RAM sink of its own, directly, that can write
 * to system memory; logs why not.
 */
static struct tsbi_comp *sink_of_encoder(struct tsbi_comp *enc)
{
	struct tsbi_comp *sink = component_fed_by(enc);
	unsigned int type;

	if (!sink) {
		dev_warn(enc->dev, "out-ports lead to no trace component: CPU %d not traced\n",
			 enc->cpu);
		return NULL;
	}
	type = comp_type(sink);
	if (type != TRCOMP_RAMSINK) {
		dev_warn(enc->dev, "feeds a %s (%pOF), not a RAM sink: CPU %d not traced\n",
			 comp_type_name(type), sink->np, enc->cpu);
		return NULL;
	}
	if (sink->cpu >= 0 && sink->cpu != enc->cpu) {
		dev_warn(enc->dev, "its sink %pOF belongs to CPU %d: CPU %d not traced\n",
			 sink->np, sink->cpu, enc->cpu);
		return NULL;
	}
	if (sink->claimed) {
		dev_warn(enc->dev, "its sink %pOF is fed by another encoder: CPU %d not traced\n",
			 sink->np, enc->cpu);
		return NULL;
	}
	if (!(sink->impl & TRRAM_HAS_SMEM)) {
		dev_warn(sink->dev, "trRamImpl 0x%08x: no SMEM mode: CPU %d not traced\n",
			 sink->impl, enc->cpu);
		return NULL;
	}
	return sink;
}

int tsbi_components_pair(int cpu, struct tsbi_comp **enc, struct tsbi_comp **sink)
{
	int rc = -ENOENT;

	mutex_lock(&tsbi_comps_lock);
	*enc = encoder_of_cpu(cpu);
	*sink = *enc ? sink_of_encoder(*enc) : NULL;
	if (*sink) {
		(*sink)->claimed = true;
		rc = 0;
	}
	mutex_unlock(&tsbi_comps_lock);
	return rc;
}
