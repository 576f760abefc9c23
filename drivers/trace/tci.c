// SPDX-License-Identifier: BSD-2-Clause
/*
 * Trace Control Interface driver (contract in tci.h).  Sequences follow
 * the TCI chapters "Reset and Discovery" and "Enabling and Disabling";
 * every setting is read back, since most fields are WARL and a component
 * may lack any of them.
 */
#include <string.h>
#include "drivers/trace/tci.h"

/* "Hardware may take an arbitrarily long time ... debug tools should
 * monitor (with reasonable timeout)": this many reads. */
#define TCI_POLL_READS 100000

static uint32_t mmio_read(void *ctx, uint64_t addr)
{
	(void)ctx;
	return *(volatile uint32_t *)(uintptr_t)addr;
}

static void mmio_write(void *ctx, uint64_t addr, uint32_t val)
{
	(void)ctx;
	*(volatile uint32_t *)(uintptr_t)addr = val;
}

const struct tci_io tci_mmio = { mmio_read, mmio_write, NULL };

const char *tci_strerror(int err)
{
	static const char *const text[] = {
		[TCI_OK] = "success",
		[TCI_ERR_DT] = "malformed trace component node",
		[TCI_ERR_TOO_MANY] = "too many trace components",
		[TCI_ERR_TIMEOUT] = "register did not read back in time",
		[TCI_ERR_VERSION] = "unsupported component version",
		[TCI_ERR_TYPE] = "unexpected component type",
		[TCI_ERR_WARL] = "setting not supported by the component",
		[TCI_ERR_NOT_FOUND] = "no such component",
	};

	if (err < 0)
		err = -err;
	return (unsigned int)err < sizeof(text) / sizeof(text[0]) && text[err] ? text[err]
										 : "unknown error";
}

/* ---- Discovery ------------------------------------------------------- */

/* The component node an endpoint belongs to: endpoint -> port -> ports. */
static int component_of_endpoint(const struct fdt *fdt, int endpoint)
{
	int port = fdt_parent(fdt, endpoint);
	int ports = port >= 0 ? fdt_parent(fdt, port) : port;

	return ports >= 0 ? fdt_parent(fdt, ports) : ports;
}

/* The first endpoint under a node's "out-ports" (port, port@N / endpoint,
 * endpoint@N). */
static int out_endpoint(const struct fdt *fdt, int node)
{
	int ports = fdt_subnode(fdt, node, "out-ports"), port, ep;

	if (ports < 0)
		return ports;
	for (port = fdt_first_child(fdt, ports); port >= 0; port = fdt_next_sibling(fdt, port))
		for (ep = fdt_first_child(fdt, port); ep >= 0; ep = fdt_next_sibling(fdt, ep))
			if (fdt_getprop(fdt, ep, "remote-endpoint", NULL))
				return ep;
	return -FDT_ERR_NOTFOUND;
}

static bool hart_of_node(const struct fdt *fdt, int node, unsigned long *hartid)
{
	uint32_t phandle;
	uint64_t reg;
	int cpu;

	if (fdt_prop_u32(fdt, node, "cpus", &phandle) < 0)
		return false;
	cpu = fdt_find_phandle(fdt, phandle);
	if (cpu < 0 || fdt_get_reg(fdt, cpu, 0, &reg, NULL) < 0)
		return false;
	*hartid = (unsigned long)reg;
	return true;
}

int tci_discover(const struct fdt *fdt, const struct tci_io *io, struct tci_topology *topo)
{
	int nodes[TCI_MAX_COMPONENTS], node = -1;
	unsigned int i, j;

	topo->count = 0;
	while ((node = fdt_find_compatible(fdt, node, "riscv,trace-component")) >= 0) {
		struct tci_component *c;
		uint64_t size;

		if (!fdt_node_is_enabled(fdt, node))
			continue;
		if (topo->count == TCI_MAX_COMPONENTS)
			return TCI_ERR_TOO_MANY;
		c = &topo->comp[topo->count];
		memset(c, 0, sizeof(*c));
		c->io = io;
		c->feeds = -1;
		if (fdt_get_reg(fdt, node, 0, &c->base, &size) < 0 || (c->base & (TCI_COMPONENT_SIZE - 1)))
			return TCI_ERR_DT;
		c->has_hart = hart_of_node(fdt, node, &c->hartid);
		c->impl = tci_read(c, TCI_IMPL_OFFSET);
		nodes[topo->count++] = node;
	}
	/* Out-port -> the component whose in-port the endpoint points at. */
	for (i = 0; i < topo->count; i++) {
		uint32_t peer;
		int ep = out_endpoint(fdt, nodes[i]), owner;

		if (ep < 0 || fdt_prop_u32(fdt, ep, "remote-endpoint", &peer) < 0)
			continue;
		owner = component_of_endpoint(fdt, fdt_find_phandle(fdt, peer));
		for (j = 0; j < topo->count; j++)
			if (nodes[j] == owner)
				topo->comp[i].feeds = (int)j;
	}
	return TCI_OK;
}

