// SPDX-License-Identifier: BSD-2-Clause
/*
 * tracesbi's emulated trace components: when the DT describes no trace
 * component of its own, every hart the firmware serves gets a trace
 * encoder and a RAM sink (TCI 1.0 register blocks of 4 KiB) in a window of
 * physical addresses that no node of the DT uses.  PMP denies S/U-mode the
 * window (mmio.c emulates what it tries there) and the DT passed on
 * describes the components as trace-component-dt-binding.md says.
 *
 * Boot option (bootargs of /chosen): `tracesbi.trace=` sets up the
 * components of the selected harts with the TCI driver at boot, so the
 * trace starts at their first S-mode instruction (docs/TRACE.md).
 */
#include <string.h>
#include "firmware/trace/components.h"
#include "firmware/trace/directory.h"
#include "firmware/trace/trace_hart.h"
#include "firmware/trace/trace.h"
#include "firmware/core/hart.h"
#include "firmware/core/platform.h"
#include "firmware/core/console.h"
#include "drivers/trace/tci.h"
#include "firmware/core/riscv_csr.h"
#include "firmware/pmu/pmu_hw.h"
#include "drivers/pmu/pmu_map.h"
#include "firmware/core/per_hart.h"

/* Each hart's registers are put in their reset state by trace_cold_init,
 * the rest is set up when tracing starts. */
static PER_HART(struct trace_hart, trace_harts);
/* The stepper's block caches: shared out among the harts there are at
 * boot (the fewer harts, the bigger each one's cache). */
static struct step_block block_pool[MAX_HARTS * STEP_CACHE_PER_HART] NOINIT;

static struct {
	uint64_t base, size;       /* register window; size 0: none        */
	bool hardware;             /* the DT has trace components of its own */
	const char *why_none;
} window;

static struct tci_ramsink_env smem_env;

struct trace_hart *trace_hart_of(const struct hart *h)
{
	return h->trace;
}

void trace_window(uint64_t *base, uint64_t *size)
{
	*base = window.base;
	*size = window.size;
}

uint64_t components_encoder_base(unsigned int index)
{
	return window.base + (uint64_t)index * COMPONENT_STRIDE;
}

struct trace_hart *components_lookup(uint64_t addr, bool *sink)
{
	uint64_t off = addr - window.base;
	unsigned int index = (unsigned int)(off / COMPONENT_STRIDE);

	if (!window.size || off >= window.size || index >= hart_count)
		return NULL;
	*sink = (off % COMPONENT_STRIDE) >= TCI_COMPONENT_SIZE;
	return per_hart_at(trace_harts, index);
}

/* ---- SMEM buffers: S-mode RAM only -------------------------------------- */

/* (picolibc's memcpy is its small, bytewise one: doublewords when both
 * ends allow, as they do for the encoder's flushes into a fresh buffer) */
typedef uint64_t __attribute__((may_alias)) smem_word;

static void smem_write(uint64_t addr, const uint8_t *data, size_t len)
{
	if (!((addr | (uintptr_t)data) & 7)) {
		smem_word *d = (smem_word *)(uintptr_t)addr;
		const smem_word *w = (const smem_word *)(const void *)data;

		for (; len >= 8; len -= 8, addr += 8, data += 8)
			*d++ = *w++;
	}
	memcpy((void *)(uintptr_t)addr, data, len);
}

/* Lowest and highest RAM word S-mode owns (the WARL bounds of trRamStart,
 * trRamLimit and trRamWP). */
static void smem_bounds(uint64_t *lo, uint64_t *hi)
{
	uint64_t fw_end = platform.fw_base + platform.fw_size;
	unsigned int i;

	*lo = ~0ULL;
	*hi = 0;
	for (i = 0; i < platform.ram_count; i++) {
		uint64_t b = platform.ram[i].base, e = b + platform.ram[i].size;

		if (b >= platform.fw_base && b < fw_end)
			b = fw_end;
		if (e - 4 > *hi && e > b)
			*hi = e - 4;
		if (b < *lo && b < e)
			*lo = b;
	}
}

/* ---- Where the registers go ------------------------------------------ */

static uint64_t read_cells(const uint8_t *p, int cells)
{
	return cells == 2 ? fdt_be64(p) : fdt_be32(p);
}

