/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * tracesbi's emulated Trace Control Interface components as S-mode sees
 * them (docs/TRACE.md is the contract; trace-control-interface-1.0.adoc,
 * ntrace-spec-1.0.0-rc7.txt and trace-component-dt-binding.md are the
 * specs): the DT nodes, every register's reset value, defaults and WARL
 * read-back, the access rules of the register window, the RAM sink's
 * modes, bounds, wrap and stop-on-wrap, what the encoder writes (N-Trace
 * messages checked byte for byte where the stream is predictable) and
 * programming another hart's components.
 *
 * Everything is found through the DT: each test takes the boot hart's
 * encoder and sink from the nodes compatible "riscv,trace-component".  The
 * register offsets and fields (tci_regs.h) are written out from the TCI
 * spec, not shared with the firmware: the tests are the oracle.
 *
 * OpenSBI has no trace components: every test is DEV_OPENSBI_NO_TRACE.
 * Under tracesbi a DT without them is a failure of every test.
 */
#include "tci_regs.h"

/* ---- Components of a hart ------------------------------------------------ */

static uint64_t E, S;   /* the boot hart's encoder and sink */

static bool trace_dt_present(void)
{
	return CHECK(plat.ntrace > 0, "no \"riscv,trace-component\" node in the DT: tracesbi "
		     "describes an encoder and a RAM sink per hart on QEMU virt");
}

/* Both components of a hart in reset (trTeActive = trRamActive = 0); the
 * encoder first, so that a running trace ends before its sink does. */
static void reset_components(uint64_t enc, uint64_t sink)
{
	wr(enc, TE_CONTROL, 0);
	wr(sink, RAM_CONTROL, 0);
}

/* Every test on the boot hart's components starts here. */
static bool begin(void)
{
	if (!trace_dt_present())
		return false;
	E = trace_component_of(plat.boot_hart, true);
	S = trace_component_of(plat.boot_hart, false);
	if (!CHECK(E && S, "boot hart %lu: encoder %#lx, sink %#lx in the DT", plat.boot_hart,
		   (unsigned long)E, (unsigned long)S))
		return false;
	reset_components(E, S);
	return true;
}

static void end(void)
{
	reset_components(E, S);
}

static void release_encoder(void)
{
	wr(E, TE_CONTROL, TE_ACTIVE);
}

static void release_sink(void)
{
	wr(S, RAM_CONTROL, RAM_ACTIVE);
}

/* A register that reads `want` after writing `val`. */
static bool warl(uint64_t base, uint32_t off, uint32_t val, uint32_t want, const char *name)
{
	wr(base, off, val);
	return CHECK_EQ(rd(base, off), want, "%s (+%#x) after writing %#x", name, off, val);
}

/* ---- The trace buffer in S-mode memory ----------------------------------- */

#define GUARD_WORDS 4
#define BUF_WORDS   1024
#define GUARD_VALUE 0x6A5F0C3Du
/* MSEO = 10 is reserved (N-Trace 3.1): no trace byte looks like the fill. */
#define FILL        0x5Au

static uint32_t tbuf[GUARD_WORDS + BUF_WORDS + GUARD_WORDS] __attribute__((aligned(64)));

static volatile uint8_t *buf_bytes(void)
{
	return (volatile uint8_t *)&tbuf[GUARD_WORDS];
}

static uintptr_t buf_start(void)
{
	return (uintptr_t)&tbuf[GUARD_WORDS];
}

/* Guard words before the buffer, the fill in it and after its `size` bytes
 * guard words again (the rest of tbuf). */
static void buf_prepare(size_t size)
{
	volatile uint32_t *w = tbuf;
	size_t i;

	for (i = 0; i < sizeof(tbuf) / 4; i++)
		w[i] = GUARD_VALUE;
	for (i = 0; i < size; i++)
		buf_bytes()[i] = FILL;
}

static bool guards_intact(size_t size, const char *when)
{
	volatile uint32_t *w = tbuf;
	size_t i;

	for (i = 0; i < sizeof(tbuf) / 4; i++) {
		if (i >= GUARD_WORDS && i < GUARD_WORDS + size / 4)
			continue;
		if (w[i] != GUARD_VALUE)
			return check_failed("%s: guard word at %#lx (buffer %#lx+%#zx) is %#x",
					    when, (unsigned long)(uintptr_t)&w[i],
					    (unsigned long)buf_start(), size, w[i]);
	}
	return true;
}

/* The boot hart's sink in SMEM mode over [buf, buf + size), enabled. */
static bool smem_setup(size_t size, bool stop_on_wrap)
{
	uint32_t start = (uint32_t)buf_start(), mode = RAM_ACTIVE | RAM_MODE_SMEM;

	release_sink();
	wr(S, RAM_CONTROL, mode);
	wr(S, RAM_START_HIGH, 0);
	wr(S, RAM_START_LOW, start);
	wr(S, RAM_LIMIT_HIGH, 0);
	wr(S, RAM_LIMIT_LOW, start + (uint32_t)size - 4);
	wr(S, RAM_WP_HIGH, 0);
	wr(S, RAM_WP_LOW, start);
	wr(S, RAM_CONTROL, mode | RAM_ENABLE | (stop_on_wrap ? RAM_STOP_ON_WRAP : 0));
	return CHECK_EQ(rd(S, RAM_CONTROL) & (RAM_ENABLE | RAM_MODE_SMEM), RAM_ENABLE | RAM_MODE_SMEM,
			"trRamControl after enabling SMEM %#x+%#zx", start, size);
}

/* ---- Traced code ---------------------------------------------------------- */

/*
 * trace_loop(ctl, on, off, k): stores `on` to *ctl, runs k iterations of a
 * two-instruction loop, stores `off` to *ctl.  Returns the address of the
 * instruction after the first store.  No compressed instructions: every
 * traced instruction is 4 bytes, so the instruction counts of the messages
 * are known exactly (docs/TRACE.md: tracing started by a store begins with
 * the next instruction, tracing stopped by a store ends with that store):
 *   mv t0, a3 | k * (addi, bnez) | sw a2 = 2k + 2 instructions.
 *
 * resume_then_stop(ram_ctl, ram_on, te_ctl, te_off): stores ram_on to
 * *ram_ctl, then te_off to *te_ctl; returns the address of that second store.
 */
uintptr_t trace_loop(volatile uint32_t *ctl, uint32_t on, uint32_t off, unsigned long k);
/*
 * trace_chain_ts(ctl, on, off, ts_ctl, ts_on): stores `on` to *ctl, then
 * runs direct jumps the stepper predicts as one chain, with a store of
 * ts_on to *ts_ctl (timestamps on) inside it, then stores `off` to *ctl:
 *   j | nop, j | nop, j | sw a4 (ts), j | nop, j | sw a2 = 10 instructions.
 */
void trace_chain_ts(volatile uint32_t *ctl, uint32_t on, uint32_t off, volatile uint32_t *ts_ctl,
		    uint32_t ts_on);
uintptr_t resume_then_stop(volatile uint32_t *ram_ctl, uint32_t ram_on, volatile uint32_t *te_ctl,
			   uint32_t te_off);
/*
 * trace_smc(ctl, on, off, code, next): stores `on` to *ctl, calls the code
 * at `code` (8-byte aligned, 4 words: as the caller wrote them), copies the
 * 4 words at `next` over it, runs fence.i, calls it again, stores `off` to
 * *ctl, and returns t0 (0 before the first call: what the code computed):
 *   li, jalr | code | ld, sd, ld, sd, fence.i, jalr | code | sw a2
 *   = 9 instructions + the two runs of the code.
 */
long trace_smc(volatile uint32_t *ctl, uint32_t on, uint32_t off, uint32_t *code,
	       const uint32_t *next);
/*
 * trace_remap(ctl, on, off, code, pte, next_pte, hart): stores `on` to
 * *ctl, calls the code at virtual address `code`, stores next_pte to *pte
 * (the leaf that maps it), fences that one address, calls it again,
 * stores `off` to *ctl, and returns t0 (0 before the first call).  With
 * hart = -1 the fence is `sfence.vma code`:
 *   li, jalr | code | sd, bgez, sfence.vma, j, jalr | code | sw a2
 *   = 8 instructions + the two runs of the code;
 * otherwise an SBI remote_sfence_vma of the page to that hart:
 *   li, jalr | code | sd, bgez, li, mv, mv, lui (li a3), li, lui + addw
 *   (li a7), ecall, jalr | code | sw a2 = 14 instructions + the two runs.
 */
long trace_remap(volatile uint32_t *ctl, uint32_t on, uint32_t off, uintptr_t code,
		 volatile uint64_t *pte, uint64_t next_pte, long hart);
__asm__(
	".pushsection .text.trace_loop, \"ax\"\n"
	".option push\n"
	".option norvc\n"
	".balign 4\n"
	".globl trace_loop\n"
	"trace_loop:\n"
	"	la	t1, 1f\n"
	"	sw	a1, 0(a0)\n"
	"1:	mv	t0, a3\n"
	"2:	addi	t0, t0, -1\n"
	"	bnez	t0, 2b\n"
	"	sw	a2, 0(a0)\n"
	"	mv	a0, t1\n"
	"	ret\n"
	".globl trace_chain_ts\n"
	"trace_chain_ts:\n"
	"	sw	a1, 0(a0)\n"
	"	j	1f\n"
	"1:	nop\n"
	"	j	2f\n"
	"2:	nop\n"
	"	j	3f\n"
	"3:	sw	a4, 0(a3)\n"
	"	j	4f\n"
	"4:	nop\n"
	"	j	5f\n"
	"5:	sw	a2, 0(a0)\n"
	"	ret\n"
	".globl trace_smc\n"
	"trace_smc:\n"
	"	mv	t2, ra\n"
	"	sw	a1, 0(a0)\n"
	"	li	t0, 0\n"
	"	jalr	a3\n"
	"	ld	t1, 0(a4)\n"
	"	sd	t1, 0(a3)\n"
	"	ld	t1, 8(a4)\n"
	"	sd	t1, 8(a3)\n"
	"	fence.i\n"
	"	jalr	a3\n"
	"	sw	a2, 0(a0)\n"
	"	mv	a0, t0\n"
	"	mv	ra, t2\n"
	"	ret\n"
	".globl trace_remap\n"
	"trace_remap:\n"
	"	mv	t2, ra\n"
	"	mv	t3, a0\n"
	"	mv	t4, a2\n"
	"	mv	t5, a3\n"
	"	mv	t6, a6\n"
	"	sw	a1, 0(t3)\n"
	"	li	t0, 0\n"
	"	jalr	t5\n"
	"	sd	a5, 0(a4)\n"
	"	bgez	t6, 1f\n"
	"	sfence.vma t5\n"
	"	j	2f\n"
	"1:	li	a0, 1\n"
	"	mv	a1, t6\n"
	"	mv	a2, t5\n"
	"	li	a3, 4096\n"
	"	li	a6, 1\n"
	"	li	a7, 0x52464E43\n"
	"	ecall\n"
	"2:	jalr	t5\n"
	"	sw	t4, 0(t3)\n"
	"	mv	a0, t0\n"
	"	mv	ra, t2\n"
	"	ret\n"
	".globl resume_then_stop\n"
	"resume_then_stop:\n"
	"	la	t1, 1f\n"
	"	sw	a1, 0(a0)\n"
	"1:	sw	a3, 0(a2)\n"
	"	mv	a0, t1\n"
	"	ret\n"
	".option pop\n"
	".popsection\n");

/* Instruction tracing of the boot hart on around trace_loop(k). */
static uintptr_t traced_loop(uint32_t mode, unsigned long k)
{
	uint32_t on = TE_ACTIVE | TE_ENABLE | TE_INST_TRACING | TE_MODE(mode);
	unsigned long sstatus = csr_read(sstatus);
	uintptr_t first;

	irq_disable();
	first = trace_loop(reg(E, TE_CONTROL), on, on & ~TE_INST_TRACING, k);
	if (sstatus & SSTATUS_SIE)
		irq_enable();
	return first;
}

/* ---- N-Trace messages: expected streams and a parser ---------------------- */

struct stream {
	uint8_t b[256];
	size_t n;
	bool overflow;
};

static unsigned bit_length(uint64_t v)
{
	unsigned n = 0;

	while (v) {
		n++;
		v >>= 1;
	}
	return n;
}

/* One message of `nseg` fields as N-Trace sends them (chapter 3): segment i
 * is `bits[i]` bits of v[i] (fixed fields with the variable field that ends
 * them), LSB first, 6 MDO bits per byte; MSEO 00 inside a field, 01 at the
 * end of a variable field, 11 at the end of the message. */
static void put_msg(struct stream *s, int nseg, const uint64_t *v, const unsigned *bits)
{
	int i;

	for (i = 0; i < nseg; i++) {
		unsigned nbytes = bits[i] ? (bits[i] + 5) / 6 : 1, j;

		for (j = 0; j < nbytes; j++) {
			uint8_t mdo = (uint8_t)((v[i] >> (6 * j)) & 0x3F);
			uint8_t mseo = j + 1 < nbytes ? 0 : i + 1 < nseg ? 1 : 3;

			if (s->n == sizeof(s->b)) {
				s->overflow = true;
				return;
			}
			s->b[s->n++] = (uint8_t)(mdo << 2 | mseo);
		}
	}
}

/* ProgTraceSync: TCODE, SYNC(4), I-CNT | F-ADDR (address >> 1). */
static void put_sync(struct stream *s, unsigned sync, uint64_t icnt, uint64_t addr)
{
	uint64_t v[2] = { TCODE_SYNC | sync << 6 | icnt << 10, addr >> 1 };
	unsigned bits[2] = { 10 + bit_length(icnt), bit_length(addr >> 1) };

	put_msg(s, 2, v, bits);
}

/* DirectBranch: TCODE, I-CNT. */
static void put_direct_branch(struct stream *s, uint64_t icnt)
{
	uint64_t v[1] = { TCODE_DIRECT_BRANCH | icnt << 6 };
	unsigned bits[1] = { 6 + bit_length(icnt) };

	put_msg(s, 1, v, bits);
}

/* ProgTraceCorrelation: TCODE, EVCODE(4), CDF(2), I-CNT [| HIST when CDF = 1]. */
static void put_correlation(struct stream *s, unsigned evcode, unsigned cdf, uint64_t icnt,
			    uint64_t hist)
{
	uint64_t v[2] = { TCODE_CORRELATION | evcode << 6 | (uint64_t)cdf << 10 | icnt << 12, hist };
	unsigned bits[2] = { 12 + bit_length(icnt), bit_length(hist) };

	put_msg(s, cdf ? 2 : 1, v, bits);
}

/* Error: TCODE, ETYPE(4), ECODE. */
static void put_error(struct stream *s, unsigned etype, uint64_t ecode)
{
	uint64_t v[1] = { TCODE_ERROR | etype << 6 | ecode << 10 };
	unsigned bits[1] = { 10 + bit_length(ecode) };

	put_msg(s, 1, v, bits);
}

/* What trace_loop(k) produces from its first traced instruction `first`:
 * BTM: a DirectBranch per taken branch (I-CNT in half-words: mv, addi,
 * bnez = 6 for the first, addi, bnez = 4 after), HTM: the branches in the
 * HIST of the closing message (1 = taken, after the stop bit); both end
 * with ProgTraceCorrelation EVCODE 4 at the stop store. */
static void expected_loop(struct stream *s, uint32_t mode, unsigned long k, uintptr_t first)
{
	unsigned long i;

	put_sync(s, SYNC_TRACE_ENABLE, 0, first);
	if (mode == MODE_BTM) {
		for (i = 0; i + 1 < k; i++)
			put_direct_branch(s, i ? 4 : 6);
		/* after the last message: addi, bnez (not taken), sw */
		put_correlation(s, EVCODE_DISABLED, 0, k > 1 ? 6 : 8, 0);
	} else {
		uint64_t hist = 1;

		for (i = 0; i < k; i++)
			hist = hist << 1 | (i + 1 < k);
		put_correlation(s, EVCODE_DISABLED, 1, 2 * (2 * k + 2), hist);
	}
}