struct tci_component *tci_find_encoder(struct tci_topology *topo, unsigned long hartid)
{
	unsigned int i;

	for (i = 0; i < topo->count; i++) {
		struct tci_component *c = &topo->comp[i];

		if (tci_type(c) == TRCOMP_ENCODER && c->has_hart && c->hartid == hartid)
			return c;
	}
	return NULL;
}

struct tci_component *tci_sink_of(struct tci_topology *topo, const struct tci_component *enc)
{
	struct tci_component *c;

	if (!enc || enc->feeds < 0)
		return NULL;
	c = &topo->comp[enc->feeds];
	return tci_type(c) == TRCOMP_RAMSINK ? c : NULL;
}

/* ---- Reset, setup, start, stop --------------------------------------- */

static int wait_bits(const struct tci_component *c, uint32_t off, uint32_t mask, uint32_t want)
{
	unsigned int n;

	for (n = 0; n < TCI_POLL_READS; n++)
		if ((tci_read(c, off) & mask) == want)
			return TCI_OK;
	return TCI_ERR_TIMEOUT;
}

int tci_reset(struct tci_component *c, unsigned int type)
{
	int rc;

	tci_write(c, 0, 0);
	if ((rc = wait_bits(c, 0, TCI_CTRL_ACTIVE, 0)))
		return rc;
	tci_write(c, 0, TCI_CTRL_ACTIVE);
	if ((rc = wait_bits(c, 0, TCI_CTRL_ACTIVE, TCI_CTRL_ACTIVE)))
		return rc;
	c->impl = tci_read(c, TCI_IMPL_OFFSET);
	/* Version 0 is pre-ratified, 2+ incompatible ("Versioning"). */
	if (TCI_IMPL_VER_MAJOR(c->impl) != 1)
		return TCI_ERR_VERSION;
	return TCI_IMPL_COMP_TYPE(c->impl) == type ? TCI_OK : TCI_ERR_TYPE;
}

static int write_checked(const struct tci_component *c, uint32_t off, uint32_t val, uint32_t mask)
{
	tci_write(c, off, val);
	return (tci_read(c, off) & mask) == (val & mask) ? TCI_OK : TCI_ERR_WARL;
}

int tci_encoder_setup(struct tci_component *enc, const struct tci_encoder_settings *s)
{
	uint32_t ctl = TRTE_ACTIVE | s->inst_mode << TRTE_INST_MODE_SHIFT |
		       s->sync_mode << TRTE_INST_SYNC_MODE_SHIFT |
		       s->sync_max << TRTE_INST_SYNC_MAX_SHIFT |
		       (s->context ? TRTE_CONTEXT : 0) | (s->inhibit_src ? TRTE_INHIBIT_SRC : 0);
	uint32_t ctl_mask = TRTE_INST_MODE_MASK | TRTE_INST_SYNC_MODE_MASK | TRTE_INST_SYNC_MAX_MASK |
			    TRTE_CONTEXT | TRTE_INHIBIT_SRC;
	uint32_t feat_mask = ~0u;
	uint32_t ts = TRTS_ACTIVE | TRTS_COUNT | TRTS_RESET | TRTS_ENABLE |
		      TRTS_MODE_INTERNAL_SYSTEM << TRTS_MODE_SHIFT;
	int rc;

	/* "Trace Components Reset": the registers to put in a known state. */
	tci_write(enc, TRTE_DATA_CONTROL, 0);
	tci_write(enc, TRTE_DATA_FILTERS, 0);
	tci_write(enc, TRTE_TRIG_DBG_CONTROL, 0);
	tci_write(enc, TRTE_TRIG_EXT_IN_CONTROL, 0);
	tci_write(enc, TRTE_TRIG_EXT_OUT_CONTROL, 0);
	if ((rc = write_checked(enc, TRTE_CONTROL, ctl, ctl_mask)))
		return rc;
	/* The implicit-return mode only matters when implicit return is on. */
	if (!(s->features & TRTE_INST_EN_IMPLICIT_RETURN))
		feat_mask &= ~TRTE_INST_IMPLICIT_RETURN_MODE_MASK;
	if ((rc = write_checked(enc, TRTE_INST_FEATURES, s->features, feat_mask)))
		return rc;
	if ((rc = write_checked(enc, TRTE_INST_FILTERS, s->inst_filters, 0xFFFF)))
		return rc;
	if (!s->timestamps) {
		tci_write(enc, TRTS_CONTROL, 0);
		return TCI_OK;
	}
	return write_checked(enc, TRTS_CONTROL, ts, TRTS_ACTIVE | TRTS_ENABLE | TRTS_MODE_MASK);
}