#define USED_MAX 128

struct used_ranges {
	uint64_t lo[USED_MAX], hi[USED_MAX];   /* [lo, hi) */
	unsigned int n;
	bool overflow;
};

static void add_used(struct used_ranges *u, uint64_t base, uint64_t size)
{
	if (!size)
		return;
	if (u->n == USED_MAX) {
		u->overflow = true;
		return;
	}
	u->lo[u->n] = base;
	u->hi[u->n] = base + size < base ? ~0ULL : base + size;
	u->n++;
}

/* Every `reg` of every node and the parent side of every bus's `ranges`:
 * the physical addresses the DT says something uses. */
static void collect_used(const struct fdt *fdt, struct used_ranges *u)
{
	int ac[FDT_MAX_DEPTH + 1], sc[FDT_MAX_DEPTH + 1], node = fdt_root(fdt), depth = 0;

	u->n = 0;
	u->overflow = false;
	ac[0] = fdt_address_cells(fdt, node);
	sc[0] = fdt_size_cells(fdt, node);
	while ((node = fdt_next_node(fdt, node, &depth)) >= 0 && depth > 0) {
		int pac = ac[depth - 1], psc = sc[depth - 1], n, cac, csc, rec;
		const uint8_t *p;

		if (depth > FDT_MAX_DEPTH) {
			u->overflow = true;
			return;
		}
		ac[depth] = cac = fdt_address_cells(fdt, node);
		sc[depth] = csc = fdt_size_cells(fdt, node);
		p = fdt_getprop(fdt, node, "reg", &n);
		rec = 4 * (pac + psc);
		if (p && pac >= 1 && pac <= 2 && psc >= 1 && psc <= 2)
			for (; n >= rec; n -= rec, p += rec)
				add_used(u, read_cells(p, pac), read_cells(p + 4 * (size_t)pac, psc));
		/* ranges: (child address, parent address, size) triplets */
		p = fdt_getprop(fdt, node, "ranges", &n);
		rec = 4 * (cac + pac + csc);
		if (p && cac >= 1 && cac <= 3 && pac >= 1 && pac <= 2 && csc >= 1 && csc <= 2)
			for (; n >= rec; n -= rec, p += rec)
				add_used(u, read_cells(p + 4 * (size_t)cac, pac),
					 read_cells(p + 4 * (size_t)(cac + pac), csc));
	}
}

/* The highest window of `size` (aligned to it, for one PMP NAPOT entry)
 * below RAM that the DT leaves free, above 16 MiB (boot ROMs, debug units
 * that DTs rarely list live low).  A window that meets a used range moves
 * below that range. */
static uint64_t find_window(const struct fdt *fdt, uint64_t size)
{
	static struct used_ranges used;
	uint64_t ram = ~0ULL, b;
	unsigned int i;
	bool moved;

	for (i = 0; i < platform.ram_count; i++)
		if (platform.ram[i].base < ram)
			ram = platform.ram[i].base;
	collect_used(fdt, &used);
	if (ram == ~0ULL || ram < size || used.overflow)
		return 0;
	b = (ram - size) & ~(size - 1);
	do {
		moved = false;
		for (i = 0; i < used.n && b >= 0x1000000; i++) {
			if (used.lo[i] < b + size && b < used.hi[i]) {
				if (used.lo[i] < size)
					return 0;
				b = (used.lo[i] - size) & ~(size - 1);
				moved = true;
			}
		}
	} while (moved && b >= 0x1000000);
	return b >= 0x1000000 ? b : 0;
}

/* ---- Boot option: tracesbi.trace= ------------------------------------- */

static struct {
	bool on;
	const char *error;
	uint64_t harts;            /* hart indexes */
	struct tci_encoder_settings enc;
	bool smem, stop_on_wrap;
	bool sync_given;           /* sync=M:X was on the command line */
	uint64_t buf_base, buf_size;
	uint32_t ingress;          /* TSBI_TE_INGRESS */
	bool hold;                 /* park instead of resetting (make trace) */
} boot;

static bool word_is(const char *w, size_t n, const char *s)
{
	return strlen(s) == n && !memcmp(w, s, n);
}

