// SPDX-License-Identifier: BSD-2-Clause
/*
 * SBI Debug Triggers (ext-debug-triggers.adoc) over the Sdtrig CSRs.
 *
 * Logical trigger index i is hardware trigger i: a chain S-mode installs
 * gets contiguous logical and hardware indexes by construction.  Install
 * and update are all or nothing: every configuration is checked first, and
 * when the hardware refuses one (a WARL bit it lacks reads back
 * different), the triggers this call installed are removed again.
 * tselect is left 0 after every call (what the trace stepper expects).
 *
 * The trace engine (firmware/trace/stepper.c) steps a hart with hardware
 * triggers 0 and 1: while it does, DBTR installs nothing on that hart
 * (SBI_ERR_FAILED: no hardware trigger free), and dbtr_triggers_in_use()
 * tells the engine when S-mode holds triggers (docs/SBI.md).
 */
#include "firmware/service/dbtr.h"
#include "firmware/core/guard.h"
#include "firmware/core/platform.h"
#include "firmware/core/riscv_csr.h"
#include "firmware/core/trigger.h"

#define ENTRY_BYTES       (4 * sizeof(unsigned long))   /* XLEN / 2 */


/* Where the fields S-mode may use sit in each trigger type's tdata1. */
struct trig_layout {
	unsigned long u, s, vu, vs, m, chain, hit;
	unsigned int action_shift;
	unsigned long action_mask;
};

static const struct trig_layout mcontrol = {
	.u = MCONTROL_U, .s = MCONTROL_S, .m = MCONTROL_M, .chain = MCONTROL_CHAIN,
	.hit = MCONTROL_HIT, .action_shift = MCONTROL_ACTION_SHIFT,
	.action_mask = MCONTROL_ACTION_MASK,
};
static const struct trig_layout mcontrol6 = {
	.u = MCONTROL_U, .s = MCONTROL_S, .m = MCONTROL_M, .chain = MCONTROL_CHAIN,
	.vu = MCONTROL6_VU, .vs = MCONTROL6_VS, .hit = MCONTROL6_HIT,
	.action_shift = MCONTROL_ACTION_SHIFT, .action_mask = MCONTROL_ACTION_MASK,
};
static const struct trig_layout icount = {
	.u = 1UL << 6, .s = 1UL << 7, .m = 1UL << 9, .vu = 1UL << 25, .vs = 1UL << 26,
	.hit = (1UL << 24) | (1UL << 8), .action_shift = 0, .action_mask = 0x3f,
};

static unsigned int tdata1_type(unsigned long tdata1)
{
	return (unsigned int)(tdata1 >> TDATA1_TYPE_SHIFT);
}

static const struct trig_layout *layout_of(unsigned long tdata1)
{
	switch (tdata1_type(tdata1)) {
	case TRIGGER_TYPE_MCONTROL: return &mcontrol;
	case TRIGGER_TYPE_MCONTROL6: return &mcontrol6;
	case TRIGGER_TYPE_ICOUNT: return &icount;
	default: return NULL;
	}
}

static unsigned long enable_bits(const struct trig_layout *l)
{
	return l->u | l->s | l->vu | l->vs;
}

static bool is_chained(unsigned long tdata1)
{
	const struct trig_layout *l = layout_of(tdata1);

	return l && (tdata1 & l->chain);
}

/* What S-mode may ask for (the spec: dmode and m always 0); only the
 * breakpoint action (0): entering debug mode (1) is not S-mode's, the
 * trace actions (2-5) are not offered. */
static long tdata1_check(const struct hart *self, unsigned long tdata1)
{
	const struct trig_layout *l = layout_of(tdata1);
	unsigned long action;

	if (!l || (tdata1 & (TDATA1_DMODE | l->m)))
		return SBI_ERR_INVALID_PARAM;
	action = (tdata1 >> l->action_shift) & l->action_mask;
	if (action == 1 || action > 5)
		return SBI_ERR_INVALID_PARAM;
	if (action)
		return SBI_ERR_NOT_SUPPORTED;
	if ((tdata1 & (l->vu | l->vs)) && !self->feat.h)
		return SBI_ERR_NOT_SUPPORTED;
	return SBI_SUCCESS;
}

/* trig_state: mapped and the saved vs/vu/s/u.  have_hw_trig ("the
 * hardware (or physical) debug trigger details are available") stays 0,
 * and with it hw_trig_idx: the hardware index is the logical one here, so
 * it tells S-mode nothing, and OpenSBI reports the same word. */