static int write_addr(const struct tci_component *c, uint32_t low, uint64_t v)
{
	tci_write(c, low + 4, (uint32_t)(v >> 32));
	tci_write(c, low, (uint32_t)v);
	if (tci_read(c, low + 4) != (uint32_t)(v >> 32) ||
	    (tci_read(c, low) & ~3u) != ((uint32_t)v & ~3u))
		return TCI_ERR_WARL;
	return TCI_OK;
}

int tci_ramsink_setup(struct tci_component *sink, const struct tci_sink_settings *s)
{
	uint32_t ctl = TRRAM_ACTIVE | (s->smem ? TRRAM_MODE_SMEM : 0) |
		       (s->stop_on_wrap ? TRRAM_STOP_ON_WRAP : 0);
	int rc;

	/* trRamMode first: "other registers may behave differently". */
	if ((rc = write_checked(sink, TRRAM_CONTROL, ctl, TRRAM_MODE_SMEM | TRRAM_STOP_ON_WRAP)))
		return rc;
	if (s->smem) {
		if ((rc = write_addr(sink, TRRAM_START_LOW, s->start)) ||
		    (rc = write_addr(sink, TRRAM_LIMIT_LOW, s->limit)) ||
		    (rc = write_addr(sink, TRRAM_WP_LOW, s->start)))
			return rc;
		return TCI_OK;
	}
	/* SRAM: Start is 0 and Limit the buffer; WP back to the start. */
	tci_write(sink, TRRAM_WP_HIGH, 0);
	tci_write(sink, TRRAM_WP_LOW, 0);
	return TCI_OK;
}

int tci_trace_start(struct tci_component *enc, struct tci_component *sink)
{
	uint32_t ctl;
	int rc;

	if (sink) {
		ctl = tci_read(sink, TRRAM_CONTROL) & ~TRRAM_EMPTY;
		if ((rc = write_checked(sink, TRRAM_CONTROL, ctl | TRRAM_ENABLE, TRRAM_ENABLE)))
			return rc;
	}
	ctl = tci_read(enc, TRTE_CONTROL) & ~(TRTE_EMPTY | TRTE_INST_STALL_OR_OVERFLOW);
	if ((rc = write_checked(enc, TRTE_CONTROL, ctl | TRTE_ENABLE, TRTE_ENABLE)))
		return rc;
	return write_checked(enc, TRTE_CONTROL, ctl | TRTE_ENABLE | TRTE_INST_TRACING,
			     TRTE_INST_TRACING);
}

int tci_trace_stop(struct tci_component *enc, struct tci_component *sink)
{
	uint32_t ctl = tci_read(enc, TRTE_CONTROL) & ~(TRTE_EMPTY | TRTE_INST_STALL_OR_OVERFLOW);
	int rc;

	tci_write(enc, TRTE_CONTROL, ctl & ~TRTE_INST_TRACING);
	tci_write(enc, TRTE_CONTROL, ctl & ~(TRTE_INST_TRACING | TRTE_ENABLE));
	if ((rc = wait_bits(enc, TRTE_CONTROL, TRTE_ENABLE | TRTE_EMPTY, TRTE_EMPTY)))
		return rc;
	if (!sink)
		return TCI_OK;
	ctl = tci_read(sink, TRRAM_CONTROL) & ~TRRAM_EMPTY;
	tci_write(sink, TRRAM_CONTROL, ctl & ~TRRAM_ENABLE);
	return wait_bits(sink, TRRAM_CONTROL, TRRAM_ENABLE | TRRAM_EMPTY, TRRAM_EMPTY);
}

static uint64_t read_addr(const struct tci_component *c, uint32_t low)
{
	return (uint64_t)tci_read(c, low + 4) << 32 | tci_read(c, low);
}

int tci_ramsink_capture(struct tci_component *sink, struct tci_capture *cap)
{
	uint64_t wp = read_addr(sink, TRRAM_WP_LOW);

	cap->smem = tci_read(sink, TRRAM_CONTROL) & TRRAM_MODE_SMEM;
	cap->start = read_addr(sink, TRRAM_START_LOW);
	cap->limit = read_addr(sink, TRRAM_LIMIT_LOW);
	cap->wrapped = wp & TRRAM_WP_WRAP;
	wp &= ~(uint64_t)3;
	/* "depending on trRamWrap bit, you may read trace from two ranges" */
	cap->first = cap->wrapped ? wp : cap->start;
	cap->len = cap->wrapped ? cap->limit + 4 - cap->start : wp - cap->start;
	return TCI_OK;
}

size_t tci_sram_read(struct tci_component *sink, const struct tci_capture *cap, uint8_t *buf,
		     size_t size)
{
	size_t n = 0;

	tci_write(sink, TRRAM_RP_HIGH, 0);
	tci_write(sink, TRRAM_RP_LOW, (uint32_t)cap->first);
	while (n + 4 <= size && n < cap->len) {
		uint32_t w = tci_read(sink, TRRAM_DATA);

		memcpy(buf + n, &w, 4);   /* "placed in memory in LSB order" */
		n += 4;
	}
	return n;
}