/* Pads to a whole trace word with idle bytes, as disabling the sink does. */
static void pad_to_word(struct stream *s)
{
	while ((s->n & 3) && s->n < sizeof(s->b))
		s->b[s->n++] = IDLE;
}

/* The received bytes equal the expected stream's first n. */
static bool bytes_equal(const volatile uint8_t *got, const struct stream *s, size_t n,
			const char *what)
{
	const uint8_t *want = s->b;
	size_t i;

	if (!CHECK(!s->overflow && n <= sizeof(s->b), "%s: the expected stream does not fit "
		   "the test's %zu bytes", what, sizeof(s->b)))
		return false;

	for (i = 0; i < n; i++)
		if (got[i] != want[i]) {
			if (run.verbose) {
				size_t j;

				kprintf("  got: ");
				for (j = 0; j < n; j++)
					kprintf(" %02x", got[j]);
				kprintf("\n  want:");
				for (j = 0; j < n; j++)
					kprintf(" %02x", want[j]);
				kprintf("\n");
			}
			return check_failed("%s: byte %zu of %zu is %#x, expected %#x", what, i, n,
					    got[i], want[i]);
		}
	return true;
}

/* ==== DT ==================================================================== */

static void dt_components_per_hart(void)
{
	int h, i;

	if (!trace_dt_present())
		return;
	CHECK(!plat.trace_overflow, "more trace components or endpoints than the table holds");
	CHECK_EQ(plat.ntrace, 2 * plat.nharts, "trace components for %d harts", plat.nharts);
	for (h = 0; h < plat.nharts; h++) {
		unsigned long hart = plat.hart_ids[h];
		int enc = 0, sink = 0;

		for (i = 0; i < plat.ntrace; i++) {
			enc += trace_component_is(&plat.trace[i], hart, true);
			sink += trace_component_is(&plat.trace[i], hart, false);
		}
		CHECK(enc == 1 && sink == 1, "hart %lu has %d encoders and %d sinks (1 each expected)",
		      hart, enc, sink);
	}
	for (i = 0; i < plat.ntrace; i++) {
		const struct trace_component *c = &plat.trace[i];
		static const char compat[] = "tracesbi,trace-component\0riscv,trace-component";

		CHECK(c->enabled, "trace@%lx: status is not okay", (unsigned long)c->base);
		CHECK_EQ(c->size, COMP_SIZE, "trace@%lx: reg size", (unsigned long)c->base);
		CHECK(c->hart >= 0, "trace@%lx: cpus (phandle %#x) names no hart",
		      (unsigned long)c->base, c->cpus_phandle);
		CHECK(c->compatible_len == sizeof(compat) &&
		      !memcmp(c->compatible, compat, sizeof(compat)),
		      "trace@%lx: compatible is not \"tracesbi,trace-component\", "
		      "\"riscv,trace-component\"", (unsigned long)c->base);
		CHECK(c->out_ports != c->in_ports, "trace@%lx: out-ports %d, in-ports %d",
		      (unsigned long)c->base, c->out_ports, c->in_ports);
	}
}

/* The OF graph: each encoder's out endpoint and its sink's in endpoint name
 * each other (remote-endpoint = the other's phandle). */
static void dt_endpoints_paired(void)
{
	int h;

	if (!trace_dt_present())
		return;
	for (h = 0; h < plat.nharts; h++) {
		const struct trace_component *enc = NULL, *sink = NULL;
		int i;

		for (i = 0; i < plat.ntrace; i++) {
			if (trace_component_is(&plat.trace[i], plat.hart_ids[h], true))
				enc = &plat.trace[i];
			if (trace_component_is(&plat.trace[i], plat.hart_ids[h], false))
				sink = &plat.trace[i];
		}
		if (!CHECK(enc && sink, "hart %lu: no encoder/sink pair", plat.hart_ids[h]))
			continue;
		if (!CHECK(enc->nendpoints == 1 && sink->nendpoints == 1,
			   "hart %lu: %d encoder and %d sink endpoints (1 each expected)",
			   plat.hart_ids[h], enc->nendpoints, sink->nendpoints))
			continue;
		CHECK(enc->ep[0].out && !sink->ep[0].out, "hart %lu: endpoint directions",
		      plat.hart_ids[h]);
		CHECK(enc->ep[0].phandle && sink->ep[0].phandle &&
		      enc->ep[0].phandle != sink->ep[0].phandle,
		      "hart %lu: endpoint phandles %#x, %#x", plat.hart_ids[h], enc->ep[0].phandle,
		      sink->ep[0].phandle);
		CHECK_EQ(enc->ep[0].remote, sink->ep[0].phandle,
			 "hart %lu: encoder's remote-endpoint", plat.hart_ids[h]);
		CHECK_EQ(sink->ep[0].remote, enc->ep[0].phandle,
			 "hart %lu: sink's remote-endpoint", plat.hart_ids[h]);
	}
}

/* docs/TRACE.md: hart index i (its place in /cpus) has its encoder at
 * base + i * 8 KiB and its sink 4 KiB above; base is aligned to the
 * window's size (a power of two, at least harts * 8 KiB) and below RAM. */
static uint64_t window_size(void)
{
	uint64_t size = 1;

	while (size < (uint64_t)plat.nharts * COMP_STRIDE)
		size <<= 1;
	return size;
}

static void dt_layout(void)
{
	uint64_t base, size = window_size();
	int h;

	if (!trace_dt_present())
		return;
	base = trace_component_of(plat.hart_ids[0], true);
	CHECK(base && !(base & (size - 1)), "hart index 0's encoder at %#lx: not aligned to %#lx",
	      (unsigned long)base, (unsigned long)size);
	CHECK(base + size <= plat.ram_base, "window %#lx+%#lx is not below RAM (%#lx)",
	      (unsigned long)base, (unsigned long)size, (unsigned long)plat.ram_base);
	for (h = 0; h < plat.nharts; h++) {
		CHECK_EQ(trace_component_of(plat.hart_ids[h], true), base + (uint64_t)h * COMP_STRIDE,
			 "encoder of hart %lu (index %d)", plat.hart_ids[h], h);
		CHECK_EQ(trace_component_of(plat.hart_ids[h], false),
			 base + (uint64_t)h * COMP_STRIDE + COMP_SIZE, "sink of hart %lu (index %d)",
			 plat.hart_ids[h], h);
	}
}

/* ==== Reset state ========================================================== */

/* tr??Impl is readable while the component is in reset (Active = 0), for
 * every hart, from the boot hart (the other harts' writes are applied by
 * them, started or not). */
static void impl_values(void)
{
	int h;

	if (!trace_dt_present())
		return;
	for (h = 0; h < plat.nharts; h++) {
		uint64_t enc = trace_component_of(plat.hart_ids[h], true);
		uint64_t sink = trace_component_of(plat.hart_ids[h], false);

		if (!CHECK(enc && sink, "hart %lu has no encoder/sink", plat.hart_ids[h]))
			continue;
		reset_components(enc, sink);
		CHECK_EQ(rd(enc, TE_IMPL), TE_IMPL_VALUE, "trTeImpl of hart %lu in reset",
			 plat.hart_ids[h]);
		CHECK_EQ(rd(sink, RAM_IMPL), RAM_IMPL_VALUE, "trRamImpl of hart %lu in reset",
			 plat.hart_ids[h]);
		wr(enc, TE_CONTROL, TE_ACTIVE);
		wr(sink, RAM_CONTROL, RAM_ACTIVE);
		CHECK_EQ(rd(enc, TE_IMPL), TE_IMPL_VALUE, "trTeImpl of hart %lu, active",
			 plat.hart_ids[h]);
		CHECK_EQ(rd(sink, RAM_IMPL), RAM_IMPL_VALUE, "trRamImpl of hart %lu, active",
			 plat.hart_ids[h]);
		/* RO: writes change nothing. */
		wr(enc, TE_IMPL, 0);
		wr(sink, RAM_IMPL, 0xFFFFFFFFu);
		CHECK_EQ(rd(enc, TE_IMPL), TE_IMPL_VALUE, "trTeImpl of hart %lu after a write",
			 plat.hart_ids[h]);
		CHECK_EQ(rd(sink, RAM_IMPL), RAM_IMPL_VALUE, "trRamImpl of hart %lu after a write",
			 plat.hart_ids[h]);
		reset_components(enc, sink);
	}
}

static const uint32_t te_offsets[] = {
	TE_INST_FEATURES, TE_INST_FILTERS, TE_DATA_CONTROL, TE_DATA_FILTERS, TS_CONTROL,
	TS_COUNTER_LOW, TS_COUNTER_HIGH, TE_TRIG_DBG, TE_TRIG_EXT_IN, TE_TRIG_EXT_OUT,
	TE_FILTER(0) + FILTER_CONTROL, TE_FILTER(0) + FILTER_MATCH_INST,
	TE_FILTER(3) + FILTER_CONTROL, TE_COMP(0) + COMP_CONTROL, TE_COMP(0) + COMP_PMATCH_LOW,
	TE_COMP(3) + COMP_SMATCH_HIGH, TSBI_INGRESS, TSBI_CALL_STACK, TSBI_STATUS,
	TSBI_BLOCKS_LOW, TSBI_BLOCKS_HIGH, TSBI_INSNS_LOW, TSBI_INSNS_HIGH,
};

static const uint32_t ram_offsets[] = {
	RAM_START_LOW, RAM_START_HIGH, RAM_LIMIT_LOW, RAM_LIMIT_HIGH, RAM_WP_LOW, RAM_WP_HIGH,
	RAM_RP_LOW, RAM_RP_HIGH, RAM_DATA,
};

/* Active = 0: trTeControl / trRamControl read only their Empty bit (TCI
 * reset value 1), every other register but Impl reads 0, and writes to
 * them are ignored (they read 0 after, and release from reset still gives
 * the defaults).  Every hart, from the boot hart. */
static void reset_reads_zero_ignores_writes(void)
{
	size_t i;
	int h;

	if (!trace_dt_present())
		return;
	for (h = 0; h < plat.nharts; h++) {
		unsigned long hart = plat.hart_ids[h];
		uint64_t enc = trace_component_of(hart, true), sink = trace_component_of(hart, false);

		if (!CHECK(enc && sink, "hart %lu has no encoder/sink", hart))
			continue;
		reset_components(enc, sink);
		CHECK_EQ(rd(enc, TE_CONTROL), TE_EMPTY, "hart %lu trTeControl in reset", hart);
		CHECK_EQ(rd(sink, RAM_CONTROL), RAM_EMPTY, "hart %lu trRamControl in reset", hart);
		for (i = 0; i < sizeof(te_offsets) / sizeof(te_offsets[0]); i++) {
			CHECK_EQ(rd(enc, te_offsets[i]), 0, "hart %lu encoder +%#x in reset", hart,
				 te_offsets[i]);
			wr(enc, te_offsets[i], 0xFFFFFFFFu);
			CHECK_EQ(rd(enc, te_offsets[i]), 0, "hart %lu encoder +%#x in reset after "
				 "writing all-ones", hart, te_offsets[i]);
		}
		for (i = 0; i < sizeof(ram_offsets) / sizeof(ram_offsets[0]); i++) {
			CHECK_EQ(rd(sink, ram_offsets[i]), 0, "hart %lu sink +%#x in reset", hart,
				 ram_offsets[i]);
			wr(sink, ram_offsets[i], 0xFFFFFFFFu);
			CHECK_EQ(rd(sink, ram_offsets[i]), 0, "hart %lu sink +%#x in reset after "
				 "writing all-ones", hart, ram_offsets[i]);
		}
		/* Nothing of those writes was kept. */
		wr(enc, TE_CONTROL, TE_ACTIVE);
		/* ImplicitReturnMode reads 3, as after a write of 0. */
		CHECK_EQ(rd(enc, TE_INST_FEATURES), 3u << 6, "hart %lu trTeInstFeatures after release",
			 hart);
		CHECK_EQ(rd(enc, TE_INST_FILTERS), 0, "hart %lu trTeInstFilters after release", hart);
		CHECK_EQ(rd(enc, TSBI_CALL_STACK), 32, "hart %lu tsbiTeCallStack after release", hart);
		wr(sink, RAM_CONTROL, RAM_ACTIVE);
		CHECK_EQ(rd(sink, RAM_LIMIT_LOW), SRAM_LIMIT, "hart %lu trRamLimitLow after release",
			 hart);
		CHECK_EQ(rd(sink, RAM_WP_LOW), 0, "hart %lu trRamWPLow after release", hart);
		reset_components(enc, sink);
	}
}

/* ==== Release from reset: defaults ======================================== */

/* Writing trTeActive = 1 sets the defaults and ignores the rest of that
 * write; what was set before the reset is gone. */
static void encoder_release_defaults(void)
{
	if (!begin())
		return;
	/* Leave non-default values behind, then reset. */
	release_encoder();
	wr(E, TSBI_CALL_STACK, 5);
	wr(E, TE_INST_FEATURES, F_SEQ_JUMP);
	wr(E, TE_FILTER(1) + FILTER_CONTROL, 1);
	wr(E, TE_CONTROL, TE_ACTIVE | TE_CONTEXT | TE_MODE(MODE_BTM));
	wr(E, TE_CONTROL, 0);
	CHECK_EQ(rd(E, TE_CONTROL), TE_EMPTY, "trTeControl after the reset");

	wr(E, TE_CONTROL, 0xFFFFFFFFu);
	CHECK_EQ(rd(E, TE_CONTROL), TE_RELEASED,
		 "trTeControl after writing all-ones in reset (Active, Empty, HTM, N-Trace)");
	CHECK_EQ(rd(E, TE_INST_FEATURES), 3u << 6, "trTeInstFeatures default (ImplicitReturnMode 3)");
	CHECK_EQ(rd(E, TE_INST_FILTERS), 0, "trTeInstFilters default");
	CHECK_EQ(rd(E, TE_FILTER(1) + FILTER_CONTROL), 0, "trTeFilter1Control default");
	CHECK_EQ(rd(E, TS_CONTROL), TS_WIDTH(TS_WIDTH_BITS), "trTsControl default (width 56)");
	CHECK_EQ(rd(E, TS_COUNTER_LOW), 0, "trTsCounterLow default");
	CHECK_EQ(rd(E, TS_COUNTER_HIGH), 0, "trTsCounterHigh default");
	CHECK_EQ(rd(E, TSBI_INGRESS), 0, "tsbiTeIngress default");
	CHECK_EQ(rd(E, TSBI_CALL_STACK), 32, "tsbiTeCallStack default");
	CHECK_EQ(rd(E, TSBI_STATUS), ST_INGRESS_OK | QEMU_TRIGGERS << 8, "tsbiTeStatus idle");
	end();
}

/* Release from reset selects SRAM mode: Start 0, Limit 0xFFC, WP = RP = 0,
 * High halves 0, Wrap 0, Enable 0. */
static void sink_release_defaults(void)
{
	if (!begin())
		return;
	/* An SMEM setup to be undone by the reset. */
	release_sink();
	wr(S, RAM_CONTROL, RAM_ACTIVE | RAM_MODE_SMEM | RAM_STOP_ON_WRAP);
	wr(S, RAM_CONTROL, 0);
	CHECK_EQ(rd(S, RAM_CONTROL), RAM_EMPTY, "trRamControl after the reset");

	wr(S, RAM_CONTROL, RAM_ACTIVE | RAM_MODE_SMEM);
	CHECK_EQ(rd(S, RAM_CONTROL), RAM_ACTIVE | RAM_EMPTY,
		 "trRamControl after release (SRAM mode selected, disabled)");
	CHECK_EQ(rd(S, RAM_START_LOW), 0, "trRamStartLow default");
	CHECK_EQ(rd(S, RAM_START_HIGH), 0, "trRamStartHigh default");
	CHECK_EQ(rd(S, RAM_LIMIT_LOW), SRAM_LIMIT, "trRamLimitLow default");
	CHECK_EQ(rd(S, RAM_LIMIT_HIGH), 0, "trRamLimitHigh default");
	CHECK_EQ(rd(S, RAM_WP_LOW), 0, "trRamWPLow default (WP 0, Wrap 0)");
	CHECK_EQ(rd(S, RAM_WP_HIGH), 0, "trRamWPHigh default");
	CHECK_EQ(rd(S, RAM_RP_LOW), 0, "trRamRPLow default");
	CHECK_EQ(rd(S, RAM_RP_HIGH), 0, "trRamRPHigh default");
	end();
}

