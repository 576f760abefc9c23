// SPDX-License-Identifier: (GPL-2.0 OR BSD-2-Clause)
/*
 * TCI register sequences on one CPU's encoder and RAM sink, after the TCI
 * chapters "Reset and Discovery" and "Enabling and Disabling": reset each
 * component, set it up, read every WARL field back, and fail rather than
 * record with a setting the component did not keep.
 *
 * Every access is a 32-bit aligned load or store (mmio_read32/_write32):
 * on tracesbi each one traps and is emulated, and a CPU writing its own
 * encoder applies the write at that instruction (tracing starts with the
 * next one).  Every poll is bounded and every value read back is checked
 * before it is used.
 */
#include <linux/io.h>
#include <linux/uaccess.h>

#include "tracesbi_trace.h"
#include "tci_spec.h"

/* "Hardware may take an arbitrarily long time ... debug tools should
 * monitor (with reasonable timeout)": this many reads.
 */
#define TSBI_POLL_READS 100000

/*
 * One register access, 32 bits wide and aligned like readl/writel (and
 * ordered like them), but through the exception table: the firmware turns
 * an access it does not emulate into the access fault it was, and that
 * must be an error here, not an oops.
 */
static int mmio_read32(const void __iomem *addr, u32 *val)
{
	u32 v;

	pagefault_disable();
	__get_kernel_nofault(&v, (__force const u32 *)addr, u32, fault);
	pagefault_enable();
	/* As readl: the register read before later memory reads. */
	rmb();
	*val = v;
	return 0;
fault:
	pagefault_enable();
	return -EIO;
}

static int mmio_write32(void __iomem *addr, u32 val)
{
	/* As writel: earlier memory writes before the register write. */
	wmb();
	pagefault_disable();
	__put_kernel_nofault((__force u32 *)addr, &val, u32, fault);
	pagefault_enable();
	return 0;
fault:
	pagefault_enable();
	return -EIO;
}

/*
 * One register sequence.  After an access faults, the sequence touches no
 * more registers (reads give 0) and ends with -EIO.
 */
struct hw_seq {
	bool fault;
};

static void note_fault(struct hw_seq *seq, const struct tsbi_comp *comp, u32 off, bool write)
{
	seq->fault = true;
	dev_err_ratelimited(comp->dev, "%s of register 0x%03x faulted: the firmware does not emulate it\n",
			    write ? "store" : "load", off);
}

static u32 reg_read(struct hw_seq *seq, const struct tsbi_comp *comp, u32 off)
{
	u32 val;

	if (seq->fault)
		return 0;
	if (mmio_read32(comp->regs + off, &val)) {
		note_fault(seq, comp, off, false);
		return 0;
	}
	return val;
}

static void reg_write(struct hw_seq *seq, const struct tsbi_comp *comp, u32 off, u32 val)
{
	if (!seq->fault && mmio_write32(comp->regs + off, val))
		note_fault(seq, comp, off, true);
}

static int wait_bits(struct hw_seq *seq, const struct tsbi_comp *comp, u32 off, u32 mask,
		     u32 want, const char *what)
{
	u32 val = 0;
	int n;

	for (n = 0; n < TSBI_POLL_READS; n++) {
		val = reg_read(seq, comp, off);
		if (seq->fault)
			return -EIO;
		if ((val & mask) == want)
			return 0;
	}
	dev_err_ratelimited(comp->dev, "%s: register 0x%03x reads 0x%08x, waited for 0x%08x under mask 0x%08x\n",
			    what, off, val, want, mask);
	return -ETIMEDOUT;
}

/* A WARL field the component did not keep means it cannot do what the
 * event asks: -EOPNOTSUPP, with the register named.
 */
static int write_checked(struct hw_seq *seq, const struct tsbi_comp *comp, u32 off, u32 val,
			 u32 mask, const char *what)
{
	u32 got;

	reg_write(seq, comp, off, val);
	got = reg_read(seq, comp, off);
	if (seq->fault)
		return -EIO;
	if ((got & mask) == (val & mask))
		return 0;
	dev_err_ratelimited(comp->dev, "%s: wrote 0x%08x, reads back 0x%08x (checked bits 0x%08x)\n",
			    what, val, got, mask);
	return -EOPNOTSUPP;
}

/* tr??Control = 0 (reset), then Active (release), each read back; the
 * component must still be the type it was at probe.
 */