static unsigned long state_of(unsigned long tdata1)
{
	const struct trig_layout *l = layout_of(tdata1);
	unsigned long st = SBI_DBTR_STATE_MAPPED;

	if (tdata1 & l->u)
		st |= SBI_DBTR_STATE_U;
	if (tdata1 & l->s)
		st |= SBI_DBTR_STATE_S;
	if (tdata1 & l->vu)
		st |= SBI_DBTR_STATE_VU;
	if (tdata1 & l->vs)
		st |= SBI_DBTR_STATE_VS;
	return st;
}

/* ---- hardware triggers ---- */

/* The trigger CSRs by name, under a trap guard (tdata3 may be missing:
 * it then reads 0 and ignores writes). */
#define trig_write(csr, v) ((void)csr_write_guarded(csr, v))

static unsigned long read_tdata1(void)
{
	unsigned long v = 0;

	return csr_read_guarded(CSR_TDATA1, &v) ? 0 : v;
}

static unsigned long read_tdata2(void)
{
	unsigned long v = 0;

	return csr_read_guarded(CSR_TDATA2, &v) ? 0 : v;
}

static unsigned long read_tdata3(void)
{
	unsigned long v = 0;

	return csr_read_guarded(CSR_TDATA3, &v) ? 0 : v;
}

/* Program hardware trigger idx (off first, so it never fires half set);
 * false when the hart kept a different value (an unimplemented bit). */
static bool hw_program(unsigned int idx, unsigned long t1, unsigned long t2, unsigned long t3)
{
	const struct trig_layout *l = layout_of(t1);
	bool ok;

	trig_write(CSR_TSELECT, idx);
	trig_write(CSR_TDATA1, t1 & ~enable_bits(l));
	trig_write(CSR_TDATA2, t2);
	/* tdata3 may not exist: then only 0 is right (a missing CSR reads 0). */
	trig_write(CSR_TDATA3, t3);
	ok = read_tdata2() == t2 && read_tdata3() == t3;
	if (ok) {
		trig_write(CSR_TDATA1, t1);
		ok = (read_tdata1() & ~l->hit) == (t1 & ~l->hit);
	}
	trig_write(CSR_TSELECT, 0);
	return ok;
}

/* Off: the trigger's type with nothing enabled, no address. */
static void hw_clear(unsigned int idx, unsigned long type)
{
	trig_write(CSR_TSELECT, idx);
	trig_write(CSR_TDATA1, type << TDATA1_TYPE_SHIFT);
	trig_write(CSR_TDATA2, 0);
	trig_write(CSR_TDATA3, 0);
	trig_write(CSR_TSELECT, 0);
}

/* Which types each trigger takes: write each type with nothing enabled
 * and see whether it sticks (tinfo is optional). */
static void probe_types(struct dbtr_hart *d, const struct hart *self)
{
	static const unsigned int types[] = { TRIGGER_TYPE_MCONTROL, TRIGGER_TYPE_ICOUNT, TRIGGER_TYPE_MCONTROL6 };
	unsigned int i, t;

	d->trig_max = (uint8_t)(self->feat.trigger_count < DBTR_MAX_TRIGGERS ?
				self->feat.trigger_count : DBTR_MAX_TRIGGERS);
	for (i = 0; i < d->trig_max; i++) {
		unsigned long old;

		trig_write(CSR_TSELECT, i);
		old = read_tdata1();
		for (t = 0; t < sizeof(types) / sizeof(types[0]); t++) {
			trig_write(CSR_TDATA1, (unsigned long)types[t] << TDATA1_TYPE_SHIFT);
			if (tdata1_type(read_tdata1()) == types[t])
				d->types[i] |= (uint8_t)(1u << types[t]);
		}
		trig_write(CSR_TDATA1, old);
	}
	trig_write(CSR_TSELECT, 0);
	d->probed = true;
}

/* ---- shared memory: S-mode RAM checked by set_shmem ---- */

static volatile unsigned long *shmem_entry(const struct dbtr_hart *d, unsigned long i)
{
	return (volatile unsigned long *)(uintptr_t)(d->shmem + i * ENTRY_BYTES);
}

/* The first `count` entries of the shared memory, copied once: S-mode
 * may change them while the call runs (from another hart). */