/* ==== WARL read-back of the encoder ======================================= */

/* trTeInstMode: 0, 3, 6; 1, 2 read back as 3; 4, 5, 7 as 6. */
static void inst_mode_warl(void)
{
	static const uint32_t want[8] = { 0, 3, 3, 3, 6, 6, 6, 6 };
	uint32_t m;

	if (!begin())
		return;
	release_encoder();
	for (m = 0; m < 8; m++) {
		wr(E, TE_CONTROL, TE_ACTIVE | TE_MODE(m));
		CHECK_EQ(rd(E, TE_CONTROL) & TE_MODE_MASK, TE_MODE(want[m]),
			 "trTeInstMode after writing %u", m);
	}
	end();
}

/* The other trTeControl fields, with tracing off (Enable = 0). */
static void control_fields_warl(void)
{
	uint32_t base = TE_ACTIVE | TE_EMPTY | TE_MODE(MODE_HTM) | TE_FORMAT(1), v;
	uint32_t reserved = 3u << 7 | 1u << 10 | 1u << 14 | 3u << 18 | 0x1Fu << 27;

	if (!begin())
		return;
	release_encoder();
	/* RW: InstTracing (alone it traces nothing), Context, InhibitSrc,
	 * SyncMode 0-3, SyncMax 0-15. */
	warl(E, TE_CONTROL, TE_ACTIVE | TE_MODE(MODE_HTM) | TE_INST_TRACING,
	     base | TE_INST_TRACING, "trTeControl InstTracing");
	warl(E, TE_CONTROL, TE_ACTIVE | TE_MODE(MODE_HTM) | TE_CONTEXT, base | TE_CONTEXT,
	     "trTeControl Context");
	warl(E, TE_CONTROL, TE_ACTIVE | TE_MODE(MODE_HTM) | TE_INHIBIT_SRC, base | TE_INHIBIT_SRC,
	     "trTeControl InhibitSrc");
	for (v = 0; v < 4; v++)
		warl(E, TE_CONTROL, TE_ACTIVE | TE_MODE(MODE_HTM) | TE_SYNC_MODE(v),
		     base | TE_SYNC_MODE(v), "trTeControl InstSyncMode");
	for (v = 0; v < 16; v++)
		warl(E, TE_CONTROL, TE_ACTIVE | TE_MODE(MODE_HTM) | TE_SYNC_MAX(v),
		     base | TE_SYNC_MAX(v), "trTeControl InstSyncMax");
	/* Fixed: InstTrigEnable 0, InstStallEna 0, Format 1; reserved bits 0;
	 * StallOrOverflow is W1C (writing 1 when it is 0 leaves 0). */
	warl(E, TE_CONTROL, TE_ACTIVE | TE_MODE(MODE_HTM) | TE_TRIG_ENABLE | TE_STALL_ENA |
	     TE_OVERFLOW | reserved, base, "trTeControl InstTrigEnable/StallEna/reserved");
	for (v = 0; v < 8; v++)
		warl(E, TE_CONTROL, TE_ACTIVE | TE_MODE(MODE_HTM) | TE_FORMAT(v), base,
		     "trTeControl Format");
	end();
}

static void inst_features_warl(void)
{
	uint32_t v, rw = F_SEQ_JUMP | F_IMPLICIT_RET | F_REPEATED_HIST | F_ALL_JUMPS | F_EXTEND_MSB;

	if (!begin())
		return;
	release_encoder();
	/* Fixed 0: NoAddrDiff, NoTrapAddr, BranchPrediction, JumpTargetCache,
	 * reserved 15:11.  RW: the rest; ImplicitReturnMode 0 reads 3. */
	warl(E, TE_INST_FEATURES, F_NO_ADDR_DIFF | F_NO_TRAP_ADDR | F_BRANCH_PRED | F_JUMP_CACHE |
	     0x1Fu << 11, F_IR_MODE(3), "trTeInstFeatures fixed bits");
	warl(E, TE_INST_FEATURES, rw | F_IR_MODE(1), rw | F_IR_MODE(1), "trTeInstFeatures RW bits");
	for (v = 0; v < 4; v++)
		warl(E, TE_INST_FEATURES, F_IR_MODE(v), F_IR_MODE(v ? v : 3),
		     "trTeInstFeatures ImplicitReturnMode");
	warl(E, TE_INST_FEATURES, F_SRC_ID(0xFFF) | F_IR_MODE(2), F_SRC_ID(0xFFF) | F_IR_MODE(2),
	     "trTeInstFeatures SrcID");
	warl(E, TE_INST_FEATURES, F_SRC_ID(0xA5C) | F_IR_MODE(2), F_SRC_ID(0xA5C) | F_IR_MODE(2),
	     "trTeInstFeatures SrcID");
	for (v = 0; v < 16; v++)
		warl(E, TE_INST_FEATURES, F_SRC_BITS(v) | F_IR_MODE(1),
		     F_SRC_BITS(v <= 12 ? v : 12) | F_IR_MODE(1), "trTeInstFeatures SrcBits");
	end();
}

/* tsbiTeCallStack bits 5:0: 1-32 as written, 0 and 33-63 read 32; tsbiTeIngress
 * bits 1:0 RW, the rest 0. */
static void tracesbi_registers_warl(void)
{
	uint32_t v;

	if (!begin())
		return;
	release_encoder();
	for (v = 0; v < 64; v++)
		warl(E, TSBI_CALL_STACK, v, v >= 1 && v <= 32 ? v : 32, "tsbiTeCallStack");
	warl(E, TSBI_CALL_STACK, 0xFFFFFFC5u, 5, "tsbiTeCallStack (bits above 5:0)");
	for (v = 0; v < 8; v++)
		warl(E, TSBI_INGRESS, v, v, "tsbiTeIngress");
	warl(E, TSBI_INGRESS, 0xFFFFFFF8u, 0, "tsbiTeIngress reserved bits");
	/* Read-only status and counters. */
	warl(E, TSBI_STATUS, 0, ST_INGRESS_OK | QEMU_TRIGGERS << 8, "tsbiTeStatus (RO)");
	warl(E, TSBI_BLOCKS_LOW, 0x1234, 0, "tsbiTeBlocksLow (RO)");
	warl(E, TSBI_INSNS_LOW, 0x1234, 0, "tsbiTeInsnsLow (RO)");
	warl(E, TSBI_INSNS_HIGH, 0x1234, 0, "tsbiTeInsnsHigh (RO)");
	/* TV mode's XLEN, FLEN (QEMU's rv64 has D), MLEN: 8 bytes each. */
	warl(E, TSBI_TV_PARAMS, 0, 0x080808, "tsbiTeTvParams (RO)");
	end();
}

/* tsbiTeStatus on QEMU virt: two execute triggers, so tracing is possible
 * (bit 0) and the trigger count (15:8) is 2, on every hart. */
static void status_triggers(void)
{
	int h;

	if (!trace_dt_present())
		return;
	for (h = 0; h < plat.nharts; h++) {
		uint64_t enc = trace_component_of(plat.hart_ids[h], true);
		uint32_t st;

		if (!CHECK(enc, "hart %lu has no encoder", plat.hart_ids[h]))
			continue;
		wr(enc, TE_CONTROL, 0);
		wr(enc, TE_CONTROL, TE_ACTIVE);
		st = rd(enc, TSBI_STATUS);
		CHECK(st & ST_INGRESS_OK, "hart %lu tsbiTeStatus %#x: bit 0 (tracing possible) clear",
		      plat.hart_ids[h], st);
		CHECK_EQ(ST_TRIGGERS(st), QEMU_TRIGGERS, "hart %lu tsbiTeStatus triggers field",
			 plat.hart_ids[h]);
		CHECK_EQ(st & (ST_STEPPING | ST_PAUSED | ST_LOST_TRACK), 0,
			 "hart %lu tsbiTeStatus run-time bits while idle", plat.hart_ids[h]);
		wr(enc, TE_CONTROL, 0);
	}
}

/* One timestamp unit: Internal System (mode 2), 56 bits, counting `time`
 * divided by 4^Prescale. */
static void timestamp_unit(void)
{
	uint32_t v, base = TS_WIDTH(TS_WIDTH_BITS);
	uint64_t t0, t1, t2, t3;
	uint32_t c, c2;

	if (!begin())
		return;
	release_encoder();
	for (v = 0; v < 8; v++)
		warl(E, TS_CONTROL, TS_ACTIVE | TS_MODE(v), base | TS_ACTIVE | TS_MODE(v ? 2 : 0),
		     "trTsControl Mode");
	for (v = 0; v < 4; v++)
		warl(E, TS_CONTROL, TS_ACTIVE | TS_MODE(2) | TS_PRESCALE(v),
		     base | TS_ACTIVE | TS_MODE(2) | TS_PRESCALE(v), "trTsControl Prescale");
	/* RunInDebug 0, Reset reads 0, Width RO, vendor 23:16 and reserved 0. */
	warl(E, TS_CONTROL, TS_ACTIVE | TS_RUN_IN_DEBUG | TS_RESET | 0xFFu << 16 | 0x3Fu << 24 |
	     1u << 7 | 0x1Fu << 10 | 3u << 30, base | TS_ACTIVE, "trTsControl fixed bits");
	warl(E, TS_CONTROL, TS_ACTIVE | TS_ENABLE | TS_MODE(2), base | TS_ACTIVE | TS_ENABLE |
	     TS_MODE(2), "trTsControl Enable");
	/* Counting from a reset: the counter is `time` since the write. */
	t0 = read_time();
	wr(E, TS_CONTROL, TS_ACTIVE | TS_COUNT | TS_RESET | TS_MODE(2));
	t1 = read_time();
	delay_us(200);
	t2 = read_time();
	c = rd(E, TS_COUNTER_LOW);
	t3 = read_time();
	CHECK(c >= t2 - t1 && c <= t3 - t0, "trTsCounterLow %u after a reset %lu..%lu ticks ago",
	      c, (unsigned long)(t2 - t1), (unsigned long)(t3 - t0));
	CHECK_EQ(rd(E, TS_COUNTER_HIGH), 0, "trTsCounterHigh");
	/* Stopped: the counter holds. */
	wr(E, TS_CONTROL, TS_ACTIVE | TS_MODE(2));
	c = rd(E, TS_COUNTER_LOW);
	delay_us(100);
	c2 = rd(E, TS_COUNTER_LOW);
	CHECK_EQ(c2, c, "trTsCounterLow with Count = 0, 100 us later");
	/* Reset while stopped: 0. */
	wr(E, TS_CONTROL, TS_ACTIVE | TS_RESET | TS_MODE(2));
	CHECK_EQ(rd(E, TS_COUNTER_LOW), 0, "trTsCounterLow after Reset");
	/* Prescale 1: time / 4. */
	t0 = read_time();
	wr(E, TS_CONTROL, TS_ACTIVE | TS_COUNT | TS_RESET | TS_MODE(2) | TS_PRESCALE(1));
	t1 = read_time();
	delay_us(200);
	t2 = read_time();
	c = rd(E, TS_COUNTER_LOW);
	t3 = read_time();
	CHECK(c >= (t2 - t1) / 4 && c <= (t3 - t0) / 4 + 1,
	      "trTsCounterLow %u with Prescale 1 after %lu..%lu ticks", c,
	      (unsigned long)(t2 - t1), (unsigned long)(t3 - t0));
	/* Active = 0: the unit is in reset. */
	warl(E, TS_CONTROL, TS_COUNT | TS_MODE(2) | TS_ENABLE, base, "trTsControl Active = 0");
	CHECK_EQ(rd(E, TS_COUNTER_LOW), 0, "trTsCounterLow with the unit in reset");
	end();
}

/* 4 filters, 4 comparators: what they keep of a write; filters and
 * comparators 4-15 and the unimplemented registers read 0. */
static void filters_comparators_warl(void)
{
	uint32_t i;

	if (!begin())
		return;
	release_encoder();
	warl(E, TE_INST_FILTERS, 0xFFFFFFFFu, 0xF, "trTeInstFilters");
	warl(E, TE_INST_FILTERS, 0x5, 0x5, "trTeInstFilters");
	for (i = 0; i < 4; i++) {
		uint32_t f = TE_FILTER(i), c = TE_COMP(i);

		/* Enable, MatchPrivilege, MatchComp1-3; comparator indexes
		 * keep their low two bits; the rest 0. */
		warl(E, f + FILTER_CONTROL, 0xFFFFFFFFu, 0x7773, "trTeFilterControl");
		warl(E, f + FILTER_CONTROL, 1u | 1u << 4 | 5u << 5 | 1u << 8 | 6u << 9 | 7u << 13,
		     1u | 1u << 4 | 1u << 5 | 1u << 8 | 2u << 9 | 3u << 13, "trTeFilterControl");
		warl(E, f + FILTER_MATCH_INST, 0xFFFFFFFFu, 0x3, "trTeFilterMatchInst (U, S)");
		warl(E, f + 0x08, 0xFFFFFFFFu, 0, "trTeFilterMatchEcauseLow");
		warl(E, f + 0x0C, 0xFFFFFFFFu, 0, "trTeFilterMatchEcauseHigh");
		warl(E, f + 0x10, 0xFFFFFFFFu, 0, "trTeFilterMatchValueImpdef");
		warl(E, f + 0x14, 0xFFFFFFFFu, 0, "trTeFilterMatchMaskImpdef");
		warl(E, f + 0x18, 0xFFFFFFFFu, 0, "trTeFilterMatchData");
		warl(E, f + 0x1C, 0xFFFFFFFFu, 0, "trTeFilter reserved +0x1C");
		/* Inputs iaddr (0) or context (1), 2 and 3 read 0; all
		 * functions; all match modes; Notify bits 0. */
		warl(E, c + COMP_CONTROL, 0xFFFFFFFFu, 0x3770, "trTeCompControl");
		warl(E, c + COMP_CONTROL, 1u | 1u << 2 | 6u << 4 | 6u << 8 | 1u << 12,
		     1u | 1u << 2 | 6u << 4 | 6u << 8 | 1u << 12, "trTeCompControl");
		warl(E, c + COMP_CONTROL, 2u | 3u << 2 | 2u << 12, 2u << 12, "trTeCompControl");
		warl(E, c + 0x04, 0xFFFFFFFFu, 0, "trTeComp reserved +0x04");
		warl(E, c + 0x08, 0xFFFFFFFFu, 0, "trTeComp reserved +0x08");
		warl(E, c + 0x0C, 0xFFFFFFFFu, 0, "trTeComp reserved +0x0C");
		warl(E, c + COMP_PMATCH_LOW, 0x89ABCDEFu, 0x89ABCDEFu, "trTeCompPMatchLow");
		warl(E, c + COMP_PMATCH_HIGH, 0x01234567u, 0x01234567u, "trTeCompPMatchHigh");
		warl(E, c + COMP_SMATCH_LOW, 0xFFFFFFFFu, 0xFFFFFFFFu, "trTeCompSMatchLow");
		warl(E, c + COMP_SMATCH_HIGH, 0xFEDCBA98u, 0xFEDCBA98u, "trTeCompSMatchHigh");
	}
	for (i = 4; i < 16; i++) {
		uint32_t r;

		for (r = 0; r < 0x20; r += 4) {
			warl(E, TE_FILTER(i) + r, 0xFFFFFFFFu, 0, "filter beyond the 4 implemented");
			warl(E, TE_COMP(i) + r, 0xFFFFFFFFu, 0, "comparator beyond the 4 implemented");
		}
	}
	end();
}

/* No data trace, no trigger inputs or outputs: those registers are 0. */
static void unimplemented_registers_zero(void)
{
	if (!begin())
		return;
	release_encoder();
	warl(E, TE_DATA_CONTROL, 0xFFFFFFFFu, 0, "trTeDataControl");
	warl(E, TE_DATA_FILTERS, 0xFFFFFFFFu, 0, "trTeDataFilters");
	warl(E, TE_TRIG_DBG, 0xFFFFFFFFu, 0, "trTeTrigDbgControl");
	warl(E, TE_TRIG_EXT_IN, 0xFFFFFFFFu, 0, "trTeTrigExtInControl");
	warl(E, TE_TRIG_EXT_OUT, 0xFFFFFFFFu, 0, "trTeTrigExtOutControl");
	end();
}