static int reset_component(struct hw_seq *seq, const struct tsbi_comp *comp, unsigned int type,
			   const char *what)
{
	u32 impl;
	int rc;

	reg_write(seq, comp, 0, 0);
	rc = wait_bits(seq, comp, 0, TCI_CTRL_ACTIVE, 0, what);
	if (rc)
		return rc;
	reg_write(seq, comp, 0, TCI_CTRL_ACTIVE);
	rc = wait_bits(seq, comp, 0, TCI_CTRL_ACTIVE, TCI_CTRL_ACTIVE, what);
	if (rc)
		return rc;
	impl = reg_read(seq, comp, TCI_IMPL_OFFSET);
	if (seq->fault)
		return -EIO;
	if (TCI_IMPL_VER_MAJOR(impl) != 1 || TCI_IMPL_COMP_TYPE(impl) != type) {
		dev_err_ratelimited(comp->dev, "%s: tr??Impl now reads 0x%08x\n", what, impl);
		return -ENODEV;
	}
	return 0;
}

static u64 read_addr(struct hw_seq *seq, const struct tsbi_comp *comp, u32 low)
{
	u64 high = reg_read(seq, comp, low + 4);

	return high << 32 | reg_read(seq, comp, low);
}

/* A 64-bit register pair, High first, then Low; the value must read back
 * in the bits of `keep` (the others are the register's own).
 */
static int write_pair(struct hw_seq *seq, const struct tsbi_comp *comp, u32 low, u64 val,
		      u64 keep, const char *what)
{
	u64 got;

	reg_write(seq, comp, low + 4, upper_32_bits(val));
	reg_write(seq, comp, low, lower_32_bits(val));
	got = read_addr(seq, comp, low);
	if (seq->fault)
		return -EIO;
	if ((got & keep) == val)
		return 0;
	dev_err_ratelimited(comp->dev, "%s: wrote 0x%llx, reads back 0x%llx\n",
			    what, (unsigned long long)val, (unsigned long long)got);
	return -EOPNOTSUPP;
}

/* A sink address: its low bits are not address (a WPLow write also sets
 * trRamWrap to bit 0 of the value: 0 here).
 */
static int write_addr(struct hw_seq *seq, const struct tsbi_comp *comp, u32 low, u64 addr,
		      const char *what)
{
	return write_pair(seq, comp, low, addr, ~(u64)(TRRAM_ADDR_ALIGN - 1), what);
}

/* SMEM mode over the CPU's buffer, stopping when it is full so that what
 * it holds is the oldest part of the stream, from its first message.
 */
static int sink_setup(struct hw_seq *seq, const struct tsbi_cpu *c)
{
	const struct tsbi_comp *sink = c->sink;
	u64 start = c->buf.phys, limit = start + c->buf.size - TRRAM_ADDR_ALIGN;
	u32 ctl = TRRAM_ACTIVE | TRRAM_MODE_SMEM | TRRAM_STOP_ON_WRAP;
	int rc;

	/* trRamMode first: "other registers may behave differently". */
	rc = write_checked(seq, sink, TRRAM_CONTROL, ctl, ctl, "trRamControl");
	if (!rc)
		rc = write_addr(seq, sink, TRRAM_START_LOW, start, "trRamStart");
	if (!rc)
		rc = write_addr(seq, sink, TRRAM_LIMIT_LOW, limit, "trRamLimit");
	if (!rc)
		rc = write_addr(seq, sink, TRRAM_WP_LOW, start, "trRamWP");
	return rc;
}

/* A comparator match value: exact, every bit read back. */
static int write_match(struct hw_seq *seq, const struct tsbi_comp *enc, u32 low, u64 val,
		       const char *what)
{
	return write_pair(seq, enc, low, val, ~0ull, what);
}

/* Comparator j true for instruction addresses first..last: primary
 * iaddr >= PMatch, secondary iaddr <= SMatch, match mode "P && S"
 * (TCI trTeComp<j>Control).  An empty range: a primary that is always
 * false (function 6), alone.
 */