typedef unsigned long dbtr_config[4];

static void shmem_copy(const struct dbtr_hart *d, unsigned long count, dbtr_config *cfg)
{
	unsigned long i;
	unsigned int w;

	for (i = 0; i < count; i++)
		for (w = 0; w < 4; w++)
			cfg[i][w] = shmem_entry(d, i)[w];
}

/* The `count` entries install and update take, copied out of the shared
 * memory once so S-mode cannot change them under the checks.  As for
 * read: the spec's ">= trig_max" would refuse a full set. */
static long shmem_load(const struct dbtr_hart *d, unsigned long count, dbtr_config *cfg)
{
	if (!d->shmem_on)
		return SBI_ERR_NO_SHMEM;
	if (count > d->trig_max)
		return SBI_ERR_BAD_RANGE;
	shmem_copy(d, count, cfg);
	return SBI_SUCCESS;
}

/* ---- the functions ---- */

static struct dbtr_hart *dbtr_of(struct hart *self)
{
	return &self->dbtr;
}

long dbtr_num_triggers(struct hart *self, unsigned long tdata1)
{
	struct dbtr_hart *d = dbtr_of(self);
	unsigned int i;
	long n = 0;

	if (!tdata1)
		return d->trig_max;
	if (tdata1_check(self, tdata1))
		return 0;
	for (i = 0; i < d->trig_max; i++)
		if (d->types[i] & (1u << tdata1_type(tdata1)))
			n++;
	return n;
}

long dbtr_set_shmem(struct hart *self, unsigned long lo, unsigned long hi, unsigned long flags)
{
	struct dbtr_hart *d = dbtr_of(self);

	if (flags)
		return SBI_ERR_INVALID_PARAM;
	if (lo == (unsigned long)-1 && hi == (unsigned long)-1) {
		d->shmem_on = false;
		d->shmem = 0;
		return SBI_SUCCESS;
	}
	if (lo & (sizeof(unsigned long) - 1))
		return SBI_ERR_INVALID_PARAM;
	/* RV64: no upper half; then memory S-mode may use (binary encoding,
	 * "Shared Memory Physical Address Range Parameter"). */
	if (hi || !platform_smode_range_ok(lo, (uint64_t)d->trig_max * ENTRY_BYTES))
		return SBI_ERR_INVALID_ADDRESS;
	d->shmem = lo;
	d->shmem_on = true;
	return SBI_SUCCESS;
}

/* A range [base, base + count) of trigger indexes.  The spec's text says
 * BAD_RANGE when base + count >= trig_max, which would refuse the whole
 * set; tracesbi refuses only ranges that run past it. */
static bool range_ok(const struct dbtr_hart *d, unsigned long base, unsigned long count)
{
	return base < d->trig_max && count <= d->trig_max - base;
}

/* tdata1 as S-mode set it; a disabled trigger's without vs/vu/s/u. */
static unsigned long reported_tdata1(const struct dbtr_hart *d, unsigned int idx)
{
	unsigned long t1 = d->tdata1[idx];

	return d->disabled & (1u << idx) ? t1 & ~enable_bits(layout_of(t1)) : t1;
}

long dbtr_read_triggers(struct hart *self, unsigned long base, unsigned long count)
{
	struct dbtr_hart *d = dbtr_of(self);
	unsigned long i;

	if (!d->shmem_on)
		return SBI_ERR_NO_SHMEM;
	if (!range_ok(d, base, count))
		return SBI_ERR_BAD_RANGE;
	for (i = 0; i < count; i++) {
		volatile unsigned long *e = shmem_entry(d, i);
		unsigned int idx = (unsigned int)(base + i);
		bool mapped = d->state[idx] & SBI_DBTR_STATE_MAPPED;

		e[0] = d->state[idx];
		trig_write(CSR_TSELECT, idx);
		e[1] = mapped ? reported_tdata1(d, idx) : 0;
		e[2] = mapped ? read_tdata2() : 0;
		e[3] = mapped ? read_tdata3() : 0;
	}
	trig_write(CSR_TSELECT, 0);
	return SBI_SUCCESS;
}

/* The first run of `len` free hardware triggers that all take `type`,
 * or -1. */