/* Reserved offsets of both components read 0 and ignore writes (with the
 * components active), and the registers around them are untouched. */
static void reserved_offsets(void)
{
	static const uint32_t te_reserved[] = {
		0x014, 0x018, 0x020, 0x024, 0x028, 0x02C, 0x030, 0x034, 0x038, 0x03C, 0x044, 0x05C,
		0x060, 0x100, 0x3FC, 0x800, 0x900, 0xC00, 0xDFC, 0xE0C, 0xE24, 0xF00, 0xFFC,
	};
	static const uint32_t ram_reserved[] = {
		0x008, 0x00C, 0x030, 0x034, 0x038, 0x03C, 0x044, 0x048, 0x100, 0x400, 0x800,
		0xDFC, 0xE00, 0xFFC,
	};
	size_t i;

	if (!begin())
		return;
	release_encoder();
	release_sink();
	wr(E, TSBI_CALL_STACK, 7);
	wr(E, TE_INST_FEATURES, F_SEQ_JUMP | F_IR_MODE(2));
	wr(S, RAM_LIMIT_LOW, 0x800);
	for (i = 0; i < sizeof(te_reserved) / sizeof(te_reserved[0]); i++) {
		CHECK_EQ(rd(E, te_reserved[i]), 0, "encoder reserved +%#x", te_reserved[i]);
		warl(E, te_reserved[i], 0xFFFFFFFFu, 0, "encoder reserved");
	}
	for (i = 0; i < sizeof(ram_reserved) / sizeof(ram_reserved[0]); i++) {
		CHECK_EQ(rd(S, ram_reserved[i]), 0, "sink reserved +%#x", ram_reserved[i]);
		warl(S, ram_reserved[i], 0xFFFFFFFFu, 0, "sink reserved");
	}
	CHECK_EQ(rd(E, TE_CONTROL), TE_RELEASED, "trTeControl after the reserved writes");
	CHECK_EQ(rd(E, TSBI_CALL_STACK), 7, "tsbiTeCallStack after the reserved writes");
	CHECK_EQ(rd(E, TE_INST_FEATURES), F_SEQ_JUMP | F_IR_MODE(2),
		 "trTeInstFeatures after the reserved writes");
	CHECK_EQ(rd(S, RAM_CONTROL), RAM_ACTIVE | RAM_EMPTY, "trRamControl after the reserved writes");
	CHECK_EQ(rd(S, RAM_LIMIT_LOW), 0x800, "trRamLimitLow after the reserved writes");
	CHECK_EQ(rd(S, RAM_WP_LOW), 0, "trRamWPLow after the reserved writes");
	end();
}

/* ==== Access rules ======================================================= */

enum access {
	A_LB, A_LBU, A_LH, A_LHU, A_LD, A_LW, A_SB, A_SH, A_SD, A_SW,
	A_FLW, A_FLD, A_FSW, A_FSD, A_AMOADD_W, A_AMOSWAP_W, A_AMOOR_D, A_LR_W, A_LR_D,
};

static const char *const access_name[] = {
	[A_LB] = "lb", [A_LBU] = "lbu", [A_LH] = "lh", [A_LHU] = "lhu", [A_LD] = "ld",
	[A_LW] = "lw", [A_SB] = "sb", [A_SH] = "sh", [A_SD] = "sd", [A_SW] = "sw",
	[A_FLW] = "flw", [A_FLD] = "fld", [A_FSW] = "fsw", [A_FSD] = "fsd",
	[A_AMOADD_W] = "amoadd.w", [A_AMOSWAP_W] = "amoswap.w", [A_AMOOR_D] = "amoor.d",
	[A_LR_W] = "lr.w", [A_LR_D] = "lr.d",
};

static bool access_is_load(enum access a)
{
	return a <= A_LW || a == A_FLW || a == A_FLD || a == A_LR_W || a == A_LR_D;
}

/* One access of kind `a` at addr; stores write `val`.  FP accesses use f0
 * (this kernel has no FP code: the FP state is S-mode's own). */
static void do_access(enum access a, uintptr_t addr, uint64_t val)
{
	register uintptr_t ra0 __asm__("a0") = addr;
	uint64_t v = val;

	switch (a) {
	case A_LB: __asm__ volatile("lb %0, 0(%1)" : "=r"(v) : "r"(ra0) : "memory"); break;
	case A_LBU: __asm__ volatile("lbu %0, 0(%1)" : "=r"(v) : "r"(ra0) : "memory"); break;
	case A_LH: __asm__ volatile("lh %0, 0(%1)" : "=r"(v) : "r"(ra0) : "memory"); break;
	case A_LHU: __asm__ volatile("lhu %0, 0(%1)" : "=r"(v) : "r"(ra0) : "memory"); break;
	case A_LD: __asm__ volatile("ld %0, 0(%1)" : "=r"(v) : "r"(ra0) : "memory"); break;
	case A_LW: __asm__ volatile("lw %0, 0(%1)" : "=r"(v) : "r"(ra0) : "memory"); break;
	case A_SB: __asm__ volatile("sb %0, 0(%1)" :: "r"(v), "r"(ra0) : "memory"); break;
	case A_SH: __asm__ volatile("sh %0, 0(%1)" :: "r"(v), "r"(ra0) : "memory"); break;
	case A_SD: __asm__ volatile("sd %0, 0(%1)" :: "r"(v), "r"(ra0) : "memory"); break;
	case A_SW: __asm__ volatile("sw %0, 0(%1)" :: "r"(v), "r"(ra0) : "memory"); break;
	/* flw/fld/fsw/fsd f0, 0(a0) */
	case A_FLW: __asm__ volatile(".word 0x00052007" :: "r"(ra0) : "memory"); break;
	case A_FLD: __asm__ volatile(".word 0x00053007" :: "r"(ra0) : "memory"); break;
	case A_FSW: __asm__ volatile(".word 0x00052027" :: "r"(ra0) : "memory"); break;
	case A_FSD: __asm__ volatile(".word 0x00053027" :: "r"(ra0) : "memory"); break;
	case A_AMOADD_W:
		__asm__ volatile("amoadd.w %0, %2, (%1)" : "=&r"(v) : "r"(ra0), "r"(val) : "memory");
		break;
	case A_AMOSWAP_W:
		__asm__ volatile("amoswap.w %0, %2, (%1)" : "=&r"(v) : "r"(ra0), "r"(val) : "memory");
		break;
	case A_AMOOR_D:
		__asm__ volatile("amoor.d %0, %2, (%1)" : "=&r"(v) : "r"(ra0), "r"(val) : "memory");
		break;
	case A_LR_W: __asm__ volatile("lr.w %0, (%1)" : "=r"(v) : "r"(ra0) : "memory"); break;
	case A_LR_D: __asm__ volatile("lr.d %0, (%1)" : "=r"(v) : "r"(ra0) : "memory"); break;
	}
	__asm__ volatile("" :: "r"(v));
}

static bool access_is_amo(enum access a)
{
	return a == A_AMOADD_W || a == A_AMOSWAP_W || a == A_AMOOR_D;
}

/* The access faults with the access fault it is (load 5, store/AMO 7) and
 * stval = its address: the firmware redirects the cause the hart raised.
 * QEMU 7.2 without multi-threaded TCG (one hart, or -icount) runs an AMO as
 * a load and a store and raises the load's access fault (5) for it. */
static bool expect_access_fault(enum access a, uintptr_t addr, uint64_t val)
{
	unsigned long cause, tval;
	unsigned long want = access_is_load(a) ? EXC_LOAD_ACCESS_FAULT : EXC_STORE_ACCESS_FAULT;

	if (access_is_amo(a) && (plat.nharts == 1 || run.icount))
		want = EXC_LOAD_ACCESS_FAULT;

	fault_expect(false);
	do_access(a, addr, val);
	if (!fault_end(&cause, &tval))
		return check_failed("%s at %#lx did not fault", access_name[a], (unsigned long)addr);
	return CHECK_EQ(cause, want, "scause of %s at %#lx", access_name[a], (unsigned long)addr) &&
	       CHECK_EQ(tval, addr, "stval of %s at %#lx", access_name[a], (unsigned long)addr);
}

/* 8-, 16- and 64-bit loads and stores of the registers of both components
 * fault; the stores change nothing. */
static void access_widths_fault(void)
{
	static const enum access loads[] = { A_LB, A_LBU, A_LH, A_LHU };
	static const enum access stores[] = { A_SB, A_SH };
	size_t i;

	if (!begin())
		return;
	release_encoder();
	release_sink();
	wr(E, TSBI_INGRESS, 1);
	wr(E, TSBI_CALL_STACK, 9);
	for (i = 0; i < sizeof(loads) / sizeof(loads[0]); i++) {
		expect_access_fault(loads[i], E + TE_IMPL, 0);
		expect_access_fault(loads[i], E + TSBI_CALL_STACK, 0);
		expect_access_fault(loads[i], S + RAM_IMPL, 0);
	}
	expect_access_fault(A_LD, E + TE_CONTROL, 0);
	expect_access_fault(A_LD, E + TSBI_INGRESS, 0);
	expect_access_fault(A_LD, S + RAM_START_LOW, 0);
	for (i = 0; i < sizeof(stores) / sizeof(stores[0]); i++) {
		expect_access_fault(stores[i], E + TSBI_CALL_STACK, 3);
		expect_access_fault(stores[i], E + TE_CONTROL, 0);
		expect_access_fault(stores[i], S + RAM_LIMIT_LOW, 0x10);
	}
	expect_access_fault(A_SD, E + TSBI_INGRESS, 0x0000000300000002ull);
	expect_access_fault(A_SD, E + TE_CONTROL, 0);
	expect_access_fault(A_SD, S + RAM_LIMIT_LOW, 0x10);
	CHECK_EQ(rd(E, TE_CONTROL), TE_RELEASED, "trTeControl after the faulting stores");
	CHECK_EQ(rd(E, TSBI_INGRESS), 1, "tsbiTeIngress after the faulting stores");
	CHECK_EQ(rd(E, TSBI_CALL_STACK), 9, "tsbiTeCallStack after the faulting stores");
	CHECK_EQ(rd(S, RAM_CONTROL), RAM_ACTIVE | RAM_EMPTY, "trRamControl after the faulting stores");
	CHECK_EQ(rd(S, RAM_LIMIT_LOW), SRAM_LIMIT, "trRamLimitLow after the faulting stores");
	end();
}

/* Misaligned 32-bit accesses fault. */
static void misaligned_fault(void)
{
	uint32_t off;

	if (!begin())
		return;
	release_encoder();
	release_sink();
	wr(E, TSBI_CALL_STACK, 9);
	for (off = 1; off < 4; off++) {
		expect_access_fault(A_LW, E + TE_IMPL + off, 0);
		expect_access_fault(A_LW, S + RAM_IMPL + off, 0);
		expect_access_fault(A_SW, E + TSBI_CALL_STACK + off, 0x03030303);
		expect_access_fault(A_SW, S + RAM_LIMIT_LOW + off, 0x10101010);
	}
	CHECK_EQ(rd(E, TSBI_CALL_STACK), 9, "tsbiTeCallStack after the faulting stores");
	CHECK_EQ(rd(E, TSBI_INGRESS), 0, "tsbiTeIngress after the faulting stores");
	CHECK_EQ(rd(S, RAM_LIMIT_LOW), SRAM_LIMIT, "trRamLimitLow after the faulting stores");
	CHECK_EQ(rd(S, RAM_WP_LOW), 0, "trRamWPLow after the faulting stores");
	end();
}

/* FP loads/stores, AMOs and LR fault (SC is left out: QEMU fails an SC
 * without a reservation before it accesses memory). */
static void fp_amo_lr_fault(void)
{
	unsigned long sstatus = csr_read(sstatus);

	if (!begin())
		return;
	release_encoder();
	wr(E, TSBI_CALL_STACK, 9);
	csr_set(sstatus, 1ul << 13);   /* FS = Initial: FP instructions are legal */
	expect_access_fault(A_FLW, E + TE_IMPL, 0);
	expect_access_fault(A_FLD, E + TSBI_INGRESS, 0);
	expect_access_fault(A_FSW, E + TSBI_CALL_STACK, 0);
	expect_access_fault(A_FSD, E + TSBI_INGRESS, 0);
	csr_clear(sstatus, 3ul << 13);
	csr_set(sstatus, sstatus & (3ul << 13));
	expect_access_fault(A_AMOADD_W, E + TSBI_CALL_STACK, 1);
	expect_access_fault(A_AMOSWAP_W, E + TSBI_CALL_STACK, 3);
	expect_access_fault(A_AMOSWAP_W, S + RAM_CONTROL, 0);
	expect_access_fault(A_AMOOR_D, E + TSBI_INGRESS, 3);
	expect_access_fault(A_LR_W, E + TE_IMPL, 0);
	expect_access_fault(A_LR_D, E + TSBI_INGRESS, 0);
	CHECK_EQ(rd(E, TSBI_CALL_STACK), 9, "tsbiTeCallStack after the faulting accesses");
	CHECK_EQ(rd(E, TSBI_INGRESS), 0, "tsbiTeIngress after the faulting accesses");
	end();
}

/* Addresses of the window that belong to no component (past the last
 * hart's sink) fault like the rest of it. */
static void unowned_window_fault(void)
{
	uint64_t base, first, end_w, size = window_size();
	uint64_t a[4];
	size_t i;

	if (!trace_dt_present())
		return;
	base = trace_component_of(plat.hart_ids[0], true);
	first = base + (uint64_t)plat.nharts * COMP_STRIDE;
	end_w = base + size;
	if (first == end_w) {
		test_not_applicable("%d harts fill the %#lx-byte window: no address past the last "
				    "sink (a run with 3 harts would have one)", plat.nharts,
				    (unsigned long)size);
		return;
	}
	a[0] = first;
	a[1] = first + 4;
	a[2] = first + COMP_SIZE + RAM_CONTROL;
	a[3] = end_w - 4;
	for (i = 0; i < 4; i++) {
		expect_access_fault(A_LW, a[i], 0);
		expect_access_fault(A_SW, a[i], 1);
	}
}

/*
 * The emulated forms: lw, lwu, c.lw, c.lwsp, sw, c.sw, c.swsp.  lw and c.lw
 * sign-extend, lwu zero-extends.  c.lwsp/c.swsp run with sp in the window;
 * a trap then would find no stack, so stvec points at a vector that first
 * puts the real stack back.
 */
uint64_t trace_saved_sp;
extern char trace_sp_vector[];
__asm__(
	".pushsection .text.trace_sp_vector, \"ax\"\n"
	".balign 4\n"
	".globl trace_sp_vector\n"
	"trace_sp_vector:\n"
	"	la	sp, trace_saved_sp\n"
	"	ld	sp, 0(sp)\n"
	"	j	trap_vector\n"
	".popsection\n");

static uint64_t load_lwsp(uintptr_t sp)   /* c.lwsp v, 4(sp) */
{
	uint64_t v;

	__asm__ volatile(".option push\n.option rvc\n"
			 "la t0, trace_saved_sp\n"
			 "sd sp, 0(t0)\n"
			 "mv sp, %1\n"
			 "c.lwsp %0, 4(sp)\n"
			 "la t0, trace_saved_sp\n"
			 "ld sp, 0(t0)\n"
			 ".option pop\n"
			 : "=&r"(v) : "r"(sp) : "t0", "memory");
	return v;
}

static void store_swsp(uintptr_t sp, uint32_t val)   /* c.swsp val, 4(sp) */
{
	__asm__ volatile(".option push\n.option rvc\n"
			 "la t0, trace_saved_sp\n"
			 "sd sp, 0(t0)\n"
			 "mv sp, %0\n"
			 "c.swsp %1, 4(sp)\n"
			 "la t0, trace_saved_sp\n"
			 "ld sp, 0(t0)\n"
			 ".option pop\n"
			 :: "r"(sp), "r"(val) : "t0", "memory");
}