static bool parse_number(const char *p, size_t n, uint64_t *v)
{
	unsigned int base = 10;

	*v = 0;
	if (n > 2 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
		base = 16;
		p += 2;
		n -= 2;
	}
	if (!n)
		return false;
	for (; n; n--, p++) {
		unsigned int d;

		if (*p >= '0' && *p <= '9')
			d = (unsigned int)(*p - '0');
		else if (base == 16 && *p >= 'a' && *p <= 'f')
			d = (unsigned int)(*p - 'a' + 10);
		else if (base == 16 && *p >= 'A' && *p <= 'F')
			d = (unsigned int)(*p - 'A' + 10);
		else
			return false;
		*v = *v * base + d;
	}
	return true;
}

/* "<a>:<b>" -> two numbers. */
static bool parse_pair(const char *p, size_t n, uint64_t *a, uint64_t *b)
{
	const char *colon = memchr(p, ':', n);

	return colon && parse_number(p, (size_t)(colon - p), a) &&
	       parse_number(colon + 1, n - (size_t)(colon + 1 - p), b);
}

static bool parse_option(const char *w, size_t n)
{
	uint64_t a, b;

	if (word_is(w, n, "btm"))
		boot.enc.inst_mode = TRTE_INST_MODE_BASELINE;
	else if (word_is(w, n, "htm"))
		boot.enc.inst_mode = TRTE_INST_MODE_OPTIMIZED;
	else if (word_is(w, n, "seqjump"))
		boot.enc.features |= TRTE_INST_EN_SEQUENTIAL_JUMP;
	else if (word_is(w, n, "implicitret"))
		boot.enc.features |= TRTE_INST_EN_IMPLICIT_RETURN | 3u << TRTE_INST_IMPLICIT_RETURN_MODE_SHIFT;
	else if (word_is(w, n, "repeat"))
		boot.enc.features |= TRTE_INST_EN_REPEATED_HISTORY;
	else if (word_is(w, n, "alljumps"))
		boot.enc.features |= TRTE_INST_EN_ALL_JUMPS;
	else if (word_is(w, n, "extaddr"))
		boot.enc.features |= TRTE_INST_EXTEND_ADDR_MSB;
	else if (word_is(w, n, "ts"))
		boot.enc.timestamps = true;
	else if (word_is(w, n, "ctx"))
		boot.enc.context = true;
	else if (word_is(w, n, "stop"))
		boot.stop_on_wrap = true;
	else if (word_is(w, n, "ratified"))
		boot.ingress |= TSBI_INGRESS_ECALL_NO_RETIRE;
	else if (word_is(w, n, "singlestep"))
		boot.ingress |= TSBI_INGRESS_SINGLE_STEP;
	else if (word_is(w, n, "hold"))
		boot.hold = true;
	else if (n > 5 && !memcmp(w, "sync=", 5) && parse_pair(w + 5, n - 5, &a, &b) && a <= 3 && b <= 15) {
		boot.enc.sync_mode = (uint32_t)a;
		boot.enc.sync_max = (uint32_t)b;
		boot.sync_given = true;
	} else if (n > 4 && !memcmp(w, "buf=", 4) && parse_pair(w + 4, n - 4, &a, &b)) {
		boot.smem = true;
		boot.buf_base = a;
		boot.buf_size = b;
	} else if (n > 6 && !memcmp(w, "harts=", 6) && parse_number(w + 6, n - 6, &a)) {
		boot.harts = a;
	} else {
		return false;
	}
	return true;
}

/*
 * A wrapping buffer keeps only its newest bytes, and a decoder starts at a
 * sync message (N-Trace: every message after one is relative to it), so
 * without periodic sync a wrapped buffer may hold nothing decodable.
 * Unless sync= says otherwise: a sync message every 2^(X+4) messages
 * (trTeInstSyncMode 1, TCI trTeControl), with X such that that is about an
 * eighth of each hart's buffer at 4 bytes a message (the benchmark
 * programs' average is 2-4 bytes).
 */
