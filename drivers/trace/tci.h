/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Trace Control Interface driver: finds trace components in the device
 * tree (trace-component-dt-binding.md), resets and identifies them
 * ("Reset and Discovery"), configures an encoder and its RAM sink, starts
 * and stops them ("Enabling and Disabling") and reads back what the sink
 * holds.  Freestanding, no allocation; register access goes through
 * struct tci_io, so the same code drives real components by MMIO and
 * tracesbi's emulated ones (the firmware at boot, the S-mode test kernel
 * through the emulated window).
 */
#ifndef DRIVERS_TRACE_TCI_H
#define DRIVERS_TRACE_TCI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "lib/fdt/fdt.h"
#include "lib/tci/tci_spec.h"

struct tci_io {
	uint32_t (*read)(void *ctx, uint64_t addr);
	void (*write)(void *ctx, uint64_t addr, uint32_t val);
	void *ctx;
};

/* MMIO access (volatile 32-bit loads and stores). */
extern const struct tci_io tci_mmio;

struct tci_component {
	const struct tci_io *io;
	uint64_t base;
	uint32_t impl;           /* tr??Impl read at discovery */
	bool has_hart;
	unsigned long hartid;    /* the `cpus` hart */
	int feeds;               /* index of the component its out-port feeds, -1 */
};

#define TCI_MAX_COMPONENTS 80

struct tci_topology {
	struct tci_component comp[TCI_MAX_COMPONENTS];
	unsigned int count;
};

enum tci_error {
	TCI_OK = 0,
	TCI_ERR_DT,         /* a malformed component node */
	TCI_ERR_TOO_MANY,   /* more than TCI_MAX_COMPONENTS */
	TCI_ERR_TIMEOUT,    /* Active/Enable/Empty did not read back in time */
	TCI_ERR_VERSION,    /* tr??VerMajor is not 1 (0: pre-ratified) */
	TCI_ERR_TYPE,       /* tr??CompType is not what was expected */
	TCI_ERR_WARL,       /* a setting did not stick (the component lacks it) */
	TCI_ERR_NOT_FOUND,
};

const char *tci_strerror(int err);

static inline unsigned int tci_type(const struct tci_component *c)
{
	return TCI_IMPL_COMP_TYPE(c->impl);
}

/* Every node compatible with "riscv,trace-component": reg, cpus, the
 * out-port -> in-port links; tr??Impl is read for each (the binding has no
 * per-type compatible).  Returns TCI_OK or a TCI_ERR_* code. */
int tci_discover(const struct fdt *fdt, const struct tci_io *io, struct tci_topology *topo);
/* The encoder of hart `hartid`, and the RAM sink it feeds (directly). */
struct tci_component *tci_find_encoder(struct tci_topology *topo, unsigned long hartid);
struct tci_component *tci_sink_of(struct tci_topology *topo, const struct tci_component *enc);

/* Reset and identify: tr??Control = 0, then 1 (waiting for Active to read
 * back each time), tr??Impl checked for version 1.x and `type`. */
int tci_reset(struct tci_component *c, unsigned int type);

struct tci_encoder_settings {
	uint32_t inst_mode;      /* TRTE_INST_MODE_BASELINE / _OPTIMIZED */
	uint32_t features;       /* trTeInstFeatures */
	uint32_t sync_mode, sync_max;
	bool context, inhibit_src;
	bool timestamps;         /* trTsControl: Active, Count, Internal System, Enable */
	uint32_t inst_filters;   /* trTeInstFilters (filter registers set by the caller) */
};

struct tci_sink_settings {
	bool smem;               /* else SRAM */
	uint64_t start, limit;   /* SMEM buffer [start, limit + 4) */
	bool stop_on_wrap;
};

/* Write the settings and read them back: TCI_ERR_WARL names a setting the
 * component did not keep. */
int tci_encoder_setup(struct tci_component *enc, const struct tci_encoder_settings *s);
int tci_ramsink_setup(struct tci_component *sink, const struct tci_sink_settings *s);
/* Sink enabled first, then the encoder (trTeEnable last, then
 * trTeInstTracing), each read back. */
int tci_trace_start(struct tci_component *enc, struct tci_component *sink);
/* Encoder first (InstTracing 0, Enable 0, wait Empty), then the sink. */
int tci_trace_stop(struct tci_component *enc, struct tci_component *sink);

/* What a stopped RAM sink holds: `len` bytes, oldest first, from `first`
 * to the buffer end and then from its start (wrapped) or from start to WP. */
struct tci_capture {
	uint64_t start, limit;   /* buffer [start, limit + 4) */
	uint64_t first;          /* oldest byte */
	uint64_t len;
	bool wrapped;
	bool smem;
};
int tci_ramsink_capture(struct tci_component *sink, struct tci_capture *cap);
/* SRAM mode: copy the captured bytes (oldest first) through trRamRP and
 * trRamData into buf (at most size bytes); returns the count. */
size_t tci_sram_read(struct tci_component *sink, const struct tci_capture *cap, uint8_t *buf,
		     size_t size);

/* Register access helpers. */
static inline uint32_t tci_read(const struct tci_component *c, uint32_t off)
{
	return c->io->read(c->io->ctx, c->base + off);
}
static inline void tci_write(const struct tci_component *c, uint32_t off, uint32_t val)
{
	c->io->write(c->io->ctx, c->base + off, val);
}

#endif /* DRIVERS_TRACE_TCI_H */