static void emulated_access_forms(void)
{
	register uintptr_t a0 __asm__("a0");
	register uint64_t a1 __asm__("a1");
	unsigned long saved_stvec = csr_read(stvec), sstatus = csr_read(sstatus);
	uint64_t v;
	uintptr_t pm = 0;

	if (!begin())
		return;
	release_encoder();
	pm = E + TE_COMP(0) + COMP_PMATCH_LOW;
	wr(E, TE_COMP(0) + COMP_PMATCH_LOW, 0x87654321u);
	__asm__ volatile("lw %0, 0(%1)" : "=r"(v) : "r"(pm) : "memory");
	CHECK_EQ(v, 0xFFFFFFFF87654321ul, "lw of %#x (sign-extended)", 0x87654321u);
	__asm__ volatile("lwu %0, 0(%1)" : "=r"(v) : "r"(pm) : "memory");
	CHECK_EQ(v, 0x87654321ul, "lwu of %#x (zero-extended)", 0x87654321u);
	a0 = pm;
	__asm__ volatile(".option push\n.option rvc\nc.lw %0, 0(%1)\n.option pop"
			 : "=r"(a1) : "r"(a0) : "memory");
	CHECK_EQ(a1, 0xFFFFFFFF87654321ul, "c.lw of %#x (sign-extended)", 0x87654321u);
	a0 = E + TSBI_CALL_STACK;
	a1 = 17;
	__asm__ volatile(".option push\n.option rvc\nc.sw %1, 0(%0)\n.option pop"
			 :: "r"(a0), "r"(a1) : "memory");
	CHECK_EQ(rd(E, TSBI_CALL_STACK), 17, "tsbiTeCallStack after c.sw 17");
	v = 0x5;
	__asm__ volatile("sw %0, 0(%1)" :: "r"(v), "r"(E + TSBI_CALL_STACK) : "memory");
	CHECK_EQ(rd(E, TSBI_CALL_STACK), 5, "tsbiTeCallStack after sw 5");

	irq_disable();
	csr_write(stvec, (uintptr_t)trace_sp_vector);
	v = load_lwsp(E + TE_IMPL - 4);
	store_swsp(E + TSBI_CALL_STACK - 4, 23);
	csr_write(stvec, saved_stvec);
	if (sstatus & SSTATUS_SIE)
		irq_enable();
	CHECK_EQ(v, TE_IMPL_VALUE, "c.lwsp of trTeImpl");
	CHECK_EQ(rd(E, TSBI_CALL_STACK), 23, "tsbiTeCallStack after c.swsp 23");
	end();
}

/* ==== RAM sink ============================================================ */

/* SRAM: Start fixed at 0; Limit trimmable within the 4 KiB, word-aligned;
 * RP within [0, Limit]; High halves 0. */
static void sram_address_registers(void)
{
	if (!begin())
		return;
	release_sink();
	warl(S, RAM_START_LOW, 0x100, 0, "trRamStartLow (SRAM: fixed 0)");
	warl(S, RAM_START_HIGH, 1, 0, "trRamStartHigh (SRAM)");
	warl(S, RAM_WP_LOW, 0x40, 0x40, "trRamWPLow");
	warl(S, RAM_WP_LOW, 0x42, 0x40, "trRamWPLow (bit 1 reads 0)");
	warl(S, RAM_WP_LOW, 0xFFC, 0xFFC, "trRamWPLow at Limit");
	warl(S, RAM_WP_HIGH, 1, 0, "trRamWPHigh (SRAM)");
	warl(S, RAM_LIMIT_LOW, 0x7F, 0x7C, "trRamLimitLow (word-aligned)");
	warl(S, RAM_LIMIT_LOW, 0xFFFFFFFFu, SRAM_LIMIT, "trRamLimitLow (highest)");
	warl(S, RAM_LIMIT_LOW, 0x2000, SRAM_LIMIT, "trRamLimitLow (beyond the SRAM)");
	warl(S, RAM_LIMIT_HIGH, 0xFFFFFFFFu, 0, "trRamLimitHigh (SRAM)");
	CHECK_EQ(rd(S, RAM_LIMIT_LOW), SRAM_LIMIT, "trRamLimitLow after a LimitHigh write");
	warl(S, RAM_LIMIT_LOW, 0x100, 0x100, "trRamLimitLow (trimmed)");
	warl(S, RAM_RP_LOW, 0x20, 0x20, "trRamRPLow");
	warl(S, RAM_RP_LOW, 0x23, 0x20, "trRamRPLow (word-aligned)");
	warl(S, RAM_RP_LOW, 0x100, 0x100, "trRamRPLow at the trimmed Limit");
	warl(S, RAM_RP_LOW, 0x200, 0x100, "trRamRPLow beyond the trimmed Limit 0x100");
	warl(S, RAM_RP_HIGH, 1, 0, "trRamRPHigh (SRAM)");
	end();
}

/* docs/TRACE.md, SRAM mode: "WP and RP are within [0, Limit]", also when
 * Limit is trimmed. */
static void sram_wp_within_limit(void)
{
	if (!begin())
		return;
	release_sink();
	wr(S, RAM_LIMIT_LOW, 0x100);
	warl(S, RAM_WP_LOW, 0x200, 0x100, "trRamWPLow beyond the trimmed Limit 0x100");
	warl(S, RAM_WP_LOW, 0x104, 0x100, "trRamWPLow one word beyond the trimmed Limit 0x100");
	warl(S, RAM_RP_LOW, 0x104, 0x100, "trRamRPLow one word beyond the trimmed Limit 0x100");
	end();
}

/* trRamControl: Mode RW while disabled, StopOnWrap RW, MemFormat,
 * AsyncFreq and reserved bits 0, Empty RO. */
static void sink_control_fields(void)
{
	uint32_t junk = 1u << 2 | 7u << 5 | 3u << 9 | 1u << 11 | 7u << 12 | 0xFFFF8000u;

	if (!begin())
		return;
	release_sink();
	warl(S, RAM_CONTROL, RAM_ACTIVE | RAM_STOP_ON_WRAP, RAM_ACTIVE | RAM_EMPTY | RAM_STOP_ON_WRAP,
	     "trRamControl StopOnWrap");
	warl(S, RAM_CONTROL, RAM_ACTIVE | RAM_MODE_SMEM, RAM_ACTIVE | RAM_EMPTY | RAM_MODE_SMEM,
	     "trRamControl Mode = SMEM");
	warl(S, RAM_CONTROL, RAM_ACTIVE, RAM_ACTIVE | RAM_EMPTY, "trRamControl Mode = SRAM");
	warl(S, RAM_CONTROL, RAM_ACTIVE | junk, RAM_ACTIVE | RAM_EMPTY,
	     "trRamControl MemFormat/AsyncFreq/reserved");
	/* Enabled (SMEM over tbuf): Mode no longer changes. */
	buf_prepare(64);
	if (smem_setup(64, false)) {
		warl(S, RAM_CONTROL, RAM_ACTIVE | RAM_ENABLE, RAM_ACTIVE | RAM_EMPTY | RAM_ENABLE |
		     RAM_MODE_SMEM, "trRamControl Mode written 0 while enabled");
		wr(S, RAM_CONTROL, RAM_ACTIVE | RAM_MODE_SMEM);
		CHECK_EQ(rd(S, RAM_CONTROL), RAM_ACTIVE | RAM_EMPTY | RAM_MODE_SMEM,
			 "trRamControl after disabling");
	}
	/* SMEM: RP and Data not implemented. */
	warl(S, RAM_RP_LOW, (uint32_t)buf_start(), 0, "trRamRPLow (SMEM: not implemented)");
	CHECK_EQ(rd(S, RAM_DATA), 0, "trRamData (SMEM: not implemented)");
	CHECK_EQ(rd(S, RAM_WP_LOW), (uint32_t)buf_start(), "trRamWPLow after the Data read");
	guards_intact(64, "after enabling and disabling");
	end();
}

/* An address register's value: trRamWPLow bit 0 is trRamWrap, which a
 * write with bit 0 set may set (WARL); the address is the rest. */
static bool addr_reads(uint32_t off, uint32_t val, uint32_t want, const char *name)
{
	uint32_t got;

	wr(S, off, val);
	got = rd(S, off);
	if (off == RAM_WP_LOW)
		got &= ~RAM_WRAP;
	return CHECK_EQ(got, want, "trRam%s (+%#x) after writing %#x", name, off, val);
}

/* SMEM: Start, Limit and WP are clamped to S-mode RAM, word-aligned:
 * writing 0 reads the lowest S-mode word (right after the firmware region
 * of /reserved-memory), all-ones the highest (end of RAM - 4); no value of
 * either half reaches firmware memory or past the end of RAM. */
static void smem_bounds_clamped(void)
{
	static const uint32_t lows[] = { RAM_START_LOW, RAM_LIMIT_LOW, RAM_WP_LOW };
	static const char *const names[] = { "Start", "Limit", "WP" };
	uint32_t lo = (uint32_t)fw_end(), hi = (uint32_t)(ram_end() - 4);
	size_t i;

	if (!begin())
		return;
	if (!CHECK(ram_end() <= 0x100000000ull, "RAM ends above 4 GiB: the test expects it below"))
		return;
	/* (the firmware's bound is the highest RAM word: above 4 GiB, as on
	 * the PolarFire SoC, a low half alone is never clamped to it) */
	if (plat.ram_top > 0x100000000ull) {
		test_not_applicable("RAM continues above 4 GiB (to %lx)", (unsigned long)plat.ram_top);
		return;
	}
	release_sink();
	wr(S, RAM_CONTROL, RAM_ACTIVE | RAM_MODE_SMEM);
	for (i = 0; i < 3; i++) {
		uint32_t off = lows[i];

		wr(S, off + 4, 0);
		addr_reads(off, 0, lo, names[i]);
		CHECK_EQ(rd(S, off + 4), 0, "trRam%sHigh after writing 0 to Low", names[i]);
		addr_reads(off, 0xFFFFFFFFu, hi, names[i]);
		CHECK_EQ(rd(S, off + 4), 0, "trRam%sHigh after writing all-ones to Low", names[i]);
		warl(S, off + 4, 0xFFFFFFFFu, 0, names[i]);
		CHECK_EQ(rd(S, off) & ~(off == RAM_WP_LOW ? RAM_WRAP : 0), hi,
			 "trRam%sLow after writing all-ones to High", names[i]);
		warl(S, off + 4, 1, 0, names[i]);
		CHECK_EQ(rd(S, off) & ~(off == RAM_WP_LOW ? RAM_WRAP : 0), hi,
			 "trRam%sLow after writing 1 to High", names[i]);
		warl(S, off + 4, 0, 0, names[i]);
		/* Firmware memory: the lowest S-mode word instead. */
		addr_reads(off, (uint32_t)fw_base(), lo, names[i]);
		addr_reads(off, (uint32_t)fw_end() - 4, lo, names[i]);
		addr_reads(off, (uint32_t)fw_base() + 0x1000, lo, names[i]);
		/* Past the end of RAM: the highest word. */
		addr_reads(off, (uint32_t)ram_end(), hi, names[i]);
		/* Inside: word-aligned. */
		addr_reads(off, (uint32_t)buf_start() + 2, (uint32_t)buf_start(), names[i]);
	}
	end();
}

/* Enabling checks the buffer: Start <= WP <= Limit, or Enable stays 0;
 * enabling never changes Start/Limit/WP, and they ignore writes while the
 * sink is enabled. */
static void smem_enable_rules(void)
{
	uint32_t b = (uint32_t)buf_start(), mode = RAM_ACTIVE | RAM_MODE_SMEM;
	static const struct { uint32_t start, limit, wp; const char *what; } bad[] = {
		{ 0, 0x3C, 0x40, "WP above Limit" },
		{ 0x10, 0x3C, 0x0C, "WP below Start" },
		{ 0x40, 0x3C, 0x40, "Start above Limit" },
	};
	size_t i;

	if (!begin())
		return;
	buf_prepare(0x80);
	release_sink();
	wr(S, RAM_CONTROL, mode);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		wr(S, RAM_START_LOW, b + bad[i].start);
		wr(S, RAM_LIMIT_LOW, b + bad[i].limit);
		wr(S, RAM_WP_LOW, b + bad[i].wp);
		wr(S, RAM_CONTROL, mode | RAM_ENABLE);
		CHECK_EQ(rd(S, RAM_CONTROL), mode | RAM_EMPTY, "trRamControl after enabling, %s",
			 bad[i].what);
		CHECK_EQ(rd(S, RAM_START_LOW), b + bad[i].start, "Start after a refused enable (%s)",
			 bad[i].what);
		CHECK_EQ(rd(S, RAM_LIMIT_LOW), b + bad[i].limit, "Limit after a refused enable (%s)",
			 bad[i].what);
		CHECK_EQ(rd(S, RAM_WP_LOW), b + bad[i].wp, "WP after a refused enable (%s)",
			 bad[i].what);
	}
	/* Valid (WP in the middle): enabled, nothing changed. */
	wr(S, RAM_START_LOW, b);
	wr(S, RAM_LIMIT_LOW, b + 0x7C);
	wr(S, RAM_WP_LOW, b + 0x20);
	wr(S, RAM_CONTROL, mode | RAM_ENABLE);
	CHECK_EQ(rd(S, RAM_CONTROL), mode | RAM_ENABLE | RAM_EMPTY, "trRamControl, valid buffer");
	CHECK_EQ(rd(S, RAM_START_LOW), b, "Start after enabling");
	CHECK_EQ(rd(S, RAM_LIMIT_LOW), b + 0x7C, "Limit after enabling");
	CHECK_EQ(rd(S, RAM_WP_LOW), b + 0x20, "WP after enabling");
	/* Enabled: Start, Limit, WP (both halves) ignore writes. */
	wr(S, RAM_START_LOW, b + 0x10);
	wr(S, RAM_START_HIGH, 1);
	wr(S, RAM_LIMIT_LOW, b + 0x40);
	wr(S, RAM_LIMIT_HIGH, 1);
	wr(S, RAM_WP_LOW, b + 0x30);
	wr(S, RAM_WP_HIGH, 1);
	CHECK_EQ(rd(S, RAM_START_LOW), b, "Start written while enabled");
	CHECK_EQ(rd(S, RAM_LIMIT_LOW), b + 0x7C, "Limit written while enabled");
	CHECK_EQ(rd(S, RAM_WP_LOW), b + 0x20, "WP written while enabled");
	CHECK_EQ(rd(S, RAM_START_HIGH) | rd(S, RAM_LIMIT_HIGH) | rd(S, RAM_WP_HIGH), 0,
		 "High halves written while enabled");
	/* Disabling with nothing stored changes nothing. */
	wr(S, RAM_CONTROL, mode);
	CHECK_EQ(rd(S, RAM_CONTROL), mode | RAM_EMPTY, "trRamControl after disabling");
	CHECK_EQ(rd(S, RAM_WP_LOW), b + 0x20, "WP after disabling an empty sink");
	guards_intact(0x80, "after the enable attempts");
	for (i = 0; i < 0x80; i++)
		if (!CHECK_EQ(buf_bytes()[i], FILL, "buffer byte %zu (nothing was traced)", i))
			break;
	end();
}

/* No buffer in firmware memory can be set up: addresses there read back
 * as the first S-mode word, a buffer ending in the firmware region is
 * refused (Start > Limit), and the firmware still answers. */