static void default_periodic_sync(void)
{
	uint64_t traced = boot.harts & (hart_count >= 64 ? ~0ULL : (1ULL << hart_count) - 1);
	uint64_t bytes = boot.smem ? boot.buf_size / (uint64_t)(__builtin_popcountll(traced) ?: 1)
				   : TRACE_SRAM_SIZE;
	int max = 63 - __builtin_clzll(bytes | 1) - 9;

	boot.enc.sync_mode = NTRACE_SYNC_MODE_MESSAGES;
	boot.enc.sync_max = (uint32_t)(max < 0 ? 0 : max > 15 ? 15 : max);
}

static void parse_boot_option(const struct fdt *fdt)
{
	const char *p = fdt_chosen_bootarg(fdt, "tracesbi.trace="), *end;

	if (!p)
		return;
	boot.on = true;
	boot.harts = ~0ULL;
	boot.enc.inst_mode = TRTE_INST_MODE_OPTIMIZED;
	for (; *p && *p != ' '; p = *end == ',' ? end + 1 : end) {
		for (end = p; *end && *end != ' ' && *end != ','; end++)
			;
		if (!parse_option(p, (size_t)(end - p))) {
			boot.error = "tracesbi.trace: unknown option";
			boot.on = false;
			return;
		}
	}
	if (boot.smem && (boot.buf_size < 64 || !platform_smode_range_ok(boot.buf_base, boot.buf_size))) {
		boot.error = "tracesbi.trace: buf= is not S-mode RAM";
		boot.on = false;
		return;
	}
	if (!boot.stop_on_wrap && !boot.sync_given)
		default_periodic_sync();
}

/* The selected harts share the SMEM buffer in equal, aligned slices. */
static bool boot_slice(unsigned int index, uint64_t *start, uint64_t *limit)
{
	unsigned int i, n = 0, k = 0;
	uint64_t slice;

	for (i = 0; i < hart_count; i++)
		if ((boot.harts >> i) & 1) {
			if (i < index)
				k++;
			n++;
		}
	if (!n)
		return false;   /* `index` is not a traced hart */
	slice = (boot.buf_size / n) & ~63ULL;
	if (slice < 64)
		return false;
	*start = boot.buf_base + k * slice;
	*limit = *start + slice - 4;
	return true;
}

/* The firmware drives its own components with the TCI driver: register
 * accesses go straight to them (each hart sets up its own, at boot). */
static uint32_t local_read(void *ctx, uint64_t addr)
{
	bool sink;
	struct trace_hart *th = components_lookup(addr, &sink);

	(void)ctx;
	return th ? components_access(th, sink, (uint32_t)(addr & 0xFFF), false, 0, NULL) : 0;
}

static void local_write(void *ctx, uint64_t addr, uint32_t val)
{
	bool sink;
	struct trace_hart *th = components_lookup(addr, &sink);

	(void)ctx;
	if (th)
		components_access(th, sink, (uint32_t)(addr & 0xFFF), true, val, NULL);
}

static const struct tci_io local_io = { local_read, local_write, NULL };

static void boot_configure(struct hart *self)
{
	struct tci_component enc = { .io = &local_io, .base = components_encoder_base(self->index) };
	struct tci_component sink = { .io = &local_io, .base = enc.base + TCI_COMPONENT_SIZE };
	struct tci_sink_settings ss = { .smem = boot.smem, .stop_on_wrap = boot.stop_on_wrap };
	int rc;

	if (boot.smem && !boot_slice(self->index, &ss.start, &ss.limit)) {
		printf("tracesbi: hart %lu: trace buffer too small to share\n", self->hartid);
		return;
	}
	if ((rc = tci_reset(&sink, TRCOMP_RAMSINK)) || (rc = tci_reset(&enc, TRCOMP_ENCODER)) ||
	    (rc = tci_ramsink_setup(&sink, &ss)) || (rc = tci_encoder_setup(&enc, &boot.enc))) {
		printf("tracesbi: hart %lu: trace setup failed: %s\n", self->hartid, tci_strerror(rc));
		return;
	}
	tci_write(&enc, TSBI_TE_INGRESS, boot.ingress);
	rc = tci_trace_start(&enc, &sink);
	if (rc)
		printf("tracesbi: hart %lu: trace start failed: %s\n", self->hartid, tci_strerror(rc));
}

/* ---- Boot ---------------------------------------------------------------- */