static int comparator_setup(struct hw_seq *seq, const struct tsbi_comp *enc, unsigned int j,
			    const struct tsbi_addr_range *r)
{
	u32 base = TRTE_COMP_BASE + j * TRTE_COMP_STRIDE;
	u32 ctl = TRTE_COMP_INPUT_IADDR << TRTE_COMP_P_INPUT_SHIFT |
		  TRTE_COMP_INPUT_IADDR << TRTE_COMP_S_INPUT_SHIFT;
	u32 mask = TRTE_COMP_INPUT_MASK << TRTE_COMP_P_INPUT_SHIFT |
		   TRTE_COMP_INPUT_MASK << TRTE_COMP_S_INPUT_SHIFT |
		   TRTE_COMP_FUNCTION_MASK << TRTE_COMP_P_FUNCTION_SHIFT |
		   TRTE_COMP_FUNCTION_MASK << TRTE_COMP_S_FUNCTION_SHIFT |
		   TRTE_COMP_MATCH_MODE_MASK << TRTE_COMP_MATCH_MODE_SHIFT;
	int rc;

	if (r->empty) {
		ctl |= TRTE_COMP_FN_6 << TRTE_COMP_P_FUNCTION_SHIFT |
		       TRTE_COMP_MODE_P << TRTE_COMP_MATCH_MODE_SHIFT;
		mask &= ~(TRTE_COMP_FUNCTION_MASK << TRTE_COMP_S_FUNCTION_SHIFT);
	} else {
		ctl |= TRTE_COMP_FN_GE << TRTE_COMP_P_FUNCTION_SHIFT |
		       TRTE_COMP_FN_LE << TRTE_COMP_S_FUNCTION_SHIFT |
		       TRTE_COMP_MODE_P_AND_S << TRTE_COMP_MATCH_MODE_SHIFT;
		rc = write_match(seq, enc, base + TRTE_COMP_PMATCH_LOW, r->first, "trTeCompPMatch");
		if (!rc)
			rc = write_match(seq, enc, base + TRTE_COMP_SMATCH_LOW, r->last,
					 "trTeCompSMatch");
		if (rc)
			return rc;
	}
	return write_checked(seq, enc, base + TRTE_COMP_CONTROL, ctl, mask, "trTeCompControl");
}

/* Filter i (TCI trTeFilter<i>Control/MatchInst): the privilege choice if
 * any, ANDed with comparator `comp` if comp >= 0.
 */
static int filter_setup(struct hw_seq *seq, const struct tsbi_comp *enc, unsigned int i,
			u32 priv_choice, int comp)
{
	u32 base = TRTE_FILTER_BASE + i * TRTE_FILTER_STRIDE;
	u32 filter_ctl = TRTE_FILTER_ENABLE;
	int rc;

	if (priv_choice) {
		filter_ctl |= TRTE_FILTER_MATCH_PRIVILEGE;
		rc = write_checked(seq, enc, base + TRTE_FILTER_MATCH_INST, priv_choice,
				   TRTE_FILTER_MATCH_CHOICE_PRIVILEGE_MASK, "trTeFilterMatchInst");
		if (rc)
			return rc;
	}
	if (comp >= 0)
		filter_ctl |= TRTE_FILTER_MATCH_COMP1 | (u32)comp << TRTE_FILTER_COMP1_SHIFT;
	return write_checked(seq, enc, base + TRTE_FILTER_CONTROL, filter_ctl, ~0u,
			     "trTeFilterControl");
}

/* One filter per address range (each with its comparator), or filter 0
 * on privilege alone; trTeInstFilters selects them (filters are ORed).
 */
static int filters_setup(struct hw_seq *seq, const struct tsbi_comp *enc,
			 const struct tsbi_encoder_cfg *cfg)
{
	unsigned int i, n = cfg->nr_ranges ? cfg->nr_ranges : !!cfg->priv_choice;
	int rc;

	for (i = 0; i < n; i++) {
		if (cfg->nr_ranges) {
			rc = comparator_setup(seq, enc, i, &cfg->range[i]);
			if (rc)
				return rc;
		}
		rc = filter_setup(seq, enc, i, cfg->priv_choice, cfg->nr_ranges ? (int)i : -1);
		if (rc)
			return rc;
	}
	return write_checked(seq, enc, TRTE_INST_FILTERS, (1u << n) - 1, 0xFFFF, "trTeInstFilters");
}