static void firmware_memory_unreachable(void)
{
	uint32_t mode = RAM_ACTIVE | RAM_MODE_SMEM, lo = (uint32_t)fw_end();
	struct sbiret r;

	if (!begin())
		return;
	release_sink();
	wr(S, RAM_CONTROL, mode);
	/* [fw_base, fw_base + 4 KiB): every address clamps to fw_end. */
	wr(S, RAM_START_LOW, (uint32_t)fw_base());
	wr(S, RAM_LIMIT_LOW, (uint32_t)fw_base() + 0xFFC);
	wr(S, RAM_WP_LOW, (uint32_t)fw_base());
	CHECK_EQ(rd(S, RAM_START_LOW), lo, "Start written with the firmware's base");
	CHECK_EQ(rd(S, RAM_LIMIT_LOW), lo, "Limit written inside the firmware");
	CHECK_EQ(rd(S, RAM_WP_LOW), lo, "WP written with the firmware's base");
	/* A buffer from the top of RAM "down to" the firmware: Start > Limit. */
	wr(S, RAM_START_LOW, (uint32_t)(ram_end() - 0x1000));
	wr(S, RAM_LIMIT_LOW, (uint32_t)fw_base() + 0x100);
	wr(S, RAM_WP_LOW, (uint32_t)(ram_end() - 0x1000));
	wr(S, RAM_CONTROL, mode | RAM_ENABLE);
	CHECK_EQ(rd(S, RAM_CONTROL) & RAM_ENABLE, 0, "Enable for Start %#x, Limit (firmware) %#x",
		 rd(S, RAM_START_LOW), rd(S, RAM_LIMIT_LOW));
	/* The encoder cannot put anything anywhere now: it would overflow. */
	release_encoder();
	traced_loop(MODE_BTM, 3);
	CHECK(rd(E, TE_CONTROL) & TE_OVERFLOW, "trTeInstStallOrOverflow after tracing into a "
	      "refused sink: %#x", rd(E, TE_CONTROL));
	CHECK_EQ(rd(S, RAM_WP_LOW), (uint32_t)(ram_end() - 0x1000), "WP of the refused sink");
	end();
	r = sbi_probe(SBI_EXT_BASE);
	CHECK(!r.error && r.value, "the firmware answers probe(BASE) after the attempts: %ld/%ld",
	      r.error, r.value);
	r = SBI0(SBI_EXT_BASE, SBI_BASE_GET_IMPL_ID);
	CHECK_EQ(r.value, EXPECTED_IMPL_ID, "impl id after the attempts");
}

/* ==== Tracing into the sink =============================================== */

/* The boot hart's encoder released and enabled in `mode`, not tracing
 * yet, over a 256-byte SMEM buffer; false (components reset) on failure. */
static bool loop_session(uint32_t mode)
{
	if (!begin())
		return false;
	buf_prepare(256);
	if (!smem_setup(256, false)) {
		end();
		return false;
	}
	release_encoder();
	wr(E, TE_CONTROL, TE_ACTIVE | TE_ENABLE | TE_MODE(mode));
	return true;
}

/*
 * Timestamps switched on by S-mode while the stepper has a chain of
 * predicted jumps in flight: every instruction is still reported once.
 * (The held run kept as its bounds was sent again when the event that
 * ended the chain carried a timestamp.)
 */
static void ts_on_mid_chain(void)
{
	uint32_t on = TE_ACTIVE | TE_ENABLE | TE_INST_TRACING | TE_MODE(MODE_HTM);
	unsigned long sstatus = csr_read(sstatus);

	if (!loop_session(MODE_HTM))
		return;
	irq_disable();
	trace_chain_ts(reg(E, TE_CONTROL), on, on & ~TE_INST_TRACING, reg(E, TS_CONTROL),
		       TS_ACTIVE | TS_COUNT | TS_MODE(2) | TS_ENABLE);
	if (sstatus & SSTATUS_SIE)
		irq_enable();
	CHECK_EQ(rd(E, TS_CONTROL) & (TS_ACTIVE | TS_ENABLE), TS_ACTIVE | TS_ENABLE,
		 "trTsControl switched on while tracing");
	CHECK_EQ(rd(E, TSBI_INSNS_LOW), 10, "tsbiTeInsnsLow: the 10 instructions, each once");
	end();
}

/*
 * Code rewritten while the hart is traced, then fence.i: the stepper must
 * decode it again (its block cache is flushed), or it follows the old code
 * and loses the hart.  The first version is `addi t0, t0, 1; ret` (its
 * block ends at the ret), the second `j +8; addi t0, t0, 1; addi t0, t0,
 * 5; ret` (its block ends at the j, at the same address as before).
 */
static void smc_after_fence_i(void)
{
	static uint32_t code[4] __attribute__((aligned(8)));
	static const uint32_t first[4] = { 0x00128293, 0x00008067, 0x00008067, 0x00008067 };
	static const uint32_t second[4] __attribute__((aligned(8))) = {
		0x0080006f, 0x00128293, 0x00528293, 0x00008067 };
	uint32_t on = TE_ACTIVE | TE_ENABLE | TE_INST_TRACING | TE_MODE(MODE_HTM);
	unsigned long sstatus = csr_read(sstatus);
	long got;
	int i;

	for (i = 0; i < 4; i++)
		((volatile uint32_t *)code)[i] = first[i];
	__asm__ volatile("fence.i" ::: "memory");
	if (!loop_session(MODE_HTM))
		return;
	irq_disable();
	got = trace_smc(reg(E, TE_CONTROL), on, on & ~TE_INST_TRACING, code, second);
	if (sstatus & SSTATUS_SIE)
		irq_enable();
	CHECK_EQ(got, 6, "what the code computed (1, then 5)");
	CHECK_EQ(rd(E, TSBI_STATUS) & ST_LOST_TRACK, 0, "tsbiTeStatus: the stepper kept track");
	CHECK_EQ(rd(E, TSBI_INSNS_LOW), 9 + 2 + 3,
		 "tsbiTeInsnsLow: 9 around the calls, 2 of the first code, 3 of the second");
	end();
}

/*
 * Code remapped while the hart is traced, then an sfence.vma of its
 * address (the hart's own, or an SBI remote fence to itself): the stepper
 * must decode it again, as after smc_after_fence_i's fence.i.  The block
 * cache outlives an sfence.vma of one address only when the leaf that maps
 * the address maps none of its code (docs/TRACE.md, "The block cache");
 * here it maps the code itself.  Sv39: the low 4 GiB identity (gigapages),
 * the page at 4 GiB the code's, first smc_after_fence_i's first version,
 * then its second.
 */
static uint64_t remap_root[512] __attribute__((aligned(4096)));
static uint64_t remap_l1[512] __attribute__((aligned(4096)));
static uint64_t remap_l0[512] __attribute__((aligned(4096)));
static uint32_t remap_code[2][1024] __attribute__((aligned(4096)));

#define REMAP_VA 0x100000000ul

static uint64_t remap_pte(const void *pa, uint64_t perm)
{
	return (uint64_t)(uintptr_t)pa >> 12 << 10 | perm | PTE_V;
}

static void remap_after_sfence_one(long hart, const char *how)
{
	static const uint32_t first[4] = { 0x00128293, 0x00008067, 0x00008067, 0x00008067 };
	static const uint32_t second[4] = { 0x0080006f, 0x00128293, 0x00528293, 0x00008067 };
	const uint64_t x = PTE_R | PTE_X | PTE_A | PTE_D;
	uint32_t on = TE_ACTIVE | TE_ENABLE | TE_INST_TRACING | TE_MODE(MODE_HTM);
	unsigned long sstatus = csr_read(sstatus), gib;
	long got;
	int i;

	for (i = 0; i < 4; i++) {
		remap_code[0][i] = first[i];
		remap_code[1][i] = second[i];
	}
	for (gib = 0; gib < 4; gib++)
		remap_root[gib] = (gib << 30) >> 12 << 10 | PTE_V | PTE_R | PTE_W | PTE_X | PTE_A |
				  PTE_D;
	remap_root[4] = remap_pte(remap_l1, 0);
	remap_l1[0] = remap_pte(remap_l0, 0);
	remap_l0[0] = remap_pte(remap_code[0], x);
	__asm__ volatile("fence.i" ::: "memory");
	if (!loop_session(MODE_HTM))
		return;
	irq_disable();
	__asm__ volatile("sfence.vma" ::: "memory");
	csr_write(satp, SATP_MODE_SV39 | (uintptr_t)remap_root >> 12);
	__asm__ volatile("sfence.vma" ::: "memory");
	got = trace_remap(reg(E, TE_CONTROL), on, on & ~TE_INST_TRACING, REMAP_VA, &remap_l0[0],
			  remap_pte(remap_code[1], x), hart);
	csr_write(satp, 0);
	__asm__ volatile("sfence.vma" ::: "memory");
	if (sstatus & SSTATUS_SIE)
		irq_enable();
	CHECK_EQ(got, 6, "%s: what the code computed (1, then 5)", how);
	CHECK_EQ(rd(E, TSBI_STATUS) & ST_LOST_TRACK, 0, "%s: tsbiTeStatus: the stepper kept track",
		 how);
	CHECK_EQ(rd(E, TSBI_INSNS_LOW), (hart < 0 ? 8 : 14) + 2 + 3,
		 "%s: tsbiTeInsnsLow: %d around the calls, 2 of the first code, 3 of the second",
		 how, hart < 0 ? 8 : 14);
	end();
}

static void remap_after_sfence(void)
{
	remap_after_sfence_one(-1, "sfence.vma of the address");
	remap_after_sfence_one((long)plat.boot_hart, "SBI remote_sfence_vma of the page");
}

/* A traced loop (HTM) into an SMEM buffer: exactly ProgTraceSync (SYNC 5,
 * F-ADDR = the first traced instruction) and ProgTraceCorrelation (EVCODE
 * 4, I-CNT and HIST of the loop), idle bytes to the word; WP after them,
 * nothing after WP; Empty after Enable = 0; the instruction count. */
static void smem_trace_exact(void)
{
	const unsigned long k = 10;
	struct stream want = { .n = 0 };
	uintptr_t first;
	uint32_t ctl;
	size_t i;

	if (!loop_session(MODE_HTM))
		return;
	CHECK_EQ(rd(E, TE_CONTROL), TE_RELEASED | TE_ENABLE, "trTeControl enabled, not tracing");
	first = traced_loop(MODE_HTM, k);
	CHECK_EQ(rd(E, TSBI_INSNS_LOW), 2 * k + 2, "tsbiTeInsnsLow after the loop");
	CHECK_EQ(rd(E, TSBI_INSNS_HIGH), 0, "tsbiTeInsnsHigh after the loop");
	CHECK(rd(E, TSBI_BLOCKS_LOW) >= 1 && rd(E, TSBI_BLOCKS_LOW) <= 2 * k + 2,
	      "tsbiTeBlocksLow %u after the loop", rd(E, TSBI_BLOCKS_LOW));
	wr(E, TE_CONTROL, TE_ACTIVE | TE_MODE(MODE_HTM));
	ctl = rd(E, TE_CONTROL);
	CHECK_EQ(ctl, TE_RELEASED, "trTeControl after Enable = 0 (Empty 1)");
	wr(S, RAM_CONTROL, RAM_ACTIVE | RAM_MODE_SMEM);
	CHECK_EQ(rd(S, RAM_CONTROL), RAM_ACTIVE | RAM_MODE_SMEM | RAM_EMPTY,
		 "trRamControl after disabling");

	expected_loop(&want, MODE_HTM, k, first);
	pad_to_word(&want);
	CHECK_EQ(rd(S, RAM_WP_LOW), buf_start() + want.n, "trRamWPLow after the trace");
	CHECK_EQ(rd(S, RAM_WP_HIGH), 0, "trRamWPHigh after the trace");
	bytes_equal(buf_bytes(), &want, want.n, "trace of the loop");
	for (i = want.n; i < 256; i++)
		if (!CHECK_EQ(buf_bytes()[i], FILL, "buffer byte %zu past WP", i))
			break;
	guards_intact(256, "after the trace");
	end();
}

/* The same loop in BTM: one DirectBranch per taken branch. */
static void smem_trace_btm_exact(void)
{
	const unsigned long k = 12;
	struct stream want = { .n = 0 };
	uintptr_t first;
	size_t i;

	if (!loop_session(MODE_BTM))
		return;
	first = traced_loop(MODE_BTM, k);
	wr(E, TE_CONTROL, TE_ACTIVE | TE_MODE(MODE_BTM));
	wr(S, RAM_CONTROL, RAM_ACTIVE | RAM_MODE_SMEM);
	expected_loop(&want, MODE_BTM, k, first);
	pad_to_word(&want);
	CHECK_EQ(rd(S, RAM_WP_LOW), buf_start() + want.n, "trRamWPLow after the trace");
	bytes_equal(buf_bytes(), &want, want.n, "BTM trace of the loop");
	for (i = want.n; i < 256; i++)
		if (!CHECK_EQ(buf_bytes()[i], FILL, "buffer byte %zu past WP", i))
			break;
	guards_intact(256, "after the trace");
	end();
}

/* ---- N-Trace and emulated CTR on one hart (docs/CTR.md, "Recording") ---- */

/* Logical CTR entry i (0 = newest): source (V in bit 0), target, data. */
static void ctr_entry(unsigned long i, unsigned long *src, unsigned long *tgt, unsigned long *data)
{
	__asm__ __volatile__("csrw 0x150, %0" :: "r"(0x200 + i) : "memory");
	__asm__ __volatile__("csrr %0, 0x151" : "=r"(*src) :: "memory");
	__asm__ __volatile__("csrr %0, 0x152" : "=r"(*tgt) :: "memory");
	__asm__ __volatile__("csrr %0, 0x153" : "=r"(*data) :: "memory");
}

/*
 * The BTM loop of smem_trace_btm_exact with CTR recording S-mode around
 * it: both consumers of the stepper are fed.  The trace is the same bytes
 * as without CTR, and CTR holds the loop's k - 1 taken branches (bnez at
 * first + 8 back to first + 4, 2 instructions each; 6 for the first since
 * the call into trace_loop: la (2), the enabling sw, mv, addi, bnez), then
 * the return at first + 20.
 */
static void btm_exact_with_ctr_recording(void)
{
	const unsigned long k = 12;
	struct stream want = { .n = 0 };
	unsigned long src, tgt, data, i, n = 0;
	uintptr_t first;

	if (!loop_session(MODE_BTM))
		return;
	__asm__ __volatile__("csrw 0x15F, %0" :: "r"(2UL) : "memory");
	__asm__ __volatile__("csrw 0x14F, x0\n.word 0x10400073\ncsrw 0x14E, %0"
			     :: "r"(2UL) : "memory");   /* WRPTR 0, SCTRCLR, S on */
	first = traced_loop(MODE_BTM, k);
	__asm__ __volatile__("csrw 0x14E, x0" ::: "memory");
	wr(E, TE_CONTROL, TE_ACTIVE | TE_MODE(MODE_BTM));
	wr(S, RAM_CONTROL, RAM_ACTIVE | RAM_MODE_SMEM);
	expected_loop(&want, MODE_BTM, k, first);
	pad_to_word(&want);
	bytes_equal(buf_bytes(), &want, want.n, "BTM trace of the loop, CTR recording");
	/* The newest entry that is the loop's return; the branches before. */
	for (i = 0; i < 64; i++) {
		ctr_entry(i, &src, &tgt, &data);
		if (src == ((first + 20) | 1) && (data & 0xF) == 13)
			break;
	}
	if (!CHECK(i < 64, "no CTR record of trace_loop's return (at %#lx)",
		   (unsigned long)first + 20))
		goto out;
	for (n = 0; n + 1 < k; n++) {
		ctr_entry(i + 1 + n, &src, &tgt, &data);
		if (!CHECK(src == ((first + 8) | 1) && tgt == first + 4 && (data & 0xF) == 5 &&
			   (data >> 16) == (n + 2 < k ? 2UL : 6UL),
			   "CTR entry %lu: %#lx -> %#lx type %lu CC %lu, expected the loop's taken "
			   "branch %#lx -> %#lx type 5 CC %lu", i + 1 + n, src, tgt, data & 0xF,
			   data >> 16, (unsigned long)first + 8, (unsigned long)first + 4,
			   n + 2 < k ? 2UL : 6UL))
			break;
	}
out:
	__asm__ __volatile__("csrw 0x14E, x0" ::: "memory");
	end();
}

/* Instruction tracing needs Active, Enable, InstTracing and a mode: with
 * one of them missing the loop leaves no byte; with all of them it does,
 * and afterwards nothing more is written. */