static uint64_t pow2_at_least(uint64_t v)
{
	uint64_t p = 1;

	while (p < v)
		p <<= 1;
	return p;
}

void trace_cold_init(const struct fdt *fdt)
{
	unsigned int i, slots;

	window.hardware = fdt_find_compatible(fdt, -1, "riscv,trace-component") >= 0;
	smem_env.range_ok = platform_smode_range_ok;
	smem_env.write = smem_write;
	smem_bounds(&smem_env.addr_min, &smem_env.addr_max);
	parse_boot_option(fdt);
	if (window.hardware) {
		window.why_none = "the DT describes trace components";
		return;
	}
	window.size = pow2_at_least((uint64_t)hart_count * COMPONENT_STRIDE);
	window.base = find_window(fdt, window.size);
	if (!window.base) {
		window.size = 0;
		window.why_none = "no free physical address range below RAM";
		return;
	}
	/* the largest power of two that gives every hart its share */
	slots = STEP_CACHE_PER_HART;
	while (slots * 2 <= MAX_HARTS * STEP_CACHE_PER_HART / (hart_count ? hart_count : 1))
		slots *= 2;
	for (i = 0; i < hart_count; i++) {
		struct trace_hart *th = per_hart_at(trace_harts, i);

		th->hart = hart_table[i];
		stepper_cache_init(&th->step, &block_pool[(size_t)i * slots], slots);
		/* all five flags, ctr_recording too (it was left as RAM held it:
		 * garbage on a board, an earlier boot's value after a reboot) */
		th->flags = 0;
		th->block_privs = 0;
		th->step.mode = STEP_OFF;
		th->step.t1_on = false;
		th->tv_mode = th->tv.on = false;
		tci_encoder_init(&th->te);
		tci_ramsink_init(&th->ram, th->sram, TRACE_SRAM_SIZE, &smem_env);
		/* Until the hart first enters S-mode (mmio.c; the lock is
		 * clear, as build_hart_table left the struct). */
		hart_table[i]->trace_parked = true;
		hart_table[i]->trace = th;
	}
	trace_directory_init();
}

void trace_hart_init(struct hart *self)
{
	struct trace_hart *th = self->trace;
	const struct hart_features *f = &self->feat;
	unsigned int triggers = f->trigger_count > 255 ? 255 : f->trigger_count;
	bool execute = f->trigger_types & (1u << 2 | 1u << 6);

	if (!th)
		return;
	/* (parked: other harts may be accessing the registers already) */
	spin_lock(&self->trace_lock);
	/* T0 and T1 (stepper.h): two execute triggers. */
	th->te.status = triggers << TSBI_STATUS_TRIGGERS_SHIFT |
			(triggers >= 2 && execute ? TSBI_STATUS_INGRESS_OK : 0);
	th->te.tv_params = tv_params_word();
	spin_unlock(&self->trace_lock);
	if (boot.on && (boot.harts >> self->index) & 1)
		boot_configure(self);
}

/* ---- Device tree ------------------------------------------------------- */

uint32_t trace_fdt_space(void)
{
	return (window.size ? 512 + hart_count * 640 : 0) + (boot.smem ? 256 : 0);
}

static uint32_t max_phandle(const struct fdt *fdt)
{
	int node = fdt_root(fdt), depth = 0;
	uint32_t max = 0, ph;

	do {
		ph = fdt_get_phandle(fdt, node);
		if (ph != 0xFFFFFFFFu && ph > max)
			max = ph;
	} while ((node = fdt_next_node(fdt, node, &depth)) >= 0);
	return max;
}

static int cpu_node(const struct fdt *fdt, unsigned long hartid)
{
	int cpus = fdt_path_offset(fdt, "/cpus"), cpu;

	for (cpu = fdt_first_child(fdt, cpus); cpu >= 0; cpu = fdt_next_sibling(fdt, cpu)) {
		uint64_t reg;

		if (fdt_prop_is_string(fdt, cpu, "device_type", "cpu") &&
		    fdt_get_reg_under(fdt, cpus, cpu, 0, &reg, NULL) >= 0 && reg == hartid)
			return cpu;
	}
	return -FDT_ERR_NOTFOUND;
}