static int encoder_setup(struct hw_seq *seq, const struct tsbi_comp *enc,
			 const struct tsbi_encoder_cfg *cfg)
{
	u32 ctl = TRTE_ACTIVE | cfg->inst_mode << TRTE_INST_MODE_SHIFT |
		  cfg->sync_mode << TRTE_INST_SYNC_MODE_SHIFT |
		  cfg->sync_max << TRTE_INST_SYNC_MAX_SHIFT | (cfg->context ? TRTE_CONTEXT : 0);
	u32 ctl_mask = TRTE_INST_MODE_MASK | TRTE_INST_SYNC_MODE_MASK | TRTE_INST_SYNC_MAX_MASK |
		       TRTE_CONTEXT;
	u32 feat_mask = ~0u;
	u32 ts = TRTS_ACTIVE | TRTS_COUNT | TRTS_RESET | TRTS_ENABLE |
		 TRTS_MODE_INTERNAL_SYSTEM << TRTS_MODE_SHIFT;
	int rc;

	/* "Trace Components Reset": the registers to put in a known state. */
	reg_write(seq, enc, TRTE_DATA_CONTROL, 0);
	reg_write(seq, enc, TRTE_DATA_FILTERS, 0);
	reg_write(seq, enc, TRTE_TRIG_DBG_CONTROL, 0);
	reg_write(seq, enc, TRTE_TRIG_EXT_IN_CONTROL, 0);
	reg_write(seq, enc, TRTE_TRIG_EXT_OUT_CONTROL, 0);
	rc = write_checked(seq, enc, TRTE_CONTROL, ctl, ctl_mask, "trTeControl");
	if (rc)
		return rc;
	/* The implicit-return mode only matters with implicit return on. */
	if (!(cfg->features & TRTE_INST_EN_IMPLICIT_RETURN))
		feat_mask &= ~TRTE_INST_IMPLICIT_RETURN_MODE_MASK;
	rc = write_checked(seq, enc, TRTE_INST_FEATURES, cfg->features, feat_mask,
			   "trTeInstFeatures");
	if (rc)
		return rc;
	rc = filters_setup(seq, enc, cfg);
	if (rc)
		return rc;
	if (!cfg->timestamps) {
		reg_write(seq, enc, TRTS_CONTROL, 0);
		return seq->fault ? -EIO : 0;
	}
	return write_checked(seq, enc, TRTS_CONTROL, ts, TRTS_ACTIVE | TRTS_ENABLE | TRTS_MODE_MASK,
			     "trTsControl");
}

/* Sink enabled first, then trTeEnable, then trTeInstTracing. */
static int trace_on(struct hw_seq *seq, const struct tsbi_cpu *c)
{
	u32 ctl;
	int rc;

	ctl = reg_read(seq, c->sink, TRRAM_CONTROL) & ~TRRAM_EMPTY;
	/* tracesbi keeps Enable 0 when the buffer is not wholly S-mode RAM. */
	rc = write_checked(seq, c->sink, TRRAM_CONTROL, ctl | TRRAM_ENABLE, TRRAM_ENABLE,
			   "trRamControl (enable)");
	if (rc)
		return rc;
	/* trTeInstStallOrOverflow is write-1-to-clear: written as 0. */
	ctl = reg_read(seq, c->enc, TRTE_CONTROL) & ~(TRTE_EMPTY | TRTE_INST_STALL_OR_OVERFLOW);
	rc = write_checked(seq, c->enc, TRTE_CONTROL, ctl | TRTE_ENABLE, TRTE_ENABLE,
			   "trTeControl (trTeEnable)");
	if (rc)
		return rc;
	/* On tracesbi, InstTracing stays 0 on a hart that cannot be stepped
	 * (no two execute triggers, or S-mode holds them through SBI DBTR).
	 */
	return write_checked(seq, c->enc, TRTE_CONTROL, ctl | TRTE_ENABLE | TRTE_INST_TRACING,
			     TRTE_INST_TRACING, "trTeControl (trTeInstTracing)");
}

/* Encoder first (InstTracing 0, Enable 0, wait Empty: everything pending
 * flushed to the sink), then the sink (Enable 0, wait Empty: the last word
 * padded and written).
 */
static int trace_off(struct hw_seq *seq, const struct tsbi_cpu *c)
{
	u32 ctl = reg_read(seq, c->enc, TRTE_CONTROL) & ~(TRTE_EMPTY | TRTE_INST_STALL_OR_OVERFLOW);
	int rc;

	reg_write(seq, c->enc, TRTE_CONTROL, ctl & ~TRTE_INST_TRACING);
	reg_write(seq, c->enc, TRTE_CONTROL, ctl & ~(TRTE_INST_TRACING | TRTE_ENABLE));
	rc = wait_bits(seq, c->enc, TRTE_CONTROL, TRTE_ENABLE | TRTE_EMPTY, TRTE_EMPTY,
		       "encoder stop");
	if (rc)
		return rc;
	ctl = reg_read(seq, c->sink, TRRAM_CONTROL) & ~TRRAM_EMPTY;
	reg_write(seq, c->sink, TRRAM_CONTROL, ctl & ~TRRAM_ENABLE);
	return wait_bits(seq, c->sink, TRRAM_CONTROL, TRRAM_ENABLE | TRRAM_EMPTY, TRRAM_EMPTY,
			 "sink stop");
}

/* Both components back in reset (a sequence of its own: after a fault
 * too), so that nothing more reaches the buffer.  False if the sink does
 * not read back reset.
 */