static void bytes_only_while_tracing(void)
{
	static const struct { uint32_t ctl; const char *what; } off[] = {
		{ TE_ACTIVE | TE_ENABLE | TE_MODE(MODE_HTM), "InstTracing = 0" },
		{ TE_ACTIVE | TE_INST_TRACING | TE_MODE(MODE_HTM), "Enable = 0" },
		{ TE_ACTIVE | TE_ENABLE | TE_INST_TRACING | TE_MODE(MODE_OFF), "InstMode = 0" },
	};
	unsigned long sstatus = csr_read(sstatus);
	uint32_t b = (uint32_t)buf_start(), wp;
	size_t i;

	if (!begin())
		return;
	buf_prepare(256);
	if (!smem_setup(256, false))
		goto out;
	release_encoder();
	for (i = 0; i < sizeof(off) / sizeof(off[0]); i++) {
		irq_disable();
		trace_loop(reg(E, TE_CONTROL), off[i].ctl, off[i].ctl, 20);
		if (sstatus & SSTATUS_SIE)
			irq_enable();
		CHECK_EQ(rd(E, TSBI_STATUS) & ST_STEPPING, 0, "tsbiTeStatus stepping with %s",
			 off[i].what);
		wr(E, TE_CONTROL, TE_ACTIVE);
		CHECK_EQ(rd(S, RAM_CONTROL), RAM_ACTIVE | RAM_MODE_SMEM | RAM_ENABLE | RAM_EMPTY,
			 "trRamControl after a loop with %s", off[i].what);
		CHECK_EQ(rd(S, RAM_WP_LOW), b, "trRamWPLow after a loop with %s", off[i].what);
	}
	traced_loop(MODE_HTM, 5);
	wr(E, TE_CONTROL, TE_ACTIVE | TE_ENABLE | TE_MODE(MODE_HTM));
	CHECK_EQ(rd(E, TE_CONTROL), TE_RELEASED | TE_ENABLE,
		 "trTeControl after tracing stopped (InstTracing = 0)");
	wp = rd(S, RAM_WP_LOW);
	CHECK(wp > b, "trRamWPLow %#x after a traced loop (start %#x)", wp, b);
	/* Enabled but not tracing: the same loop again adds nothing. */
	irq_disable();
	trace_loop(reg(E, TE_CONTROL), TE_ACTIVE | TE_ENABLE | TE_MODE(MODE_HTM),
		   TE_ACTIVE | TE_ENABLE | TE_MODE(MODE_HTM), 20);
	if (sstatus & SSTATUS_SIE)
		irq_enable();
	CHECK_EQ(rd(S, RAM_WP_LOW), wp, "trRamWPLow after an untraced loop");
	wr(E, TE_CONTROL, TE_ACTIVE);
	wr(S, RAM_CONTROL, RAM_ACTIVE | RAM_MODE_SMEM);
	CHECK(buf_bytes()[0] == (TCODE_SYNC << 2), "first byte %#x: not a ProgTraceSync start",
	      buf_bytes()[0]);
	guards_intact(256, "after the loops");
out:
	end();
}

/* Stop on wrap: the sink keeps whole messages, fills the rest of the
 * buffer with idle bytes, sets WP = Start and Wrap, clears its Enable; the
 * encoder reports the overflow, cleared by writing 1 (writing 0 keeps it)
 * and by setting Enable. */
static void stop_on_wrap(void)
{
	const unsigned long k = 20;
	const size_t size = 32;
	struct stream want = { .n = 0 };
	uint32_t b = (uint32_t)buf_start(), ctl;
	uintptr_t first;
	size_t keep = 0, pos = 0;
	struct msg m;

	if (!begin())
		return;
	buf_prepare(size);
	if (!smem_setup(size, true))
		goto out;
	release_encoder();
	wr(E, TE_CONTROL, TE_ACTIVE | TE_ENABLE | TE_MODE(MODE_BTM));
	first = traced_loop(MODE_BTM, k);
	/* The whole trace (8 + 2 * 19 + 3 bytes) does not fit in 32. */
	expected_loop(&want, MODE_BTM, k, first);
	while (next_msg(want.b, want.n, &pos, &m) && pos <= size)
		keep = pos;
	memset(want.b + keep, IDLE, size - keep);
	CHECK_EQ(rd(S, RAM_CONTROL), RAM_ACTIVE | RAM_MODE_SMEM | RAM_STOP_ON_WRAP | RAM_EMPTY,
		 "trRamControl after the buffer filled (Enable cleared by the sink)");
	CHECK_EQ(rd(S, RAM_WP_LOW), b | RAM_WRAP, "trRamWPLow after stop on wrap (Start, Wrap)");
	bytes_equal(buf_bytes(), &want, size, "buffer after stop on wrap");
	guards_intact(size, "after stop on wrap");
	ctl = rd(E, TE_CONTROL);
	CHECK_EQ(ctl, TE_ACTIVE | TE_ENABLE | TE_EMPTY | TE_MODE(MODE_BTM) | TE_FORMAT(1) | TE_OVERFLOW,
		 "trTeControl after the overflow");
	/* RW1C: writing 0 keeps it, writing 1 clears it. */
	wr(E, TE_CONTROL, TE_ACTIVE | TE_ENABLE | TE_MODE(MODE_BTM));
	CHECK(rd(E, TE_CONTROL) & TE_OVERFLOW, "trTeInstStallOrOverflow cleared by writing 0");
	wr(E, TE_CONTROL, TE_ACTIVE | TE_ENABLE | TE_MODE(MODE_BTM) | TE_OVERFLOW);
	CHECK_EQ(rd(E, TE_CONTROL) & TE_OVERFLOW, 0, "trTeInstStallOrOverflow after writing 1");

	/* Again, and cleared by Enable 0 -> 1 this time. */
	buf_prepare(size);
	if (!smem_setup(size, true))
		goto out;
	traced_loop(MODE_BTM, k);
	CHECK(rd(E, TE_CONTROL) & TE_OVERFLOW, "trTeInstStallOrOverflow after the second overflow");
	wr(E, TE_CONTROL, TE_ACTIVE | TE_MODE(MODE_BTM));
	CHECK(rd(E, TE_CONTROL) & TE_OVERFLOW, "trTeInstStallOrOverflow cleared by Enable = 0");
	wr(E, TE_CONTROL, TE_ACTIVE | TE_ENABLE | TE_MODE(MODE_BTM));
	CHECK_EQ(rd(E, TE_CONTROL) & TE_OVERFLOW, 0, "trTeInstStallOrOverflow after setting Enable");
	guards_intact(size, "after the second stop on wrap");
out:
	end();
}

/* Stop on wrap in the middle of a trace: the hart is no longer stepped
 * (tsbiTeStatus bit 2) until the sink is enabled again; then the trace
 * goes on with Error (ETYPE 0, ECODE "program trace lost") and
 * ProgTraceSync SYNC 7 at the instruction after the enabling store. */
static void stop_on_wrap_resume(void)
{
	const unsigned long k = 700;   /* BTM: ~1400 bytes, more than the encoder holds */
	const size_t size = 32;
	struct stream want = { .n = 0 };
	uint32_t b = (uint32_t)buf_start(), st;
	unsigned long sstatus = csr_read(sstatus);
	uintptr_t first, resume;
	size_t keep = 0, pos = 0;
	struct msg m;

	if (!begin())
		return;
	buf_prepare(size);
	if (!smem_setup(size, true))
		goto out;
	release_encoder();
	wr(E, TE_CONTROL, TE_ACTIVE | TE_ENABLE | TE_MODE(MODE_BTM));
	irq_disable();
	/* The loop ends with InstTracing still 1: on = off. */
	first = trace_loop(reg(E, TE_CONTROL), TE_ACTIVE | TE_ENABLE | TE_INST_TRACING |
			   TE_MODE(MODE_BTM), TE_ACTIVE | TE_ENABLE | TE_INST_TRACING |
			   TE_MODE(MODE_BTM), k);
	if (sstatus & SSTATUS_SIE)
		irq_enable();
	st = rd(E, TSBI_STATUS);
	CHECK_EQ(st & (ST_STEPPING | ST_PAUSED), ST_PAUSED,
		 "tsbiTeStatus stepping/paused bits after the sink stopped (status %#x)", st);
	CHECK(rd(E, TE_CONTROL) & TE_OVERFLOW, "trTeInstStallOrOverflow after the sink stopped");
	CHECK_EQ(rd(S, RAM_CONTROL) & RAM_ENABLE, 0, "trRamEnable after the sink stopped");
	CHECK_EQ(rd(S, RAM_WP_LOW), b | RAM_WRAP, "trRamWPLow after the sink stopped");
	/* The buffer holds the start of the trace, whole messages. */
	put_sync(&want, SYNC_TRACE_ENABLE, 0, first);
	put_direct_branch(&want, 6);
	while (want.n < size + 8)
		put_direct_branch(&want, 4);
	while (next_msg(want.b, want.n, &pos, &m) && pos <= size)
		keep = pos;
	memset(want.b + keep, IDLE, size - keep);
	bytes_equal(buf_bytes(), &want, size, "buffer after stop on wrap");
	guards_intact(size, "after stop on wrap");

	/* Re-enable; the next instruction (the encoder's stop) is traced. */
	buf_prepare(size);
	wr(S, RAM_WP_LOW, b);
	CHECK_EQ(rd(S, RAM_WP_LOW), b, "trRamWPLow after writing Start (Wrap cleared)");
	irq_disable();
	resume = resume_then_stop(reg(S, RAM_CONTROL), RAM_ACTIVE | RAM_MODE_SMEM | RAM_ENABLE |
				  RAM_STOP_ON_WRAP, reg(E, TE_CONTROL),
				  TE_ACTIVE | TE_MODE(MODE_BTM) | TE_OVERFLOW);
	if (sstatus & SSTATUS_SIE)
		irq_enable();
	CHECK_EQ(rd(E, TE_CONTROL), TE_ACTIVE | TE_EMPTY | TE_MODE(MODE_BTM) | TE_FORMAT(1),
		 "trTeControl after the stop");
	CHECK_EQ(rd(E, TSBI_STATUS) & (ST_STEPPING | ST_PAUSED), 0, "tsbiTeStatus after the stop");
	wr(S, RAM_CONTROL, RAM_ACTIVE | RAM_MODE_SMEM | RAM_STOP_ON_WRAP);
	want.n = 0;
	put_error(&want, 0, ECODE_PROGRAM_LOST);
	put_sync(&want, SYNC_OVERRUN, 0, resume);
	put_correlation(&want, EVCODE_DISABLED, 0, 2, 0);
	pad_to_word(&want);
	CHECK_EQ(rd(S, RAM_WP_LOW), b + want.n, "trRamWPLow after the resumed trace");
	bytes_equal(buf_bytes(), &want, want.n, "trace after the sink was enabled again");
	guards_intact(size, "after the resumed trace");
out:
	end();
}

/* Without stop on wrap the sink goes round: Wrap = 1, WP = Start + (bytes
 * mod size), the buffer holds the last `size` bytes of the stream; Wrap is
 * cleared only by writing trRamWPLow. */
static void wrap_around(void)
{
	const unsigned long k = 20;
	const size_t size = 16;
	struct stream want = { .n = 0 };
	uint32_t b = (uint32_t)buf_start(), mode = RAM_ACTIVE | RAM_MODE_SMEM;
	uintptr_t first;
	struct stream image = { .n = size };
	size_t i, raw;

	if (!begin())
		return;
	buf_prepare(size);
	if (!smem_setup(size, false))
		goto out;
	release_encoder();
	wr(E, TE_CONTROL, TE_ACTIVE | TE_ENABLE | TE_MODE(MODE_BTM));
	first = traced_loop(MODE_BTM, k);
	expected_loop(&want, MODE_BTM, k, first);
	raw = want.n;
	/* Stopped, sink still enabled: the bytes of the last partial word wait. */
	CHECK_EQ(rd(S, RAM_CONTROL), mode | RAM_ENABLE | (raw % 4 ? 0 : RAM_EMPTY),
		 "trRamControl before disabling (%zu bytes stored)", raw);
	CHECK_EQ(rd(S, RAM_WP_LOW), (b + (raw % size)) / 4 * 4 | RAM_WRAP,
		 "trRamWPLow before disabling (last whole word, Wrap)");
	wr(S, RAM_CONTROL, mode);
	pad_to_word(&want);
	CHECK_EQ(rd(S, RAM_CONTROL), mode | RAM_EMPTY, "trRamControl after disabling");
	CHECK_EQ(rd(S, RAM_WP_LOW), (b + want.n % size) | RAM_WRAP, "trRamWPLow after disabling");
	for (i = 0; i < want.n; i++)
		image.b[i % size] = want.b[i];
	bytes_equal(buf_bytes(), &image, size, "wrapped buffer");
	guards_intact(size, "after wrapping");
	/* Wrap survives writes of everything but trRamWPLow. */
	wr(S, RAM_WP_HIGH, 0);
	wr(S, RAM_START_LOW, b);
	wr(S, RAM_LIMIT_LOW, b + (uint32_t)size - 4);
	wr(S, RAM_CONTROL, mode | RAM_STOP_ON_WRAP);
	wr(S, RAM_CONTROL, mode);
	CHECK_EQ(rd(S, RAM_WP_LOW) & RAM_WRAP, RAM_WRAP, "trRamWrap after writing the other registers");
	wr(S, RAM_WP_LOW, b + 8);
	CHECK_EQ(rd(S, RAM_WP_LOW), b + 8, "trRamWPLow after writing it (Wrap 0)");
out:
	end();
}

/* SRAM mode: a few hundred instructions traced into the sink's own 4 KiB,
 * read back through RP/Data: a ProgTraceSync at F-ADDR, complete messages,
 * ProgTraceCorrelation EVCODE 4 last; RP advances by 4 per Data read and
 * wraps from Limit to Start. */
static void sram_readback(void)
{
	const unsigned long k = 150;
	uint8_t bytes[1024];
	uint32_t wp, n, i;
	uintptr_t first;
	struct msg m, last;
	size_t pos = 0;
	int count;

	if (!begin())
		return;
	release_sink();
	wr(S, RAM_CONTROL, RAM_ACTIVE | RAM_ENABLE);
	CHECK_EQ(rd(S, RAM_CONTROL), RAM_ACTIVE | RAM_ENABLE | RAM_EMPTY, "trRamControl SRAM enabled");
	release_encoder();
	wr(E, TE_CONTROL, TE_ACTIVE | TE_ENABLE | TE_MODE(MODE_HTM));
	first = traced_loop(MODE_HTM, k);
	wr(E, TE_CONTROL, TE_ACTIVE | TE_MODE(MODE_HTM));
	wr(S, RAM_CONTROL, RAM_ACTIVE);
	CHECK_EQ(rd(E, TSBI_INSNS_LOW), 2 * k + 2, "tsbiTeInsnsLow");
	wp = rd(S, RAM_WP_LOW);
	if (!CHECK(wp > 0 && wp <= sizeof(bytes), "trRamWPLow %#x after the trace", wp))
		goto out;
	wr(S, RAM_RP_LOW, 0);
	for (n = 0; n < wp; n += 4) {
		uint32_t w = rd(S, RAM_DATA);

		for (i = 0; i < 4; i++)
			bytes[n + i] = (uint8_t)(w >> (8 * i));   /* LSB first */
	}
	CHECK_EQ(rd(S, RAM_RP_LOW), wp, "trRamRPLow after %u Data reads", wp / 4);
	if (CHECK(next_msg(bytes, wp, &pos, &m), "no complete message in the SRAM")) {
		CHECK_EQ(m.at, 0, "offset of the first message");
		CHECK_EQ(m.tcode, TCODE_SYNC, "TCODE of the first message");
		CHECK_EQ((m.seg[0] >> 6) & 0xF, SYNC_TRACE_ENABLE, "SYNC of the first message");
		CHECK_EQ(m.seg[0] >> 10, 0, "I-CNT of the first message");
		CHECK_EQ(m.seg[1] << 1, first, "F-ADDR of the first message");
	}
	if (all_messages(bytes, wp, &count, &last, "SRAM trace")) {
		CHECK(count >= 2, "%d messages in the SRAM", count);
		CHECK_EQ(last.tcode, TCODE_CORRELATION, "TCODE of the last message");
		CHECK_EQ((last.seg[0] >> 6) & 0xF, EVCODE_DISABLED, "EVCODE of the last message");
		CHECK_EQ((last.seg[0] >> 10) & 3, 1, "CDF of the last message (HTM)");
	}
	/* Data at Limit, then RP wraps to Start (0). */
	wr(S, RAM_RP_LOW, SRAM_LIMIT);
	(void)rd(S, RAM_DATA);
	CHECK_EQ(rd(S, RAM_RP_LOW), 0, "trRamRPLow after reading Data at Limit");
	/* Read again from 0: the same first word. */
	CHECK_EQ(rd(S, RAM_DATA), (uint32_t)bytes[0] | (uint32_t)bytes[1] << 8 |
		 (uint32_t)bytes[2] << 16 | (uint32_t)bytes[3] << 24, "trRamData at 0 again");
out:
	end();
}