/* The cpu node's phandle, given one if it has none. */
static int cpu_phandle(struct fdt_rw *rw, unsigned long hartid, uint32_t *next, uint32_t *ph)
{
	int cpu = cpu_node(&rw->fdt, hartid);

	if (cpu < 0)
		return cpu;
	*ph = fdt_get_phandle(&rw->fdt, cpu);
	if (*ph)
		return 0;
	*ph = (*next)++;
	return fdt_rw_setprop_u32(rw, cpu, "phandle", *ph);
}

/* trace@<addr> { compatible; reg; cpus; <ports> { port { endpoint {
 * remote-endpoint = <peer>; phandle = <self>; }; }; }; } */
static int add_component(struct fdt_rw *rw, uint64_t addr, uint32_t cpu_ph, const char *ports,
			 uint32_t self_ph, uint32_t peer_ph)
{
	static const char compat[] = "tracesbi,trace-component\0riscv,trace-component";
	char name[40];
	int node, ports_node, port, ep, err;

	fdt_unit_name(name, "trace@", addr);
	node = fdt_rw_add_subnode(rw, fdt_root(&rw->fdt), name);
	if (node < 0)
		return node;
	if ((err = fdt_rw_setprop(rw, node, "compatible", compat, sizeof(compat))) < 0 ||
	    (err = fdt_rw_setprop_reg(rw, node, addr, TCI_COMPONENT_SIZE)) < 0 ||
	    (err = fdt_rw_setprop_u32(rw, node, "cpus", cpu_ph)) < 0)
		return err;
	if ((ports_node = fdt_rw_add_subnode(rw, node, ports)) < 0)
		return ports_node;
	if ((port = fdt_rw_add_subnode(rw, ports_node, "port")) < 0)
		return port;
	if ((ep = fdt_rw_add_subnode(rw, port, "endpoint")) < 0)
		return ep;
	if ((err = fdt_rw_setprop_u32(rw, ep, "remote-endpoint", peer_ph)) < 0 ||
	    (err = fdt_rw_setprop_u32(rw, ep, "phandle", self_ph)) < 0)
		return err;
	return 0;
}

/* The boot option's SMEM buffer is S-mode's to leave alone. */
static int reserve_boot_buffer(struct fdt_rw *rw)
{
	int resv = fdt_path_offset(&rw->fdt, "/reserved-memory"), node, err;
	char name[48];

	if (!boot.on || !boot.smem)
		return 0;
	if (resv < 0)
		return resv;
	fdt_unit_name(name, "tracesbi-trace@", boot.buf_base);
	node = fdt_rw_add_subnode(rw, resv, name);
	if (node < 0)
		return node;
	if ((err = fdt_rw_setprop_reg(rw, node, boot.buf_base, boot.buf_size)) < 0 ||
	    (err = fdt_rw_setprop(rw, node, "no-map", NULL, 0)) < 0)
		return err;
	return 0;
}

int trace_fdt_fixup(struct fdt_rw *rw)
{
	uint32_t next, cpu_ph[MAX_HARTS];
	unsigned int i, n = hart_count;
	int err;

	if ((err = reserve_boot_buffer(rw)) < 0 || !window.size)
		return err;
	next = max_phandle(&rw->fdt) + 1;
	/* Phandles first: they grow cpu nodes, which moves later nodes. */
	for (i = 0; i < n; i++)
		if ((err = cpu_phandle(rw, hart_ids[i], &next, &cpu_ph[i])) < 0)
			return err;
	for (i = 0; i < n; i++) {
		uint64_t enc = components_encoder_base(i);
		uint32_t enc_ep = next++, sink_ep = next++;

		if ((err = add_component(rw, enc, cpu_ph[i], "out-ports", enc_ep, sink_ep)) < 0 ||
		    (err = add_component(rw, enc + TCI_COMPONENT_SIZE, cpu_ph[i], "in-ports", sink_ep,
					 enc_ep)) < 0)
			return err;
	}
	return 0;
}

/* ---- Banner and shutdown ------------------------------------------------ */