static bool reset_both(const struct tsbi_cpu *c)
{
	struct hw_seq seq = { };

	reg_write(&seq, c->enc, TRTE_CONTROL, 0);
	reg_write(&seq, c->sink, TRRAM_CONTROL, 0);
	return !wait_bits(&seq, c->sink, TRRAM_CONTROL, TRRAM_ACTIVE | TRRAM_ENABLE, 0,
			  "sink reset");
}

int tsbi_hw_read_impl(struct tsbi_comp *comp, u32 *impl)
{
	struct hw_seq seq = { };

	*impl = reg_read(&seq, comp, TCI_IMPL_OFFSET);
	return seq.fault ? -EIO : 0;
}

int tsbi_hw_encoder_state(struct tsbi_comp *enc)
{
	struct hw_seq seq = { };
	u32 ctl = reg_read(&seq, enc, TRTE_CONTROL);

	if (seq.fault)
		return -EIO;
	return ctl & TRTE_ENABLE ? -EBUSY : 0;
}

int tsbi_hw_start(struct tsbi_cpu *c, const struct tsbi_encoder_cfg *cfg)
{
	struct hw_seq seq = { };
	int rc;

	rc = reset_component(&seq, c->sink, TRCOMP_RAMSINK, "sink reset");
	if (!rc)
		rc = reset_component(&seq, c->enc, TRCOMP_ENCODER, "encoder reset");
	if (!rc)
		rc = sink_setup(&seq, c);
	if (!rc)
		rc = encoder_setup(&seq, c->enc, cfg);
	if (!rc)
		rc = trace_on(&seq, c);
	if (rc && !reset_both(c))
		WRITE_ONCE(c->broken, true);
	return rc;
}

/* Where the stopped sink's bytes are.  The write pointer comes from a
 * register: it is checked to lie in the buffer before anything is copied.
 */
static int capture(struct hw_seq *seq, const struct tsbi_cpu *c, struct tsbi_capture *cap)
{
	u64 start = read_addr(seq, c->sink, TRRAM_START_LOW) & ~(u64)(TRRAM_ADDR_ALIGN - 1);
	u64 wp = read_addr(seq, c->sink, TRRAM_WP_LOW);
	u32 ctl = reg_read(seq, c->enc, TRTE_CONTROL);
	u64 first = c->buf.phys, end = first + c->buf.size;
	bool wrapped = wp & TRRAM_WP_WRAP;
	size_t offset;

	if (seq->fault)
		return -EIO;
	/* WPLow bits 1:0 are flags; WP addresses a 32-bit word. */
	wp &= ~(u64)(TRRAM_ADDR_ALIGN - 1);
	if (start != first || wp < first || wp > end) {
		dev_err_ratelimited(c->sink->dev, "trRamStart 0x%llx, trRamWP 0x%llx: not in the buffer [0x%llx, 0x%llx)\n",
				    (unsigned long long)start, (unsigned long long)wp,
				    (unsigned long long)first, (unsigned long long)end);
		return -EIO;
	}
	offset = wp - first;
	/* "depending on trRamWrap bit, you may read trace from two ranges":
	 * wrapped, the oldest byte is at WP.  With stop-on-wrap WP is back at
	 * Start then, and the whole buffer holds whole messages, idle-padded.
	 */
	if (wrapped) {
		cap->first = offset % c->buf.size;
		cap->len = c->buf.size;
	} else {
		cap->first = 0;
		cap->len = offset;
	}
	cap->filled = wrapped || offset == c->buf.size;
	cap->overflow = ctl & TRTE_INST_STALL_OR_OVERFLOW;
	return 0;
}

int tsbi_hw_stop(struct tsbi_cpu *c, struct tsbi_capture *cap)
{
	struct hw_seq seq = { };
	int rc;

	rc = trace_off(&seq, c);
	if (!rc)
		rc = capture(&seq, c, cap);
	/* Whatever failed, nothing may reach the buffer afterwards. */
	if (rc && !reset_both(c)) {
		dev_err_ratelimited(c->sink->dev, "does not reset: CPU %d not traced any more\n",
				    c->cpu);
		WRITE_ONCE(c->broken, true);
	}
	return rc;
}

/* At module exit: the components are put back in reset if the sink was
 * last set up on this CPU's buffer (by this module; a sink set up by
 * someone else, such as the firmware's boot trace, is left alone).  True
 * when the sink cannot write to the buffer any more, so it can be freed.
 */
bool tsbi_hw_release_buffer(struct tsbi_cpu *c)
{
	struct hw_seq seq = { };
	u64 start = read_addr(&seq, c->sink, TRRAM_START_LOW) & ~(u64)(TRRAM_ADDR_ALIGN - 1);

	if (!seq.fault && start != c->buf.phys)
		return true;
	return reset_both(c);
}