/* ==== Other harts ========================================================= */

static struct {
	uint32_t ctl_started, status_started, ctl_stopped, status_stopped, ram_ctl, wp;
	volatile bool done;
} remote;

/* On a secondary: trace the boot hart (its encoder and sink, SMEM over tbuf
 * with stop on wrap) for 3 ms, reading the registers right after each
 * write. */
static long remote_trace(unsigned long size)
{
	uint32_t b = (uint32_t)buf_start(), mode = RAM_ACTIVE | RAM_MODE_SMEM | RAM_STOP_ON_WRAP;

	wr(S, RAM_CONTROL, RAM_ACTIVE);
	wr(S, RAM_CONTROL, mode);
	wr(S, RAM_START_LOW, b);
	wr(S, RAM_LIMIT_LOW, b + (uint32_t)size - 4);
	wr(S, RAM_WP_LOW, b);
	wr(S, RAM_CONTROL, mode | RAM_ENABLE);
	wr(E, TE_CONTROL, TE_ACTIVE);
	wr(E, TE_CONTROL, TE_ACTIVE | TE_ENABLE | TE_INST_TRACING | TE_MODE(MODE_HTM));
	remote.ctl_started = rd(E, TE_CONTROL);
	remote.status_started = rd(E, TSBI_STATUS);
	delay_us(3000);
	wr(E, TE_CONTROL, TE_ACTIVE | TE_MODE(MODE_HTM));
	remote.ctl_stopped = rd(E, TE_CONTROL);
	remote.status_stopped = rd(E, TSBI_STATUS);
	wr(S, RAM_CONTROL, mode);
	remote.ram_ctl = rd(S, RAM_CONTROL);
	remote.wp = rd(S, RAM_WP_LOW);
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	remote.done = true;
	return 0;
}

static bool remote_done(unsigned long unused)
{
	(void)unused;
	return remote.done;
}

/* A secondary programs and starts the boot hart's encoder while the boot
 * hart runs its wait loop, then stops it: the register read-backs right
 * after the remote writes (they have taken effect: tracing on and
 * stepping; Enable 0 flushed and Empty 1), and the buffer begins with a
 * ProgTraceSync into this payload's code. */
static void remote_programming(void)
{
	const size_t size = BUF_WORDS * 4;
	long helper, result = -1;
	uint32_t b = (uint32_t)buf_start(), wp;
	struct msg m, last;
	size_t pos = 0;
	int count;

	if (!begin() || !need_secondaries())
		return;
	helper = other_hart(0);
	buf_prepare(size);
	remote.done = false;
	hart_post((unsigned long)helper, remote_trace, size);
	/* The loop being traced: wfi until the helper is done. */
	CHECK(wait_for(remote_done, 0, 3000000), "hart %ld did not finish the remote trace", helper);
	if (!CHECK(hart_wait((unsigned long)helper, 1000000, &result), "hart %ld did not return",
		   helper))
		goto out;
	CHECK_EQ(remote.ctl_started & ~TE_EMPTY, TE_ACTIVE | TE_ENABLE | TE_INST_TRACING |
		 TE_MODE(MODE_HTM) | TE_FORMAT(1), "trTeControl read by hart %ld after starting",
		 helper);
	CHECK(remote.status_started & ST_STEPPING, "tsbiTeStatus %#x read by hart %ld after "
	      "starting: not stepping", remote.status_started, helper);
	CHECK_EQ(remote.ctl_stopped, TE_RELEASED, "trTeControl read by hart %ld after Enable = 0",
		 helper);
	CHECK_EQ(remote.status_stopped & (ST_STEPPING | ST_PAUSED), 0,
		 "tsbiTeStatus read by hart %ld after stopping", helper);
	CHECK_EQ(remote.ram_ctl, RAM_ACTIVE | RAM_MODE_SMEM | RAM_STOP_ON_WRAP | RAM_EMPTY,
		 "trRamControl read by hart %ld after disabling", helper);
	wp = remote.wp & ~RAM_WRAP;
	CHECK(wp > b || (remote.wp & RAM_WRAP), "no trace bytes (trRamWPLow %#x, start %#x)",
	      remote.wp, b);
	CHECK(rd(E, TSBI_INSNS_LOW) > 0, "tsbiTeInsnsLow after the remote trace: 0");
	if (next_msg(buf_bytes(), wp > b ? wp - b : size, &pos, &m)) {
		CHECK_EQ(m.at, 0, "offset of the first message");
		CHECK_EQ(m.tcode, TCODE_SYNC, "TCODE of the first message");
		CHECK_EQ((m.seg[0] >> 6) & 0xF, SYNC_TRACE_ENABLE, "SYNC of the first message");
		CHECK((m.seg[1] << 1) >= (uintptr_t)__image_start &&
		      (m.seg[1] << 1) < (uintptr_t)__image_end,
		      "F-ADDR %#lx of the first message is not in this payload",
		      (unsigned long)(m.seg[1] << 1));
	} else {
		check_failed("no complete message at the start of the buffer");
	}
	if (!(remote.wp & RAM_WRAP) && all_messages(buf_bytes(), wp - b, &count, &last,
						   "remote trace")) {
		CHECK_EQ(last.tcode, TCODE_CORRELATION, "TCODE of the last message");
		CHECK_EQ((last.seg[0] >> 6) & 0xF, EVCODE_DISABLED, "EVCODE of the last message");
	}
	guards_intact(size, "after the remote trace");
out:
	end();
}

static long read_data_twice(unsigned long out)
{
	uint32_t *w = (uint32_t *)out;

	w[0] = rd(S, RAM_DATA);
	w[1] = rd(S, RAM_DATA);
	w[2] = rd(S, RAM_RP_LOW);
	return 0;
}

/* trRamData read from another hart: the owner makes the read, RP moves. */
static void remote_data_read(void)
{
	uint32_t mine[2], theirs[3] = { 0, 0, 0 };
	long helper, result = -1;

	if (!begin() || !need_secondaries())
		return;
	helper = other_hart(0);
	release_sink();
	wr(S, RAM_RP_LOW, 0x10);
	mine[0] = rd(S, RAM_DATA);
	mine[1] = rd(S, RAM_DATA);
	CHECK_EQ(rd(S, RAM_RP_LOW), 0x18, "trRamRPLow after two Data reads");
	wr(S, RAM_RP_LOW, 0x10);
	if (CHECK(hart_call((unsigned long)helper, read_data_twice, (uintptr_t)theirs, 1000000,
			    &result), "hart %ld did not answer", helper)) {
		CHECK_EQ(theirs[0], mine[0], "trRamData at 0x10 read by hart %ld", helper);
		CHECK_EQ(theirs[1], mine[1], "trRamData at 0x14 read by hart %ld", helper);
		CHECK_EQ(theirs[2], 0x18, "trRamRPLow read by hart %ld after its reads", helper);
		CHECK_EQ(rd(S, RAM_RP_LOW), 0x18, "trRamRPLow after hart %ld's reads", helper);
	}
	end();
}

static long stop_me(unsigned long unused)
{
	(void)unused;
	irq_disable();   /* "must be called with supervisor-mode interrupts disabled" */
	return sbi_hart_stop().error;   /* returns only when the stop failed */
}

/* An HSM-stopped hart's components are programmable from another hart, and
 * tracing started while it is stopped begins at its first S-mode
 * instruction when it starts (secondary_entry): ProgTraceSync SYNC 5 with
 * that F-ADDR. */
static void stopped_hart_components(void)
{
	const size_t size = BUF_WORDS * 4;
	uint32_t b = (uint32_t)buf_start(), mode = RAM_ACTIVE | RAM_MODE_SMEM | RAM_STOP_ON_WRAP;
	uint64_t enc, sink;
	long victim, last;
	size_t pos = 0;
	struct msg m, lastm;
	uint32_t wp;
	int count;

	if (!trace_dt_present() || !need_secondaries())
		return;
	victim = other_hart(0);
	enc = trace_component_of((unsigned long)victim, true);
	sink = trace_component_of((unsigned long)victim, false);
	if (!CHECK(enc && sink, "hart %ld has no encoder/sink", victim))
		return;
	hart_post((unsigned long)victim, stop_me, 0);
	if (!CHECK(hart_wait_state((unsigned long)victim, SBI_HSM_STATE_STOPPED, 2000000, &last),
		   "hart %ld status %ld after hart_stop", victim, last))
		return;
	reset_components(enc, sink);
	wr(enc, TE_CONTROL, TE_ACTIVE);
	CHECK_EQ(rd(enc, TE_CONTROL), TE_RELEASED, "stopped hart %ld: trTeControl after release",
		 victim);
	warl(enc, TSBI_CALL_STACK, 11, 11, "stopped hart's tsbiTeCallStack");
	/* Its trace, to start with its first instruction. */
	buf_prepare(size);
	wr(sink, RAM_CONTROL, RAM_ACTIVE);
	wr(sink, RAM_CONTROL, mode);
	wr(sink, RAM_START_LOW, b);
	wr(sink, RAM_LIMIT_LOW, b + (uint32_t)size - 4);
	wr(sink, RAM_WP_LOW, b);
	wr(sink, RAM_CONTROL, mode | RAM_ENABLE);
	CHECK_EQ(rd(sink, RAM_CONTROL), mode | RAM_ENABLE | RAM_EMPTY,
		 "stopped hart %ld: trRamControl after enabling", victim);
	wr(enc, TE_CONTROL, TE_ACTIVE | TE_ENABLE | TE_INST_TRACING | TE_MODE(MODE_HTM));
	CHECK_EQ(rd(enc, TE_CONTROL), TE_RELEASED | TE_ENABLE | TE_INST_TRACING,
		 "stopped hart %ld: trTeControl after starting", victim);
	CHECK_EQ(rd(sink, RAM_WP_LOW), b, "stopped hart %ld: trRamWPLow before it starts", victim);
	if (!need_secondaries())
		goto out;
	delay_us(2000);
	wr(enc, TE_CONTROL, TE_ACTIVE | TE_MODE(MODE_HTM));
	CHECK_EQ(rd(enc, TE_CONTROL), TE_RELEASED, "hart %ld: trTeControl after Enable = 0", victim);
	wr(sink, RAM_CONTROL, mode);
	wp = rd(sink, RAM_WP_LOW);
	if (!CHECK(wp > b && !(wp & RAM_WRAP), "hart %ld: trRamWPLow %#x (start %#x)", victim, wp, b))
		goto out;
	if (CHECK(next_msg(buf_bytes(), wp - b, &pos, &m), "hart %ld: no complete message", victim)) {
		CHECK_EQ(m.at, 0, "offset of the first message");
		CHECK_EQ(m.tcode, TCODE_SYNC, "TCODE of the first message");
		CHECK_EQ((m.seg[0] >> 6) & 0xF, SYNC_TRACE_ENABLE, "SYNC of the first message");
		CHECK_EQ(m.seg[1] << 1, (uintptr_t)secondary_entry,
			 "F-ADDR of the first message (secondary_entry)");
	}
	if (all_messages(buf_bytes(), wp - b, &count, &lastm, "restarted hart's trace")) {
		CHECK_EQ(lastm.tcode, TCODE_CORRELATION, "TCODE of the last message");
		CHECK_EQ((lastm.seg[0] >> 6) & 0xF, EVCODE_DISABLED, "EVCODE of the last message");
	}
	guards_intact(size, "after the restarted hart's trace");
out:
	reset_components(enc, sink);
}

static const struct target_test tests[] = {
	{ "dt_components_per_hart", dt_components_per_hart, DEV_OPENSBI_NO_TRACE },
	{ "dt_endpoints_paired", dt_endpoints_paired, DEV_OPENSBI_NO_TRACE },
	{ "dt_layout", dt_layout, DEV_OPENSBI_NO_TRACE },
	{ "impl_values", impl_values, DEV_OPENSBI_NO_TRACE },
	{ "reset_reads_zero_ignores_writes", reset_reads_zero_ignores_writes, DEV_OPENSBI_NO_TRACE },
	{ "encoder_release_defaults", encoder_release_defaults, DEV_OPENSBI_NO_TRACE },
	{ "sink_release_defaults", sink_release_defaults, DEV_OPENSBI_NO_TRACE },
	{ "inst_mode_warl", inst_mode_warl, DEV_OPENSBI_NO_TRACE },
	{ "control_fields_warl", control_fields_warl, DEV_OPENSBI_NO_TRACE },
	{ "inst_features_warl", inst_features_warl, DEV_OPENSBI_NO_TRACE },
	{ "tracesbi_registers_warl", tracesbi_registers_warl, DEV_OPENSBI_NO_TRACE },
	{ "status_triggers", status_triggers, DEV_OPENSBI_NO_TRACE },
	{ "timestamp_unit", timestamp_unit, DEV_OPENSBI_NO_TRACE },
	{ "filters_comparators_warl", filters_comparators_warl, DEV_OPENSBI_NO_TRACE },
	{ "unimplemented_registers_zero", unimplemented_registers_zero, DEV_OPENSBI_NO_TRACE },
	{ "reserved_offsets", reserved_offsets, DEV_OPENSBI_NO_TRACE },
	{ "access_widths_fault", access_widths_fault, DEV_OPENSBI_NO_TRACE },
	{ "misaligned_fault", misaligned_fault, DEV_OPENSBI_NO_TRACE },
	{ "fp_amo_lr_fault", fp_amo_lr_fault, DEV_OPENSBI_NO_TRACE },
	{ "unowned_window_fault", unowned_window_fault, DEV_OPENSBI_NO_TRACE },
	{ "emulated_access_forms", emulated_access_forms, DEV_OPENSBI_NO_TRACE },
	{ "sram_address_registers", sram_address_registers, DEV_OPENSBI_NO_TRACE },
	{ "sram_wp_within_limit", sram_wp_within_limit, DEV_OPENSBI_NO_TRACE },
	{ "sink_control_fields", sink_control_fields, DEV_OPENSBI_NO_TRACE },
	{ "smem_bounds_clamped", smem_bounds_clamped, DEV_OPENSBI_NO_TRACE },
	{ "smem_enable_rules", smem_enable_rules, DEV_OPENSBI_NO_TRACE },
	{ "firmware_memory_unreachable", firmware_memory_unreachable, DEV_OPENSBI_NO_TRACE },
	{ "smem_trace_exact", smem_trace_exact, DEV_OPENSBI_NO_TRACE },
	{ "ts_on_mid_chain", ts_on_mid_chain, DEV_OPENSBI_NO_TRACE },
	{ "smc_after_fence_i", smc_after_fence_i, DEV_OPENSBI_NO_TRACE },
	{ "remap_after_sfence", remap_after_sfence, DEV_OPENSBI_NO_TRACE },
	{ "smem_trace_btm_exact", smem_trace_btm_exact, DEV_OPENSBI_NO_TRACE },
	{ "btm_exact_with_ctr_recording", btm_exact_with_ctr_recording, DEV_OPENSBI_NO_TRACE },
	{ "bytes_only_while_tracing", bytes_only_while_tracing, DEV_OPENSBI_NO_TRACE },
	{ "stop_on_wrap", stop_on_wrap, DEV_OPENSBI_NO_TRACE },
	{ "stop_on_wrap_resume", stop_on_wrap_resume, DEV_OPENSBI_NO_TRACE },
	{ "wrap_around", wrap_around, DEV_OPENSBI_NO_TRACE },
	{ "sram_readback", sram_readback, DEV_OPENSBI_NO_TRACE },
	{ "remote_programming", remote_programming, DEV_OPENSBI_NO_TRACE },
	{ "remote_data_read", remote_data_read, DEV_OPENSBI_NO_TRACE },
	{ "stopped_hart_components", stopped_hart_components, DEV_OPENSBI_NO_TRACE },
};
GROUP(trace, tests);