void trace_print_banner(void)
{
	const struct hart *self = hart_self();

	if (window.size)
		printf("Trace            : TCI encoder + RAM sink per hart (emulated) at 0x%lx-0x%lx; "
		       "%u execute triggers%s\n",
		       (unsigned long)window.base, (unsigned long)(window.base + window.size - 1),
		       self->feat.trigger_count,
		       self->trace && (self->trace->te.status & TSBI_STATUS_INGRESS_OK)
			       ? " (block stepping)" : " (too few: no tracing)");
	else
		printf("Trace            : no emulated components (%s)\n", window.why_none);
	if (window.size)
		printf("Trace directory  : 0x%lx (saving buffers at any time: scripts/trace-save.py)\n",
		       (unsigned long)(uintptr_t)&trace_directory);
	if (boot.error)
		printf("WARNING          : %s\n", boot.error);
	else if (boot.on)
		printf("Trace at boot    : harts 0x%lx, %s, %s%s, sync mode %u max %u%s\n",
		       (unsigned long)boot.harts,
		       boot.enc.inst_mode == TRTE_INST_MODE_BASELINE ? "BTM" : "HTM",
		       boot.smem ? "SMEM buffer" : "SRAM", boot.stop_on_wrap ? ", stop on wrap" : "",
		       (unsigned int)boot.enc.sync_mode, (unsigned int)boot.enc.sync_max,
		       boot.sync_given || boot.stop_on_wrap ? "" : " (default for a wrapping buffer)");
}

/* Stops every hart's trace (the owner flushes) and says where each sink's
 * bytes are, for `make trace`, with the encoder's statistics (tsbiTeInsns,
 * tsbiTeBlocks) and this hart's minstret, for `make bench-trace-linux`.  True: the boot option asked the firmware
 * to hold the machine (so a debugger or QEMU's monitor can save them)
 * instead of resetting it. */
bool trace_stop_all(void)
{
	unsigned int i;

	for (i = 0; i < hart_count; i++) {
		struct trace_hart *th = hart_table[i]->trace;
		uint32_t ctl;

		if (!th || !(th->te.control & TRTE_ACTIVE) || !(th->ram.control & TRRAM_ACTIVE))
			continue;
		ctl = th->te.control & ~(TRTE_ENABLE | TRTE_INST_TRACING | TRTE_INST_STALL_OR_OVERFLOW);
		components_access(th, false, TRTE_CONTROL, true, ctl, NULL);
		components_access(th, true, TRRAM_CONTROL, true, th->ram.control & ~TRRAM_ENABLE, NULL);
		if (!th->ram.wrap && th->ram.wp == th->ram.start)
			continue;
		printf("tracesbi: trace hart %lu: %s 0x%lx-0x%lx first 0x%lx len %lu insns %lu blocks %lu%s\n",
		       th->hart->hartid, th->ram.control & TRRAM_MODE_SMEM ? "smem" : "sram",
		       (unsigned long)(th->ram.control & TRRAM_MODE_SMEM ? th->ram.start
									  : (uintptr_t)th->sram),
		       (unsigned long)(th->ram.control & TRRAM_MODE_SMEM
					       ? th->ram.limit + 3 : (uintptr_t)th->sram + th->ram.limit + 3),
		       (unsigned long)(th->ram.wrap ? th->ram.wp : th->ram.start) +
			       (th->ram.control & TRRAM_MODE_SMEM ? 0 : (uintptr_t)th->sram),
		       (unsigned long)(th->ram.wrap ? th->ram.limit + 4 - th->ram.start
						    : th->ram.wp - th->ram.start),
		       (unsigned long)th->te.insns, (unsigned long)th->te.blocks,
		       th->te.control & TRTE_INST_STALL_OR_OVERFLOW ? " overflow" : "");
	}
	/* Every instruction this hart retired, traced or not, for make
	 * bench-trace-linux (exact under -icount). */
	printf("tracesbi: system reset on hart %lu at minstret %lu\n", hart_self()->hartid,
	       (unsigned long)pmu_hw_counter_read(PMU_HW_INSTRET));
	if (!boot.hold)
		return false;
	printf("tracesbi: trace captured, holding (tracesbi.trace=...,hold)\n");
	/* This hart halts: the other harts make accesses to its components. */
	trace_hart_leaving(hart_self());
	return true;
}
