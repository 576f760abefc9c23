/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The platform facts the tests need, read from the DTB the firmware passes
 * in a1 (devicetree spec v0.4 ch. 5): harts (/cpus), RAM (/memory), the
 * firmware's own regions (/reserved-memory, added by both firmwares), the
 * bootargs (/chosen, from QEMU's -append) that select the run mode, and the
 * trace components (nodes compatible "riscv,trace-component",
 * trace-component-dt-binding.md) with their OF graph endpoints.
 */
#include "rt.h"

struct platform plat;
unsigned long boot_instret;   /* written by crt0 before .bss users run */

#define FDT_MAGIC      0xd00dfeedu
#define FDT_BEGIN_NODE 1
#define FDT_END_NODE   2
#define FDT_PROP       3
#define FDT_NOP        4
#define FDT_END        9
#define MAX_DEPTH      16

static uint32_t be32(const void *p)
{
	const uint8_t *b = p;

	return (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | b[3];
}

static uint64_t read_cells(const uint8_t *p, uint32_t cells)
{
	uint64_t v = 0;

	while (cells--) {
		v = v << 32 | be32(p);
		p += 4;
	}
	return v;
}

struct node {
	const char *name;
	uint32_t addr_cells, size_cells;   /* for this node's children */
	const uint8_t *reg;
	int reg_len;
	const char *device_type, *status;
	uint64_t timebase;
	uint32_t phandle, remote_endpoint, cpus;   /* 0: absent (no phandle is 0) */
	const char *compatible;
	uint32_t compatible_len;
	int trace;          /* index of the trace component this node is or is in, -1 */
	bool trace_self;    /* this node is that component */
	int ports;          /* under the component's out-ports (1) or in-ports (2) */
};

static const char TRACE_COMPATIBLE[] = "riscv,trace-component";

static bool name_is(const char *name, const char *base)
{
	size_t n = strlen(base);

	return !strncmp(name, base, n) && (name[n] == '\0' || name[n] == '@');
}

static bool node_enabled(const struct node *n)
{
	return !n->status || !strcmp(n->status, "okay") || !strcmp(n->status, "ok");
}

/* A string list property holds `str` as one of its strings. */
static bool stringlist_has(const char *list, uint32_t len, const char *str)
{
	uint32_t pos = 0;

	while (pos < len) {
		const char *s = list + pos;
		uint32_t n = 0;

		while (pos + n < len && s[n])
			n++;
		if (pos + n == len)
			return false;   /* not NUL-terminated */
		if (!strcmp(s, str))
			return true;
		pos += n + 1;
	}
	return false;
}

static void finish_trace_node(struct node *n, const struct node *parent)
{
	struct trace_component *c = &plat.trace[n->trace];

	if (n->trace_self) {
		uint32_t ac = parent->addr_cells, sc = parent->size_cells;

		c->enabled = node_enabled(n);
		c->compatible = n->compatible;
		c->compatible_len = n->compatible_len;
		c->cpus_phandle = n->cpus;
		if (n->reg && ac && sc && n->reg_len >= (int)(4 * (ac + sc))) {
			c->base = read_cells(n->reg, ac);
			c->size = read_cells(n->reg + 4 * ac, sc);
		}
		return;
	}
	if (n->ports && name_is(n->name, "endpoint")) {
		if (c->nendpoints == MAX_TRACE_ENDPOINTS) {
			plat.trace_overflow = true;
			return;
		}
		c->ep[c->nendpoints].out = n->ports == 1;
		c->ep[c->nendpoints].phandle = n->phandle;
		c->ep[c->nendpoints].remote = n->remote_endpoint;
		c->nendpoints++;
	}
}

static void finish_node(struct node *stack, int depth)
{
	struct node *n = &stack[depth], *parent = depth ? &stack[depth - 1] : NULL;
	uint32_t ac, sc, pair;
	int i;

	if (!parent)
		return;
	ac = parent->addr_cells;
	sc = parent->size_cells;
	pair = 4 * (ac + sc);
	if (n->timebase && !plat.timebase_hz)
		plat.timebase_hz = n->timebase;
	if (n->trace >= 0)
		finish_trace_node(n, parent);
	if (depth == 2 && n->device_type && !strcmp(n->device_type, "cpu") &&
	    name_is(parent->name, "cpus") && n->reg && n->reg_len >= (int)(4 * ac) &&
	    node_enabled(n) && plat.nharts < MAX_HARTS) {
		unsigned long id = read_cells(n->reg, ac);

		plat.hart_phandle[plat.nharts] = n->phandle;
		plat.hart_ids[plat.nharts++] = id;
		if (id > plat.max_hart_id)
			plat.max_hart_id = id;
	}
	if (depth == 1 && n->device_type && !strcmp(n->device_type, "memory") &&
	    n->reg && n->reg_len >= (int)pair) {
		for (i = 0; i + (int)pair <= n->reg_len; i += pair) {
			uint64_t base = read_cells(n->reg + i, ac);
			uint64_t end = base + read_cells(n->reg + i + 4 * ac, sc);

			if (end > plat.ram_top)
				plat.ram_top = end;
		}
		if (!plat.ram_size) {
			plat.ram_base = read_cells(n->reg, ac);
			plat.ram_size = read_cells(n->reg + 4 * ac, sc);
		}
	}
	if (depth == 2 && name_is(parent->name, "reserved-memory") && n->reg && pair) {
		for (i = 0; i + (int)pair <= n->reg_len && plat.nreserved < 8; i += pair) {
			plat.reserved_base[plat.nreserved] = read_cells(n->reg + i, ac);
			plat.reserved_size[plat.nreserved] = read_cells(n->reg + i + 4 * ac, sc);
			plat.nreserved++;
		}
	}
}

/* A node compatible "riscv,trace-component" gets the next slot of
 * plat.trace; properties come before subnodes, so its children see it. */
static void take_compatible(struct node *n, const char *val, uint32_t len)
{
	n->compatible = val;
	n->compatible_len = len;
	if (n->trace >= 0 || !stringlist_has(val, len, TRACE_COMPATIBLE))
		return;
	if (plat.ntrace == MAX_TRACE_COMPONENTS) {
		plat.trace_overflow = true;
		return;
	}
	n->trace = plat.ntrace++;
	n->trace_self = true;
	plat.trace[n->trace].hart = -1;
}

static void take_prop(struct node *stack, int depth, const char *name,
		      const uint8_t *val, uint32_t len)
{
	struct node *n = &stack[depth];

	if (!strcmp(name, "#address-cells") && len == 4)
		n->addr_cells = be32(val);
	else if (!strcmp(name, "#size-cells") && len == 4)
		n->size_cells = be32(val);
	else if (!strcmp(name, "reg")) {
		n->reg = val;
		n->reg_len = (int)len;
	} else if (!strcmp(name, "device_type") && len && !val[len - 1])
		n->device_type = (const char *)val;
	else if (!strcmp(name, "status") && len && !val[len - 1])
		n->status = (const char *)val;
	else if (!strcmp(name, "timebase-frequency") && (len == 4 || len == 8))
		n->timebase = read_cells(val, len / 4);
	else if ((!strcmp(name, "phandle") || !strcmp(name, "linux,phandle")) && len == 4)
		n->phandle = be32(val);
	else if (!strcmp(name, "remote-endpoint") && len == 4)
		n->remote_endpoint = be32(val);
	else if (!strcmp(name, "cpus") && len == 4)
		n->cpus = be32(val);
	else if (!strcmp(name, "compatible") && len)
		take_compatible(n, (const char *)val, len);
	else if (depth == 1 && name_is(n->name, "chosen") && !strcmp(name, "bootargs") &&
		 len && !val[len - 1] && len <= sizeof(plat.bootargs))
		memcpy(plat.bootargs, val, len);
}

/* A child of a trace component (or of its ports) belongs to it; its
 * out-ports / in-ports say whether it is an encoder or a sink. */
static void enter_trace_child(struct node *n, const struct node *parent)
{
	n->trace = parent->trace;
	n->ports = parent->ports;
	if (!parent->trace_self)
		return;
	if (name_is(n->name, "out-ports")) {
		n->ports = 1;
		plat.trace[n->trace].out_ports = true;
	} else if (name_is(n->name, "in-ports")) {
		n->ports = 2;
		plat.trace[n->trace].in_ports = true;
	}
}

/* The hart each trace component's `cpus` phandle names. */
static void resolve_trace_harts(void)
{
	int i, h;

	for (i = 0; i < plat.ntrace; i++) {
		struct trace_component *c = &plat.trace[i];

		for (h = 0; h < plat.nharts; h++)
			if (c->cpus_phandle && plat.hart_phandle[h] == c->cpus_phandle)
				c->hart = (long)plat.hart_ids[h];
	}
}

static int walk_dtb(const uint8_t *blob)
{
	uint32_t total = be32(blob + 4), off_struct = be32(blob + 8);
	uint32_t off_strings = be32(blob + 12), size_struct = be32(blob + 36);
	uint32_t pos = off_struct, end = off_struct + size_struct;
	struct node stack[MAX_DEPTH];
	int depth = -1;

	if (end > total || off_strings > total)
		return -1;
	while (pos + 4 <= end) {
		uint32_t token = be32(blob + pos);

		pos += 4;
		switch (token) {
		case FDT_BEGIN_NODE: {
			const char *name = (const char *)blob + pos;

			if (++depth >= MAX_DEPTH)
				return -1;
			memset(&stack[depth], 0, sizeof(stack[depth]));
			stack[depth].name = name;
			stack[depth].addr_cells = 2;
			stack[depth].size_cells = 1;
			stack[depth].trace = -1;
			if (depth > 0)
				enter_trace_child(&stack[depth], &stack[depth - 1]);
			pos += (strlen(name) + 1 + 3) & ~3u;
			break;
		}
		case FDT_END_NODE:
			if (depth < 0)
				return -1;
			finish_node(stack, depth);
			depth--;
			break;
		case FDT_PROP: {
			uint32_t len = be32(blob + pos), nameoff = be32(blob + pos + 4);

			if (depth < 0 || pos + 8 + len > end)
				return -1;
			take_prop(stack, depth, (const char *)blob + off_strings + nameoff,
				  blob + pos + 8, len);
			pos += 8 + ((len + 3) & ~3u);
			break;
		}
		case FDT_NOP:
			break;
		case FDT_END:
			resolve_trace_harts();
			return 0;
		default:
			return -1;
		}
	}
	return -1;
}

int platform_init(unsigned long hartid, uintptr_t dtb)
{
	const uint8_t *blob = (const uint8_t *)dtb;

	plat.boot_hart = hartid;
	plat.dtb = dtb;
	if (!dtb || (dtb & 3) || be32(blob) != FDT_MAGIC) {
		kprintf("platform: no DTB at %lx\n", (unsigned long)dtb);
		return -1;
	}
	plat.dtb_size = be32(blob + 4);
	if (walk_dtb(blob)) {
		kprintf("platform: malformed DTB at %lx\n", (unsigned long)dtb);
		return -1;
	}
	if (!plat.nharts || !plat.ram_size || !plat.timebase_hz || !plat.nreserved) {
		kprintf("platform: DTB lacks harts (%d), memory, timebase or reserved-memory (%d)\n",
			plat.nharts, plat.nreserved);
		return -1;
	}
	return 0;
}

bool bootarg(const char *key, char *val, size_t size)
{
	const char *p = plat.bootargs;
	size_t klen = strlen(key);

	while (*p) {
		const char *word = p;
		size_t wlen = 0;

		while (word[wlen] && word[wlen] != ' ')
			wlen++;
		/* A bare word is a flag: "key" reads as "key=1". */
		if (wlen == klen && !strncmp(word, key, klen) && size >= 2) {
			val[0] = '1';
			val[1] = '\0';
			return true;
		}
		if (wlen > klen && !strncmp(word, key, klen) && word[klen] == '=') {
			size_t vlen = wlen - klen - 1;

			if (vlen >= size)
				vlen = size - 1;
			memcpy(val, word + klen + 1, vlen);
			val[vlen] = '\0';
			return true;
		}
		p = word + wlen;
		while (*p == ' ')
			p++;
	}
	return false;
}

bool bootarg_flag(const char *key)
{
	char v[8];

	return bootarg(key, v, sizeof(v)) && !strcmp(v, "1");
}

unsigned long bootarg_ulong(const char *key, unsigned long dflt)
{
	char v[24], *p;
	unsigned long n = 0;

	if (!bootarg(key, v, sizeof(v)) || !v[0])
		return dflt;
	for (p = v; *p; p++) {
		if (*p < '0' || *p > '9')
			return dflt;
		n = n * 10 + (unsigned long)(*p - '0');
	}
	return n;
}

/* The firmware's region: the reserved region that contains RAM's start (both
 * firmwares are loaded there), else the first one. */
uint64_t fw_base(void)
{
	int i;

	for (i = 0; i < plat.nreserved; i++)
		if (plat.reserved_base[i] <= plat.ram_base &&
		    plat.ram_base < plat.reserved_base[i] + plat.reserved_size[i])
			return plat.reserved_base[i];
	return plat.reserved_base[0];
}

uint64_t fw_end(void)
{
	uint64_t base = fw_base(), end = base;
	int i;

	/* Adjacent regions (OpenSBI splits code and data) count as one. */
	for (i = 0; i < plat.nreserved; i++)
		if (plat.reserved_base[i] <= end &&
		    plat.reserved_base[i] + plat.reserved_size[i] > end) {
			end = plat.reserved_base[i] + plat.reserved_size[i];
			i = -1;
		}
	return end;
}

uint64_t ram_end(void)
{
	return plat.ram_base + plat.ram_size;
}

int hart_index(unsigned long hartid)
{
	int i;

	for (i = 0; i < plat.nharts; i++)
		if (plat.hart_ids[i] == hartid)
			return i;
	return -1;
}

bool trace_component_is(const struct trace_component *c, unsigned long hart, bool encoder)
{
	return c->hart == (long)hart && c->size &&
	       (encoder ? c->out_ports && !c->in_ports : c->in_ports && !c->out_ports);
}

uint64_t trace_component_of(unsigned long hart, bool encoder)
{
	int i;

	for (i = 0; i < plat.ntrace; i++)
		if (trace_component_is(&plat.trace[i], hart, encoder))
			return plat.trace[i].base;
	return 0;
}