static int find_free_run(const struct dbtr_hart *d, unsigned int len, unsigned int type,
			 const bool *taken)
{
	unsigned int i, k;

	for (i = 0; i + len <= d->trig_max; i++) {
		for (k = 0; k < len; k++)
			if (taken[i + k] || !(d->types[i + k] & (1u << type)))
				break;
		if (k == len)
			return (int)i;
	}
	return -1;
}

static void uninstall_one(struct dbtr_hart *d, unsigned int idx)
{
	hw_clear(idx, tdata1_type(d->tdata1[idx]));
	d->state[idx] = 0;
	d->tdata1[idx] = 0;
	d->disabled &= (uint8_t)~(1u << idx);
}

/* Trigger idx now holds tdata1 (as S-mode gave it), enabled. */
static void installed(struct dbtr_hart *d, unsigned int idx, unsigned long tdata1)
{
	d->state[idx] = state_of(tdata1);
	d->tdata1[idx] = tdata1;
	d->disabled &= (uint8_t)~(1u << idx);
}

/* Check every configuration, then pick the hardware triggers (a chain on
 * contiguous ones); the failing index in *bad. */
static long install_plan(struct hart *self, unsigned long count, const dbtr_config *cfg,
			 unsigned int *idx, unsigned long *bad)
{
	struct dbtr_hart *d = dbtr_of(self);
	bool taken[DBTR_MAX_TRIGGERS];
	unsigned long i, len;
	unsigned int k;
	long ret;

	for (i = 0; i < count; i++) {
		ret = tdata1_check(self, cfg[i][1]);
		if (ret) {
			*bad = i;
			return ret;
		}
	}
	/* "The last trigger configuration ... MUST not have chain == 1". */
	if (count && is_chained(cfg[count - 1][1])) {
		*bad = count - 1;
		return SBI_ERR_INVALID_PARAM;
	}
	for (k = 0; k < d->trig_max; k++)
		taken[k] = (d->state[k] & SBI_DBTR_STATE_MAPPED) || self->trap_tracing;
	for (i = 0; i < count; i += len) {
		int at;

		for (len = 1; is_chained(cfg[i + len - 1][1]); len++)
			;
		at = find_free_run(d, (unsigned int)len, tdata1_type(cfg[i][1]), taken);
		if (at < 0) {
			*bad = i;
			return SBI_ERR_FAILED;
		}
		for (k = 0; k < len; k++) {
			taken[at + k] = true;
			idx[i + k] = (unsigned int)at + k;
		}
	}
	return SBI_SUCCESS;
}

struct sbiret dbtr_install_triggers(struct hart *self, unsigned long count)
{
	struct dbtr_hart *d = dbtr_of(self);
	dbtr_config cfg[DBTR_MAX_TRIGGERS];
	unsigned int idx[DBTR_MAX_TRIGGERS];
	unsigned long i, bad = 0;
	long ret;

	ret = shmem_load(d, count, cfg);
	if (ret)
		return SBI_ERR(ret);
	ret = install_plan(self, count, cfg, idx, &bad);
	if (ret)
		return SBI_RET(ret, bad);
	for (i = 0; i < count; i++) {
		if (!hw_program(idx[i], cfg[i][1], cfg[i][2], cfg[i][3])) {
			unsigned long j;

			hw_clear(idx[i], tdata1_type(cfg[i][1]));
			for (j = 0; j < i; j++)
				uninstall_one(d, idx[j]);
			return SBI_RET(SBI_ERR_NOT_SUPPORTED, i);
		}
		installed(d, idx[i], cfg[i][1]);
	}
	for (i = 0; i < count; i++)
		shmem_entry(d, i)[0] = idx[i];
	return SBI_RET(SBI_SUCCESS, 0);
}

/* An update keeps the installed trigger's type and chain bit. */
static long update_check(struct hart *self, unsigned long trig_idx, unsigned long tdata1)
{
	struct dbtr_hart *d = dbtr_of(self);
	unsigned long old;

	if (trig_idx >= d->trig_max)
		return SBI_ERR_INVALID_PARAM;
	if (!(d->state[trig_idx] & SBI_DBTR_STATE_MAPPED))
		return SBI_ERR_FAILED;
	old = d->tdata1[trig_idx];
	if (tdata1_type(tdata1) != tdata1_type(old) || is_chained(tdata1) != is_chained(old))
		return SBI_ERR_INVALID_PARAM;
	return tdata1_check(self, tdata1);
}

struct sbiret dbtr_update_triggers(struct hart *self, unsigned long count)
{
	struct dbtr_hart *d = dbtr_of(self);
	dbtr_config cfg[DBTR_MAX_TRIGGERS];
	unsigned long i;
	long ret;

	ret = shmem_load(d, count, cfg);
	if (ret)
		return SBI_ERR(ret);
	for (i = 0; i < count; i++) {
		ret = update_check(self, cfg[i][0], cfg[i][1]);
		if (ret)
			return SBI_RET(ret, i);
	}
	for (i = 0; i < count; i++) {
		unsigned int idx = (unsigned int)cfg[i][0];

		if (!hw_program(idx, cfg[i][1], cfg[i][2], cfg[i][3])) {
			/* The trigger stays installed, switched off. */
			installed(d, idx, d->tdata1[idx]);
			dbtr_enable_triggers(self, idx, 1, false);
			return SBI_RET(SBI_ERR_NOT_SUPPORTED, i);
		}
		installed(d, idx, cfg[i][1]);
	}
	return SBI_RET(SBI_SUCCESS, 0);
}

/* Every index of the set is a mapped trigger (checked before acting):
 * uninstall, enable and disable each give INVALID_PARAM for a trigger
 * "not mapped to any HW debug trigger" (their error tables), where
 * OpenSBI's enable and disable skip it and succeed (docs/SBI.md). */
static bool set_mapped(const struct dbtr_hart *d, unsigned long base, unsigned long mask)
{
	unsigned long bit;

	for (bit = 0; mask; bit++, mask >>= 1) {
		if (!(mask & 1))
			continue;
		if (base + bit < base || base + bit >= d->trig_max ||
		    !(d->state[base + bit] & SBI_DBTR_STATE_MAPPED))
			return false;
	}
	return true;
}

long dbtr_uninstall_triggers(struct hart *self, unsigned long base, unsigned long mask)
{
	struct dbtr_hart *d = dbtr_of(self);
	unsigned long bit;

	if (!set_mapped(d, base, mask))
		return SBI_ERR_INVALID_PARAM;
	for (bit = 0; mask; bit++, mask >>= 1)
		if (mask & 1)
			uninstall_one(d, (unsigned int)(base + bit));
	return SBI_SUCCESS;
}

/*
 * Enable: the saved vs/vu/s/u bits back into tdata1 (the installed tdata1
 * holds them).  Disable: the hardware trigger is switched off altogether
 * (its type, nothing enabled), so no match bit is left armed whatever a
 * trigger with no privilege enabled does on some hart; read_triggers
 * reports a disabled trigger's tdata1 as installed with vs/vu/s/u clear,
 * as the spec's disable describes.
 */
long dbtr_enable_triggers(struct hart *self, unsigned long base, unsigned long mask, bool on)
{
	struct dbtr_hart *d = dbtr_of(self);
	unsigned long bit;

	if (!set_mapped(d, base, mask))
		return SBI_ERR_INVALID_PARAM;
	for (bit = 0; mask; bit++, mask >>= 1) {
		unsigned int idx = (unsigned int)(base + bit);
		unsigned long t1 = d->tdata1[idx];

		if (!(mask & 1))
			continue;
		trig_write(CSR_TSELECT, idx);
		if (on) {
			trig_write(CSR_TDATA1, t1);
			d->disabled &= (uint8_t)~(1u << idx);
		} else {
			trig_write(CSR_TDATA1, (unsigned long)tdata1_type(t1) << TDATA1_TYPE_SHIFT);
			d->disabled |= (uint8_t)(1u << idx);
		}
	}
	trig_write(CSR_TSELECT, 0);
	return SBI_SUCCESS;
}

void dbtr_hart_reset(struct hart *self)
{
	struct dbtr_hart *d = &self->dbtr;
	unsigned int i;

	if (!d->probed)
		probe_types(d, self);
	for (i = 0; i < d->trig_max; i++)
		if (d->state[i] & SBI_DBTR_STATE_MAPPED)
			uninstall_one(d, i);
	d->shmem_on = false;
	d->shmem = 0;
}

bool dbtr_triggers_in_use(const struct hart *self)
{
	const struct dbtr_hart *d = &self->dbtr;
	unsigned int i;

	for (i = 0; i < d->trig_max; i++)
		if (d->state[i] & SBI_DBTR_STATE_MAPPED)
			return true;
	return false;
}
