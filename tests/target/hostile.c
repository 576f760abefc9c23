/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The hostile SBI caller (bootargs mode=hostile seed=N calls=N): every hart
 * makes a reproducible (seeded) random stream of SBI calls over every EID and
 * FID the firmware knows and unknown ones, with hostile arguments: firmware
 * memory, MMIO, past RAM, ranges straddling RAM's end or the firmware,
 * misaligned buffers, the top of the address space, non-canonical addresses,
 * huge counts, random hart masks and bases.  Only the calls that would end
 * or freeze the run are made harmless: no valid system reset type, no
 * hart_stop, no legacy shutdown, a wake-up timer armed before every suspend
 * and resume/start addresses inside S-mode RAM replaced by our own entries.
 *
 * Checked for every call: the return is a standard SBI error code (legacy
 * calls: an error or a byte), every GPR but a0/a1 (legacy: a0) is preserved,
 * and where the spec fixes the outcome, that outcome: unknown EIDs and FIDs
 * are NOT_SUPPORTED, buffers outside S-mode RAM are refused, hart_start of a
 * started hart fails, a non-retentive resume enters with a0 = hartid and
 * a1 = opaque.  After every batch: the firmware still answers, a canary
 * region of S-mode memory no call was given is intact, firmware memory
 * still faults, and (boot hart) every other hart still makes progress.
 * Every failure names the seed, the hart and the call.
 */
#include "testlib.h"

#define BATCH_CALLS          500
#define SCRATCH_SIZE         (64 * 1024)
#define CANARY_WORDS         (64 * 1024 / 8)
#define PROGRESS_TIMEOUT_US  10000000u    /* a hart making no call for 10 s hangs */
#define SUSPEND_WAKE_US      20u
#define PAGE_SIZE            4096ul

/* The register block of hostile_ecall.S. */
struct hostile_regs {
	unsigned long x[32];
	unsigned long sp;        /* frame sp at the call (the resume restores it) */
	unsigned long resumed;   /* 1: came back through a non-retentive resume,
	                          * 2: resumed with a wrong opaque */
};
void hostile_ecall(struct hostile_regs *r);
extern char hostile_resume_entry[];
/* Each hart's block, for the resume entry (it never trusts a1). */
struct hostile_regs *hostile_block[MAX_HARTS];

/* What the spec fixes about a call's outcome. */
enum expect {
	EXPECT_VALID,     /* any standard error code or SUCCESS */
	EXPECT_EXACT,     /* exactly `want` */
	EXPECT_ERROR,     /* any standard error code but SUCCESS */
	EXPECT_LEGACY,    /* legacy: an error code or a byte in a0, a1 preserved */
};

struct hostile_call {
	unsigned long eid, fid, a[6];
	enum expect expect;
	long want;
	bool suspend;          /* arm a wake-up timer first */
	bool address_check;    /* the expectation is about a refused address */
	bool mask_fault_ok;    /* legacy hart mask pointer: a load fault reading it
	                        * comes back to S-mode at the ecall */
	unsigned int ext;      /* index into ext_names (statistics) */
};

enum {
	EXT_BASE, EXT_LEGACY, EXT_TIME, EXT_IPI, EXT_RFENCE, EXT_HSM, EXT_SRST, EXT_PMU,
	EXT_DBCN, EXT_TRACESBI, EXT_UNKNOWN, EXT_FWFT, EXT_SUSP, EXT_DBTR, EXT_SSE, EXT_COUNT
};
static const char *const ext_names[EXT_COUNT] = {
	"base", "legacy", "time", "ipi", "rfence", "hsm", "srst", "pmu", "dbcn", "tracesbi",
	"unknown-eid", "fwft", "susp", "dbtr", "sse",
};

enum check {
	CHK_RETURN, CHK_REGS, CHK_ADDRESSES, CHK_RESUME, CHK_ANSWERS, CHK_CANARY,
	CHK_FW_FAULTS, CHK_PROGRESS, CHK_COUNT
};
static const char *const check_names[CHK_COUNT] = {
	"return_codes", "registers_preserved", "hostile_addresses_refused",
	"nonretentive_resume", "firmware_answers", "canary_intact",
	"firmware_memory_faults", "all_harts_progress",
};

struct hostile_hart {
	uint64_t rng;
	unsigned long hartid;
	volatile unsigned long progress;       /* calls made */
	volatile bool done;
	volatile bool lost;                    /* declared hung by the boot hart */
	struct hostile_call cur;               /* the call in flight */
	struct hostile_regs regs;
	unsigned long checked[CHK_COUNT], failed[CHK_COUNT];
	char first_failure[CHK_COUNT][200];
	unsigned long per_ext[EXT_COUNT];
	unsigned long per_error[16];           /* -error, 15: anything else */
	unsigned long retentive, resumed;
};

#define SBI_EXT_TRACESBI_FW       0x0A007ACE
#define SBI_TRACESBI_FAULT_INJECT 0x100
#define SBI_LEGACY_SHUTDOWN       0x08
#define SBI_SRST_MAX_TYPE         SBI_SRST_TYPE_WARM_REBOOT

static struct hostile_hart hharts[MAX_HARTS];
static unsigned long seed, calls_per_hart;
static uint8_t scratch[SCRATCH_SIZE] __attribute__((aligned(PAGE_SIZE)));
static uint64_t canary[CANARY_WORDS];
static const char dots[64] = "................................................................";

/* ---- randomness ---- */

/* splitmix64: every hart's stream depends only on the seed and its hartid. */
static uint64_t rnd(struct hostile_hart *h)
{
	uint64_t z = (h->rng += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static unsigned long pick(struct hostile_hart *h, unsigned long n)
{
	return (unsigned long)(rnd(h) % n);
}

static unsigned long hostile_value(struct hostile_hart *h)
{
	switch (pick(h, 12)) {
	case 0: return 0;
	case 1: return 1;
	case 2: return ~0ul;
	case 3: return 0x7fffffff;
	case 4: return 0x80000000ul;
	case 5: return 0xffffffffu;
	case 6: return 1ul << pick(h, 64);
	case 7: return 1ul << 63;
	case 8: return ~0ul >> 1;
	case 9: return pick(h, 16);
	default: return rnd(h);
	}
}

static unsigned long hostile_hartid(struct hostile_hart *h)
{
	switch (pick(h, 6)) {
	case 0: return h->hartid;
	case 1: return plat.max_hart_id + 1;
	case 2: return hostile_value(h);
	default: return plat.hart_ids[pick(h, (unsigned long)plat.nharts)];
	}
}

/* A hart mask and base: mostly real harts, sometimes base -1 (all harts,
 * SBI 2.0) or bases past every hart. */
static void hostile_mask(struct hostile_hart *h, unsigned long *mask, unsigned long *base)
{
	*mask = pick(h, 4) ? pick(h, 1ul << (plat.max_hart_id + 2)) : hostile_value(h);
	switch (pick(h, 6)) {
	case 0: *base = ~0ul; break;
	case 1: *base = hostile_value(h); break;
	case 2: *base = plat.max_hart_id + 1 + pick(h, 64); break;
	default: *base = pick(h, plat.max_hart_id + 1); break;
	}
}

/* ---- addresses ---- */

static bool overlaps(uint64_t lo, uint64_t len, uint64_t base, uint64_t size)
{
	return lo < base + size && base < lo + len;
}

/* [lo, lo + len) lies in S-mode RAM: inside RAM, no wrap, clear of the
 * firmware.  Other reserved regions: *unsure (the firmware may refuse). */
static bool smode_range_ok(uint64_t lo, uint64_t len, bool *unsure)
{
	int i;

	*unsure = false;
	if (!len || lo + len < lo || lo < plat.ram_base || lo + len > ram_end())
		return false;
	if (overlaps(lo, len, fw_base(), fw_end() - fw_base()))
		return false;
	for (i = 1; i < plat.nreserved; i++)
		if (overlaps(lo, len, plat.reserved_base[i], plat.reserved_size[i]))
			*unsure = true;
	return true;
}

static bool in_smode_ram(unsigned long addr)
{
	bool unsure;

	return smode_range_ok(addr, 1, &unsure);
}

/* A buffer of `len` bytes at `lo` (the caller divides len by an entry size
 * where it counts entries): valid ones lie in `valid_base`'s `valid_size`
 * bytes, the others are what an attacker would try. */
static void hostile_buffer(struct hostile_hart *h, uintptr_t valid_base, unsigned long valid_size,
			   unsigned long max_valid_len, unsigned long align, unsigned long *lo,
			   unsigned long *len)
{
	uint64_t fw_size = fw_end() - fw_base();
	unsigned long k = 1 + pick(h, 64);
	unsigned long small = 1 + pick(h, 64);
	static const unsigned long mmio[] = { 0x100000, 0x2000000, 0xc000000, 0x10000000,
					      0x30000000 };

	*len = small;
	switch (pick(h, 12)) {
	case 0: case 1: case 2:   /* valid */
		*len = 1 + pick(h, max_valid_len);
		*lo = valid_base + pick(h, (valid_size - *len) / align + 1) * align;
		return;
	case 3:   /* misaligned inside the valid region */
		*lo = valid_base + (align > 1 ? 1 + pick(h, align - 1) : 1);
		*len = 1 + pick(h, max_valid_len);
		return;
	case 4:   /* firmware memory */
		*lo = (fw_base() + pick(h, fw_size)) & ~(align - 1);
		if (pick(h, 2))
			*len = hostile_value(h);
		return;
	case 5:   /* straddles the firmware's end or start */
		if (pick(h, 2)) {
			*lo = (fw_end() - k) & ~(align - 1);
			*len = fw_end() - *lo + small;
		} else {
			*lo = (fw_base() - k) & ~(align - 1);
			*len = fw_base() - *lo + small;
		}
		return;
	case 6:   /* MMIO: test device, CLINT, PLIC, UART, PCIe, trace windows */
		*lo = mmio[pick(h, sizeof(mmio) / sizeof(mmio[0]))];
		if (plat.ntrace && pick(h, 2))
			*lo = plat.trace[pick(h, (unsigned long)plat.ntrace)].base;
		return;
	case 7:   /* past RAM */
		*lo = (ram_end() + pick(h, 1ul << 30)) & ~(align - 1);
		return;
	case 8:   /* straddles RAM's end */
		*lo = (ram_end() - k) & ~(align - 1);
		*len = ram_end() - *lo + small;
		return;
	case 9:   /* the top of the address space, wrapping lengths */
		*lo = (0ul - k) & ~(align - 1);
		if (pick(h, 2))
			*len = hostile_value(h);
		return;
	case 10:  /* non-canonical, or zero */
		*lo = pick(h, 2) ? ((1ul << 63) | (rnd(h) & ~(align - 1))) : 0;
		return;
	default:  /* a valid start with a huge length */
		*lo = valid_base;
		*len = (unsigned long)plat.ram_size + hostile_value(h);
		return;
	}
}

/* ---- call generators, one per extension ---- */

/* An FID past the extension's last one (also in the low 32 bits: a firmware
 * that decodes FIDs as 32-bit values must not find a real function). */
static unsigned long unknown_fid(struct hostile_hart *h, unsigned long nfids)
{
	unsigned long fid;

	do {
		switch (pick(h, 4)) {
		case 0: fid = nfids + pick(h, 4); break;
		case 1: fid = 0x7fffffff; break;
		case 2: fid = ~0ul - pick(h, 4); break;
		default: fid = rnd(h); break;
		}
	} while ((fid & 0xffffffffu) < nfids);
	return fid;
}

static void gen_exact(struct hostile_call *c, long want)
{
	c->expect = EXPECT_EXACT;
	c->want = want;
}

static void gen_args(struct hostile_hart *h, struct hostile_call *c)
{
	int i;

	for (i = 0; i < 6; i++)
		c->a[i] = hostile_value(h);
}

static void gen_base(struct hostile_hart *h, struct hostile_call *c)
{
	c->eid = SBI_EXT_BASE;
	c->fid = pick(h, 9);
	if (c->fid > SBI_BASE_GET_MIMPID) {
		c->fid = unknown_fid(h, SBI_BASE_GET_MIMPID + 1);
		gen_exact(c, SBI_ERR_NOT_SUPPORTED);
	}
}

static void gen_legacy(struct hostile_hart *h, struct hostile_call *c)
{
	unsigned long len;

	c->eid = pick(h, 16);
	if (c->eid == SBI_LEGACY_SHUTDOWN)
		c->eid = SBI_EXT_LEGACY_CONSOLE_GETCHAR;
	c->fid = rnd(h);   /* legacy calls ignore a6 */
	c->expect = EXPECT_LEGACY;
	if (c->eid == SBI_EXT_LEGACY_CONSOLE_PUTCHAR)
		c->a[0] = (rnd(h) & ~0xfful) | '.';
	else if (c->eid >= 0x04 && c->eid <= 0x07) {   /* hart mask pointers */
		hostile_buffer(h, (uintptr_t)scratch, SCRATCH_SIZE, 8, 8, &c->a[0], &len);
		c->mask_fault_ok = true;
	}
}

static void gen_time(struct hostile_hart *h, struct hostile_call *c)
{
	c->eid = SBI_EXT_TIME;
	if (pick(h, 8)) {
		c->fid = SBI_TIME_SET_TIMER;
		gen_exact(c, SBI_SUCCESS);
	} else {
		c->fid = unknown_fid(h, 1);
		gen_exact(c, SBI_ERR_NOT_SUPPORTED);
	}
}

static void gen_ipi(struct hostile_hart *h, struct hostile_call *c)
{
	c->eid = SBI_EXT_IPI;
	if (pick(h, 8)) {
		c->fid = SBI_IPI_SEND_IPI;
		hostile_mask(h, &c->a[0], &c->a[1]);
	} else {
		c->fid = unknown_fid(h, 1);
		gen_exact(c, SBI_ERR_NOT_SUPPORTED);
	}
}

static void gen_rfence(struct hostile_hart *h, struct hostile_call *c)
{
	c->eid = SBI_EXT_RFENCE;
	c->fid = pick(h, 8);
	if (c->fid > SBI_RFENCE_REMOTE_HFENCE_VVMA) {
		c->fid = unknown_fid(h, SBI_RFENCE_REMOTE_HFENCE_VVMA + 1);
		gen_exact(c, SBI_ERR_NOT_SUPPORTED);
		return;
	}
	hostile_mask(h, &c->a[0], &c->a[1]);
	if (pick(h, 3) == 0) {   /* a plausible range */
		c->a[2] = plat.ram_base + pick(h, plat.ram_size);
		c->a[3] = pick(h, 4) ? PAGE_SIZE << pick(h, 8) : ~0ul;
	}
}

static void gen_hsm(struct hostile_hart *h, struct hostile_call *c)
{
	static const unsigned long types[] = {
		SBI_HSM_SUSPEND_RET_DEFAULT, SBI_HSM_SUSPEND_NON_RET_DEFAULT, 0x00000001,
		0x0fffffff, 0x10000000, 0x7fffffff, 0x80000001, 0x8fffffff, 0x90000000,
		0xffffffff, 1ul << 32, (1ul << 32) | SBI_HSM_SUSPEND_NON_RET_DEFAULT,
	};
	unsigned long len, type;

	c->eid = SBI_EXT_HSM;
	switch (pick(h, 8)) {
	case 0: case 1:   /* every hart is started: a start must fail */
		c->fid = SBI_HSM_HART_START;
		c->a[0] = hostile_hartid(h);
		hostile_buffer(h, (uintptr_t)scratch, SCRATCH_SIZE, 4, 4, &c->a[1], &len);
		if (in_smode_ram(c->a[1]))
			c->a[1] = (uintptr_t)secondary_entry;
		c->expect = EXPECT_ERROR;
		return;
	case 2: case 3:   /* hart_stop would freeze the run: a status instead */
		c->fid = SBI_HSM_HART_GET_STATUS;
		c->a[0] = hostile_hartid(h);
		return;
	case 4: case 5: case 6:
		c->fid = SBI_HSM_HART_SUSPEND;
		type = pick(h, 3) ? types[pick(h, 2)] : types[pick(h, sizeof(types) / sizeof(types[0]))];
		if (pick(h, 16) == 0)
			type = rnd(h);
		c->a[0] = type;
		hostile_buffer(h, (uintptr_t)scratch, SCRATCH_SIZE, 4, 4, &c->a[1], &len);
		if (in_smode_ram(c->a[1]) || pick(h, 2))
			c->a[1] = (uintptr_t)hostile_resume_entry;
		c->a[2] = (uintptr_t)&h->regs;   /* opaque: the resume finds its block */
		c->suspend = true;
		/* ext-hsm.adoc, hart_suspend errors: reserved types are
		 * INVALID_PARAM; a non-retentive default suspend to an address
		 * S-mode cannot execute is INVALID_ADDRESS. */
		if (type == SBI_HSM_SUSPEND_RET_DEFAULT) {
			gen_exact(c, SBI_SUCCESS);
		} else if (type == SBI_HSM_SUSPEND_NON_RET_DEFAULT) {
			if (c->a[1] == (uintptr_t)hostile_resume_entry) {
				gen_exact(c, SBI_SUCCESS);
			} else {
				gen_exact(c, SBI_ERR_INVALID_ADDRESS);
				c->address_check = true;
			}
		} else if (type <= 0xffffffffu &&
			   ((type > 0 && type < 0x10000000) || (type > 0x80000000u && type < 0x90000000u))) {
			gen_exact(c, SBI_ERR_INVALID_PARAM);
		}
		return;
	default:
		c->fid = unknown_fid(h, SBI_HSM_HART_SUSPEND + 1);
		gen_exact(c, SBI_ERR_NOT_SUPPORTED);
		return;
	}
}

static void gen_srst(struct hostile_hart *h, struct hostile_call *c)
{
	unsigned long type;

	c->eid = SBI_EXT_SRST;
	if (pick(h, 4) == 0) {
		c->fid = unknown_fid(h, 1);
		gen_exact(c, SBI_ERR_NOT_SUPPORTED);
		return;
	}
	/* Never a real reset type, not even in the low 32 bits. */
	do {
		type = pick(h, 2) ? 3 + pick(h, 8) : hostile_value(h);
	} while ((type & 0xffffffffu) <= SBI_SRST_MAX_TYPE);
	c->fid = SBI_SRST_SYSTEM_RESET;
	c->a[0] = type;
	/* ext-sys-reset.adoc: a reserved type (3..0xEFFFFFFF) is INVALID_PARAM. */
	if (type < 0xf0000000u)
		gen_exact(c, SBI_ERR_INVALID_PARAM);
	else
		c->expect = EXPECT_ERROR;
}

/* Events: hardware, cache, raw, firmware (standard, tracesbi's, platform)
 * and random ones. */
static unsigned long hostile_event(struct hostile_hart *h)
{
	switch (pick(h, 8)) {
	case 0: return 1 + pick(h, 10);
	case 1: return 0x10000 | pick(h, 0x10000);
	case 2: return 0x20000;
	case 3: return 0xf0000 | pick(h, 22);
	case 4: return 0xf0000 | (256 + pick(h, 3));
	case 5: return 0xfffff;
	default: return hostile_value(h);
	}
}

static void gen_pmu_shmem(struct hostile_hart *h, struct hostile_call *c, unsigned long entry,
			  unsigned long max_entries)
{
	unsigned long lo, len, n_bad = 0;
	bool unsure, ok;

	hostile_buffer(h, (uintptr_t)scratch, SCRATCH_SIZE, entry * max_entries, entry, &lo, &len);
	c->a[0] = lo;
	c->a[1] = pick(h, 8) ? 0 : hostile_value(h);
	if (c->fid == SBI_PMU_SNAPSHOT_SET_SHMEM) {
		/* ext-pmu.adoc, snapshot_set_shmem: flags must be 0 and the
		 * page 4 KiB aligned (INVALID_PARAM), in memory S-mode can
		 * write (INVALID_ADDRESS); all-ones disables. */
		c->a[2] = pick(h, 8) ? 0 : hostile_value(h);
		if (pick(h, 10) == 0)
			c->a[0] = c->a[1] = ~0ul;
		if (c->a[0] == ~0ul && c->a[1] == ~0ul) {
			gen_exact(c, c->a[2] ? SBI_ERR_INVALID_PARAM : SBI_SUCCESS);
			return;
		}
		ok = smode_range_ok(c->a[0], PAGE_SIZE, &unsure);
		n_bad = !!c->a[2] + !!(c->a[0] & (PAGE_SIZE - 1)) + (!ok || c->a[1]);
		if (n_bad > 1) {
			c->expect = EXPECT_ERROR;
		} else if (c->a[2] || (c->a[0] & (PAGE_SIZE - 1))) {
			gen_exact(c, SBI_ERR_INVALID_PARAM);
		} else if (!ok || c->a[1]) {
			gen_exact(c, SBI_ERR_INVALID_ADDRESS);
			c->address_check = true;
		} else if (!unsure) {
			gen_exact(c, SBI_SUCCESS);
		}
		return;
	}
	/* event_get_info(lo, hi, num_entries, flags): 16-byte entries.  A
	 * table that does not lie in S-mode RAM must be refused. */
	c->a[2] = len / entry;
	c->a[3] = pick(h, 8) ? 0 : hostile_value(h);
	ok = c->a[2] && smode_range_ok(lo, c->a[2] * entry, &unsure) &&
	     c->a[2] <= ~0ul / entry;
	if (c->a[2] && (!ok || c->a[1])) {
		c->expect = EXPECT_ERROR;
		c->address_check = true;
	}
}

static void gen_pmu(struct hostile_hart *h, struct hostile_call *c)
{
	c->eid = SBI_EXT_PMU;
	c->fid = pick(h, 11);
	switch (c->fid) {
	case SBI_PMU_NUM_COUNTERS:
		gen_exact(c, SBI_SUCCESS);
		return;
	case SBI_PMU_COUNTER_CONFIG_MATCHING:
	case SBI_PMU_COUNTER_START:
	case SBI_PMU_COUNTER_STOP:
		/* Mostly real counter sets and small flag values. */
		c->a[0] = pick(h, 4) ? pick(h, 40) : hostile_value(h);
		c->a[1] = pick(h, 4) ? pick(h, 1ul << pick(h, 40)) : hostile_value(h);
		c->a[2] = pick(h, 2) ? pick(h, 8) : hostile_value(h);
		if (c->fid == SBI_PMU_COUNTER_CONFIG_MATCHING)
			c->a[3] = hostile_event(h);
		return;
	case SBI_PMU_SNAPSHOT_SET_SHMEM:
		gen_pmu_shmem(h, c, PAGE_SIZE, 1);
		return;
	case SBI_PMU_EVENT_GET_INFO:
		gen_pmu_shmem(h, c, 16, 256);
		return;
	case 9: case 10:
		c->fid = unknown_fid(h, SBI_PMU_EVENT_GET_INFO + 1);
		gen_exact(c, SBI_ERR_NOT_SUPPORTED);
		return;
	default:   /* get_info, fw_read, fw_read_hi: hostile indexes */
		c->a[0] = pick(h, 2) ? pick(h, 48) : hostile_value(h);
		return;
	}
}

static void gen_dbcn(struct hostile_hart *h, struct hostile_call *c)
{
	unsigned long lo, len;
	bool unsure, ok;

	c->eid = SBI_EXT_DBCN;
	c->fid = pick(h, 4);
	if (c->fid == SBI_DBCN_CONSOLE_WRITE_BYTE) {
		c->a[0] = (rnd(h) & ~0xfful) | '.';
		gen_exact(c, SBI_SUCCESS);
		return;
	}
	if (c->fid > SBI_DBCN_CONSOLE_WRITE_BYTE) {
		c->fid = unknown_fid(h, SBI_DBCN_CONSOLE_WRITE_BYTE + 1);
		gen_exact(c, SBI_ERR_NOT_SUPPORTED);
		return;
	}
	/* Valid writes print dots; valid reads land in the scratch area
	 * (QEMU's console has no input here). */
	if (c->fid == SBI_DBCN_CONSOLE_WRITE)
		hostile_buffer(h, (uintptr_t)dots, sizeof(dots), 16, 1, &lo, &len);
	else
		hostile_buffer(h, (uintptr_t)scratch, SCRATCH_SIZE, 64, 1, &lo, &len);
	c->a[0] = len;
	c->a[1] = lo;
	c->a[2] = pick(h, 8) ? 0 : hostile_value(h);
	/* ext-debug-console.adoc: a buffer S-mode cannot access is
	 * INVALID_PARAM. */
	ok = smode_range_ok(lo, len, &unsure);
	if (!ok || c->a[2]) {
		gen_exact(c, SBI_ERR_INVALID_PARAM);
		c->address_check = true;
	} else if (!unsure) {
		gen_exact(c, SBI_SUCCESS);
	}
}

static void gen_tracesbi(struct hostile_hart *h, struct hostile_call *c)
{
	c->eid = SBI_EXT_TRACESBI_FW;
	if (pick(h, 2)) {
		c->fid = 0;   /* mhpmevent read-back: hostile counter index */
		return;
	}
	/* Never the fault-injection FID (debug builds stop the machine). */
	do
		c->fid = unknown_fid(h, 1);
	while ((c->fid & 0xffffffffu) == SBI_TRACESBI_FAULT_INJECT);
	gen_exact(c, SBI_ERR_NOT_SUPPORTED);
}

static bool eid_known(unsigned long eid)
{
	static const unsigned long known[] = {
		SBI_EXT_BASE, SBI_EXT_TIME, SBI_EXT_IPI, SBI_EXT_RFENCE, SBI_EXT_HSM,
		SBI_EXT_SRST, SBI_EXT_PMU, SBI_EXT_DBCN, SBI_EXT_TRACESBI_FW,
		SBI_EXT_FWFT, SBI_EXT_SUSP, SBI_EXT_DBTR, SBI_EXT_SSE,
	};
	unsigned long low = eid & 0xffffffffu;
	size_t i;

	if (low <= 0x0f)
		return true;   /* legacy */
	for (i = 0; i < sizeof(known) / sizeof(known[0]); i++)
		if (low == known[i])
			return true;
	return false;
}

/* EIDs the firmware does not implement: random, next to real ones, in the
 * experimental, vendor and firmware-specific spaces, upper bits set. */
static void gen_unknown(struct hostile_hart *h, struct hostile_call *c)
{
	do {
		switch (pick(h, 6)) {
		case 0: c->eid = 0x08000000 + pick(h, 0x1000000); break;
		case 1: c->eid = 0x09000000 + pick(h, 0x1000000); break;
		case 2: c->eid = 0x0a000000 + pick(h, 0x1000000); break;
		case 3: c->eid = SBI_EXT_PMU + 1 - pick(h, 3) * 2 + (rnd(h) << 32); break;
		case 4: c->eid = (unsigned long)(long)(int32_t)rnd(h); break;
		default: c->eid = rnd(h); break;
		}
	} while (eid_known(c->eid));
	c->fid = hostile_value(h);
	gen_exact(c, SBI_ERR_NOT_SUPPORTED);
}

/* FWFT: every feature (reserved and platform ones: DENIED), hostile
 * values and flags.  A lock only lasts until the hart stops, which the
 * hostile caller never asks for. */
static void gen_fwft(struct hostile_hart *h, struct hostile_call *c)
{
	static const unsigned long denied[] = { 6, 0x3fffffff, 0x40000000, 0x80000000,
						0xc0000000, 0xffffffff };

	c->eid = SBI_EXT_FWFT;
	c->fid = pick(h, 5);
	if (c->fid > SBI_FWFT_GET) {
		c->fid = unknown_fid(h, SBI_FWFT_GET + 1);
		gen_exact(c, SBI_ERR_NOT_SUPPORTED);
		return;
	}
	if (pick(h, 3)) {
		c->a[0] = pick(h, 6) | (pick(h, 2) ? rnd(h) << 32 : 0);
	} else {
		c->a[0] = denied[pick(h, sizeof(denied) / sizeof(denied[0]))];
		gen_exact(c, SBI_ERR_DENIED);
	}
	c->a[1] = pick(h, 2) ? pick(h, 20) : hostile_value(h);
	c->a[2] = pick(h, 2) ? pick(h, 2) : hostile_value(h);
}

/* SUSP: the other harts are running, so no call may suspend the system:
 * DENIED, or the error of a bad type or resume address. */
static void gen_susp(struct hostile_hart *h, struct hostile_call *c)
{
	unsigned long len;

	c->eid = SBI_EXT_SUSP;
	if (pick(h, 8) == 0) {
		c->fid = unknown_fid(h, SBI_SUSP_SYSTEM_SUSPEND + 1);
		gen_exact(c, SBI_ERR_NOT_SUPPORTED);
		return;
	}
	c->fid = SBI_SUSP_SYSTEM_SUSPEND;
	c->a[0] = pick(h, 2) ? SBI_SUSP_SLEEP_TYPE_SUSPEND_TO_RAM : hostile_value(h);
	if (plat.nharts < 2)
		c->a[0] = 1;   /* alone, a valid call would really suspend */
	hostile_buffer(h, (uintptr_t)hostile_resume_entry, 4, 4, 4, &c->a[1], &len);
	c->expect = EXPECT_ERROR;
}

/* DBTR: each hart's own shared memory (or a hostile one), trigger
 * configurations with random bits, but never one that fires in S-mode
 * (s clear: U/VS/VU never run here), hostile indexes and masks. */
static unsigned long dbtr_area[MAX_HARTS][8][4] __attribute__((aligned(64)));

static unsigned long hostile_tdata1(struct hostile_hart *h)
{
	static const unsigned long types[] = { 2, 3, 6 };
	unsigned long t1 = rnd(h) & ~(0xful << 60);

	t1 |= (pick(h, 4) ? types[pick(h, 3)] : pick(h, 16)) << 60;
	t1 &= ~((1ul << 4) | (1ul << 7));   /* mcontrol(6).s, icount.s */
	if (pick(h, 2))
		t1 &= ~((1ul << 59) | (1ul << 6) | (1ul << 9) | (0x3ful << 12) | 0x3ful);
	if (pick(h, 2))
		t1 &= ~(1ul << 11);   /* not chained */
	return t1;
}

static void gen_dbtr(struct hostile_hart *h, struct hostile_call *c)
{
	unsigned long (*area)[4] = dbtr_area[hart_index(h->hartid)], len, i;

	c->eid = SBI_EXT_DBTR;
	c->fid = pick(h, 9);
	if (c->fid > SBI_DBTR_DISABLE_TRIGGERS) {
		c->fid = unknown_fid(h, SBI_DBTR_DISABLE_TRIGGERS + 1);
		gen_exact(c, SBI_ERR_NOT_SUPPORTED);
		return;
	}
	switch (c->fid) {
	case SBI_DBTR_SET_SHMEM:
		if (pick(h, 2)) {
			c->a[0] = (uintptr_t)area;
			c->a[1] = 0;
		} else {
			hostile_buffer(h, (uintptr_t)area, sizeof(dbtr_area[0]), 32, 8, &c->a[0],
				       &len);
			c->a[1] = pick(h, 4) ? 0 : hostile_value(h);
		}
		c->a[2] = pick(h, 4) ? 0 : hostile_value(h);
		break;
	case SBI_DBTR_INSTALL_TRIGGERS:
	case SBI_DBTR_UPDATE_TRIGGERS:
		for (i = 0; i < 8; i++) {
			area[i][0] = pick(h, 2) ? pick(h, 10) : hostile_value(h);
			area[i][1] = hostile_tdata1(h);
			area[i][2] = hostile_value(h);
			area[i][3] = pick(h, 2) ? 0 : hostile_value(h);
		}
		c->a[0] = pick(h, 2) ? pick(h, 9) : hostile_value(h);
		break;
	default:   /* num_triggers, read, uninstall, enable, disable */
		c->a[0] = pick(h, 2) ? pick(h, 10) : hostile_value(h);
		c->a[1] = pick(h, 2) ? pick(h, 256) : hostile_value(h);
		break;
	}
}

/*
 * SSE: hostile event IDs, attribute ranges and memory, injects on any
 * hart.  Every handler is sse_complete_stub (sse_entry.S), which
 * completes at once, so an event delivered here or on another hart (its
 * IPI, or LCOFI with the PMU event enabled) leaves every register as it
 * was; or an odd entry pc, which register refuses.
 */
static unsigned long sse_area[MAX_HARTS][SBI_SSE_ATTR_COUNT];
extern char sse_complete_stub[];
extern volatile unsigned long sse_stub_runs;

static unsigned long hostile_sse_event(struct hostile_hart *h)
{
	static const unsigned long ids[] = {
		SBI_SSE_EVENT_LOCAL_SOFTWARE, SBI_SSE_EVENT_GLOBAL_SOFTWARE,
		SBI_SSE_EVENT_LOCAL_PMU_OVERFLOW, SBI_SSE_EVENT_LOCAL_DOUBLE_TRAP,
		SBI_SSE_EVENT_GLOBAL_HIGH_PRIO_RAS, 0x2, 0x4000, 0xffff0001,
	};

	if (pick(h, 8) == 0)
		return hostile_value(h);
	return ids[pick(h, pick(h, 2) ? 2 : sizeof(ids) / sizeof(ids[0]))] |
	       (pick(h, 4) ? 0 : rnd(h) << 32);
}

/* read/write_attrs of a software event: a range that exists and memory
 * S-mode may not use must be INVALID_ADDRESS. */
static void gen_sse_attrs(struct hostile_hart *h, struct hostile_call *c)
{
	unsigned long *area = sse_area[hart_index(h->hartid)], lo, len, i;
	uint32_t id = (uint32_t)c->a[0];
	bool unsure;

	for (i = 0; i < SBI_SSE_ATTR_COUNT; i++)
		area[i] = pick(h, 2) ? pick(h, 4) : hostile_value(h);
	hostile_buffer(h, (uintptr_t)area, sizeof(sse_area[0]), 80, 8, &lo, &len);
	c->a[1] = pick(h, 4) ? pick(h, SBI_SSE_ATTR_COUNT + 1) : hostile_value(h);
	c->a[2] = (len + 7) / 8;
	c->a[3] = lo;
	c->a[4] = pick(h, 8) ? 0 : hostile_value(h);
	if ((id == SBI_SSE_EVENT_LOCAL_SOFTWARE || id == SBI_SSE_EVENT_GLOBAL_SOFTWARE) &&
	    (uint32_t)c->a[2] && (uint32_t)c->a[1] < SBI_SSE_ATTR_COUNT &&
	    (uint32_t)c->a[2] <= SBI_SSE_ATTR_COUNT - (uint32_t)c->a[1] &&
	    ((lo & 7) || c->a[4] || !smode_range_ok(lo, 8 * (uint32_t)c->a[2], &unsure))) {
		gen_exact(c, SBI_ERR_INVALID_ADDRESS);
		c->address_check = true;
	}
}

static void gen_sse(struct hostile_hart *h, struct hostile_call *c)
{
	c->eid = SBI_EXT_SSE;
	c->fid = pick(h, 11);
	if (c->fid > SBI_SSE_HART_MASK) {
		c->fid = unknown_fid(h, SBI_SSE_HART_MASK + 1);
		gen_exact(c, SBI_ERR_NOT_SUPPORTED);
		return;
	}
	c->a[0] = hostile_sse_event(h);
	switch (c->fid) {
	case SBI_SSE_READ_ATTRS:
	case SBI_SSE_WRITE_ATTRS:
		gen_sse_attrs(h, c);
		break;
	case SBI_SSE_REGISTER:
		c->a[1] = (uintptr_t)sse_complete_stub + (pick(h, 4) ? 0 : 1);
		c->a[2] = hostile_value(h);
		break;
	case SBI_SSE_INJECT:
		c->a[1] = pick(h, 4) ? plat.hart_ids[pick(h, (unsigned long)plat.nharts)]
				     : hostile_value(h);
		break;
	case SBI_SSE_COMPLETE:
		gen_exact(c, SBI_SUCCESS);   /* nothing runs between calls */
		break;
	default:
		break;
	}
}

struct generator {
	unsigned int ext, weight;
	void (*gen)(struct hostile_hart *h, struct hostile_call *c);
};

static const struct generator generators[] = {
	{ EXT_BASE, 4, gen_base },   { EXT_LEGACY, 3, gen_legacy },
	{ EXT_TIME, 3, gen_time },   { EXT_IPI, 5, gen_ipi },
	{ EXT_RFENCE, 8, gen_rfence }, { EXT_HSM, 8, gen_hsm },
	{ EXT_SRST, 2, gen_srst },   { EXT_PMU, 16, gen_pmu },
	{ EXT_DBCN, 4, gen_dbcn },   { EXT_TRACESBI, 2, gen_tracesbi },
	{ EXT_UNKNOWN, 5, gen_unknown },
	{ EXT_FWFT, 3, gen_fwft },   { EXT_SUSP, 2, gen_susp },
	{ EXT_DBTR, 4, gen_dbtr },   { EXT_SSE, 4, gen_sse },
};

static void generate_call(struct hostile_hart *h, struct hostile_call *c)
{
	unsigned int total = 0, r;
	size_t i;

	for (i = 0; i < sizeof(generators) / sizeof(generators[0]); i++)
		total += generators[i].weight;
	r = (unsigned int)pick(h, total);
	for (i = 0; r >= generators[i].weight; i++)
		r -= generators[i].weight;
	*c = (struct hostile_call){ .expect = EXPECT_VALID, .ext = generators[i].ext };
	gen_args(h, c);
	generators[i].gen(h, c);
}

/* ---- checks ---- */

static void describe_call(const struct hostile_call *c, char *buf, size_t size)
{
	ksnprintf(buf, size, "eid %#lx fid %#lx args %#lx %#lx %#lx %#lx %#lx %#lx", c->eid,
		  c->fid, c->a[0], c->a[1], c->a[2], c->a[3], c->a[4], c->a[5]);
}

static void hostile_fail(struct hostile_hart *h, enum check k, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void hostile_fail(struct hostile_hart *h, enum check k, const char *fmt, ...)
{
	char what[120], call[140];
	va_list ap;

	if (h->failed[k]++)
		return;
	va_start(ap, fmt);
	kvsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	describe_call(&h->cur, call, sizeof(call));
	ksnprintf(h->first_failure[k], sizeof(h->first_failure[k]),
		  "seed %lu hart %lu call %lu: %s (last call: %s)", seed, h->hartid, h->progress,
		  what, call);
}

static bool valid_error(long e)
{
	return e <= SBI_SUCCESS && e >= SBI_ERR_DENIED_LOCKED;
}

static void count_error(struct hostile_hart *h, long e)
{
	h->per_error[valid_error(e) ? -e : 15]++;
}

static void check_return(struct hostile_hart *h, const struct hostile_call *c, long e)
{
	h->checked[CHK_RETURN]++;
	switch (c->expect) {
	case EXPECT_LEGACY:
		if (!valid_error(e) && (e < 0 || e > 0xff))
			hostile_fail(h, CHK_RETURN, "legacy call returned %ld", e);
		return;
	case EXPECT_VALID:
		break;
	case EXPECT_ERROR:
		if (e == SBI_SUCCESS)
			hostile_fail(h, c->address_check ? CHK_ADDRESSES : CHK_RETURN,
				     "returned SUCCESS, expected an error");
		break;
	case EXPECT_EXACT:
		if (e != c->want)
			hostile_fail(h, c->address_check ? CHK_ADDRESSES : CHK_RETURN,
				     "returned %s, expected %s", sbi_error_name(e),
				     sbi_error_name(c->want));
		break;
	}
	if (!valid_error(e))
		hostile_fail(h, CHK_RETURN, "returned %ld, not an SBI error code", e);
	if (c->address_check)
		h->checked[CHK_ADDRESSES]++;
}

static void check_registers(struct hostile_hart *h, const struct hostile_regs *in,
			    const struct hostile_regs *out, bool legacy)
{
	int i;

	h->checked[CHK_REGS]++;
	if (out->x[2] != in->sp)
		hostile_fail(h, CHK_REGS, "sp %#lx after the call, was %#lx", out->x[2], in->sp);
	for (i = 1; i < 32; i++) {
		if (i == 2 || i == 10 || (i == 11 && !legacy))
			continue;
		if (out->x[i] != in->x[i]) {
			hostile_fail(h, CHK_REGS, "x%d %#lx after the call, was %#lx", i,
				     out->x[i], in->x[i]);
			return;
		}
	}
}

/* A non-retentive suspend came back through hostile_resume_entry: the
 * hart's S-mode state is gone (ext-hsm.adoc, resume register state). */
static void check_resume(struct hostile_hart *h, const struct hostile_regs *r)
{
	h->checked[CHK_RESUME]++;
	h->resumed++;
	csr_write(sscratch, h->hartid);
	trap_init_hart();
	if (r->resumed != 1)
		hostile_fail(h, CHK_RESUME, "resumed with a1 %#lx, not the opaque %#lx", r->x[11],
			     (unsigned long)r);
	if (r->x[10] != h->hartid)
		hostile_fail(h, CHK_RESUME, "resumed with a0 %#lx, not the hartid", r->x[10]);
	if (csr_read(satp) != 0 || (csr_read(sstatus) & SSTATUS_SIE))
		hostile_fail(h, CHK_RESUME, "resumed with satp %#lx sstatus %#lx",
			     csr_read(satp), csr_read(sstatus));
}

/* ext-legacy.adoc: a page or access fault reading a legacy hart mask is
 * redirected to S-mode at the ecall, every register (a0 too) as it was. */
static void check_mask_fault(struct hostile_hart *h, const struct hostile_call *c,
			     const struct hostile_regs *in)
{
	const struct trap_record *rec = trap_record_of(h->hartid);

	h->progress++;
	h->checked[CHK_RETURN]++;
	if (rec->cause != EXC_LOAD_ACCESS_FAULT && rec->cause != 13 /* load page fault */)
		hostile_fail(h, CHK_RETURN, "hart mask %#lx: cause %lu redirected", c->a[0],
			     rec->cause);
	else if (rec->tval - c->a[0] >= 8 * sizeof(unsigned long))
		hostile_fail(h, CHK_RETURN, "hart mask %#lx: stval %#lx", c->a[0], rec->tval);
	if (h->regs.x[10] != c->a[0])
		hostile_fail(h, CHK_REGS, "a0 %#lx at the redirected fault, was %#lx",
			     h->regs.x[10], c->a[0]);
	check_registers(h, in, &h->regs, true);
}

static void make_call(struct hostile_hart *h)
{
	struct hostile_call *c = &h->cur;
	struct hostile_regs in;
	int i;

	generate_call(h, c);
	for (i = 1; i < 32; i++)
		h->regs.x[i] = rnd(h);
	h->regs.x[17] = c->eid;
	h->regs.x[16] = c->fid;
	for (i = 0; i < 6; i++)
		h->regs.x[10 + i] = c->a[i];
	h->regs.resumed = 0;
	if (c->suspend) {
		csr_set(sie, SIE_STIE | SIE_SSIE);
		sbi_set_timer(read_time() + us_to_ticks(SUSPEND_WAKE_US));
	}
	in = h->regs;
	if (c->mask_fault_ok)
		fault_expect(false);
	hostile_ecall(&h->regs);
	in.sp = h->regs.sp;
	h->per_ext[c->ext]++;
	if (c->mask_fault_ok && fault_end(NULL, NULL)) {
		check_mask_fault(h, c, &in);
		return;
	}
	if (h->regs.resumed) {
		check_resume(h, &h->regs);
		count_error(h, SBI_SUCCESS);
		if (c->expect == EXPECT_EXACT && c->want != SBI_SUCCESS)
			hostile_fail(h, c->address_check ? CHK_ADDRESSES : CHK_RETURN,
				     "suspended and resumed, expected %s", sbi_error_name(c->want));
		h->progress++;
		return;
	}
	if (c->suspend && c->a[0] == SBI_HSM_SUSPEND_RET_DEFAULT && !h->regs.x[10])
		h->retentive++;
	count_error(h, (long)h->regs.x[10]);
	check_return(h, c, (long)h->regs.x[10]);
	check_registers(h, &in, &h->regs, c->expect == EXPECT_LEGACY);
	h->progress++;
}

static uint64_t canary_word(unsigned long i)
{
	return 0xca11ab1e00000000ull ^ (i * 0x9e3779b97f4a7c15ull);
}

static void batch_checks(struct hostile_hart *h)
{
	struct sbiret v = SBI0(SBI_EXT_BASE, SBI_BASE_GET_SPEC_VERSION);
	struct sbiret id = SBI0(SBI_EXT_BASE, SBI_BASE_GET_IMPL_ID);
	unsigned long i, cause;
	uint64_t val;

	h->checked[CHK_ANSWERS]++;
	if (v.error || v.value != (EXPECTED_SPEC_MAJOR << 24 | EXPECTED_SPEC_MINOR) ||
	    id.error || id.value != EXPECTED_IMPL_ID)
		hostile_fail(h, CHK_ANSWERS, "get_spec_version %ld/%#lx, get_impl_id %ld/%#lx",
			     v.error, v.value, id.error, id.value);
	h->checked[CHK_CANARY]++;
	for (i = 0; i < CANARY_WORDS; i++) {
		if (canary[i] != canary_word(i)) {
			hostile_fail(h, CHK_CANARY, "canary word %lu at %p is %#llx", i,
				     (void *)&canary[i], (unsigned long long)canary[i]);
			break;
		}
	}
	h->checked[CHK_FW_FAULTS]++;
	if (probe_load64(fw_base(), &val, &cause) || cause != EXC_LOAD_ACCESS_FAULT ||
	    probe_load64(fw_end() - 8, &val, &cause) || cause != EXC_LOAD_ACCESS_FAULT)
		hostile_fail(h, CHK_FW_FAULTS, "a load of firmware memory did not fault (cause %lu)",
			     cause);
}

/* ---- harts ---- */

static unsigned long progress_old;

static bool made_progress(unsigned long idx)
{
	return hharts[idx].progress != progress_old || hharts[idx].done;
}

/* Boot hart, after each of its batches: every other hart made a call since
 * the last look, or does within PROGRESS_TIMEOUT_US. */
static void check_others(struct hostile_hart *self, unsigned long *last)
{
	int i;

	for (i = 0; i < plat.nharts; i++) {
		struct hostile_hart *o = &hharts[plat.hart_ids[i] % MAX_HARTS];

		if (o == self || o->done || o->lost)
			continue;
		self->checked[CHK_PROGRESS]++;
		progress_old = last[i];
		if (!wait_for(made_progress, plat.hart_ids[i] % MAX_HARTS, PROGRESS_TIMEOUT_US)) {
			char call[140];
			struct sbiret st = sbi_hart_status(o->hartid);

			o->lost = true;
			describe_call(&o->cur, call, sizeof(call));
			hostile_fail(self, CHK_PROGRESS,
				     "hart %lu made no call for %u s after %lu calls (HSM status %ld/%ld, in: %s)",
				     o->hartid, PROGRESS_TIMEOUT_US / 1000000u, o->progress,
				     st.error, st.value, call);
		}
		last[i] = o->progress;
	}
}

static long hostile_run(unsigned long hartid)
{
	struct hostile_hart *h = &hharts[hartid % MAX_HARTS];
	unsigned long last[MAX_HARTS] = { 0 };
	unsigned long sie = csr_read(sie);
	unsigned long end;

	irq_disable();
	while (h->progress < calls_per_hart) {
		end = h->progress + BATCH_CALLS;
		if (end > calls_per_hart)
			end = calls_per_hart;
		while (h->progress < end)
			make_call(h);
		batch_checks(h);
		if (hartid == plat.boot_hart)
			check_others(h, last);
	}
	sbi_set_timer(UINT64_MAX);
	csr_clear(sip, SIP_SSIP);
	csr_write(sie, sie);
	h->done = true;
	return 0;
}

static bool all_done(unsigned long unused)
{
	int i;

	(void)unused;
	for (i = 0; i < plat.nharts; i++) {
		struct hostile_hart *o = &hharts[plat.hart_ids[i] % MAX_HARTS];

		if (!o->done && !o->lost)
			return false;
	}
	return true;
}

static void report(uint64_t ticks)
{
	unsigned long total = 0, per_ext[EXT_COUNT] = { 0 }, per_error[16] = { 0 };
	unsigned long checked[CHK_COUNT] = { 0 }, retentive = 0, resumed = 0;
	const char *first[CHK_COUNT] = { 0 };
	int i, k;

	for (i = 0; i < plat.nharts; i++) {
		struct hostile_hart *h = &hharts[plat.hart_ids[i] % MAX_HARTS];

		total += h->progress;
		retentive += h->retentive;
		resumed += h->resumed;
		for (k = 0; k < EXT_COUNT; k++)
			per_ext[k] += h->per_ext[k];
		for (k = 0; k < 16; k++)
			per_error[k] += h->per_error[k];
		for (k = 0; k < CHK_COUNT; k++) {
			checked[k] += h->checked[k];
			if (h->failed[k] && !first[k])
				first[k] = h->first_failure[k];
		}
	}
	kprintf("\nREPORT: hostile: seed %lu, %d harts, %lu calls in %lu ms of virtual time\n",
		seed, plat.nharts, total, (unsigned long)(ticks * 1000 / plat.timebase_hz));
	kprintf("REPORT: hostile: calls per extension:");
	for (k = 0; k < EXT_COUNT; k++)
		kprintf(" %s %lu", ext_names[k], per_ext[k]);
	kprintf("\nREPORT: hostile: returns:");
	for (k = 0; k < 15; k++)
		if (per_error[k])
			kprintf(" %s %lu", sbi_error_name(-k), per_error[k]);
	kprintf(" other %lu\n", per_error[15]);
	kprintf("REPORT: hostile: retentive suspends %lu, non-retentive suspends resumed %lu, "
		"SSE events delivered %lu\n", retentive, resumed, sse_stub_runs);
	for (k = 0; k < CHK_COUNT; k++) {
		if (first[k])
			kprintf("FAIL: hostile/%s: %s\n", check_names[k], first[k]);
		else if (!checked[k] && !(k == CHK_PROGRESS && plat.nharts < 2))
			kprintf("FAIL: hostile/%s: never checked (seed %lu)\n", check_names[k], seed);
		else
			kprintf("PASS: hostile/%s (%lu checks)\n", check_names[k], checked[k]);
	}
}

void hostile_main(void);
void hostile_main(void)
{
	uint64_t start;
	unsigned long i;
	int j;
	char why[120];

	seed = bootarg_ulong("seed", 1);
	calls_per_hart = (bootarg_ulong("calls", 100000) + (unsigned long)plat.nharts - 1) /
			 (unsigned long)plat.nharts;
	kprintf("hostile: seed %lu, %lu calls on each of %d harts\n", seed, calls_per_hart,
		plat.nharts);
	for (i = 0; i < CANARY_WORDS; i++)
		canary[i] = canary_word(i);
	for (j = 0; j < plat.nharts; j++) {
		unsigned long id = plat.hart_ids[j];
		struct hostile_hart *h = &hharts[id % MAX_HARTS];

		h->hartid = id;
		h->rng = seed * 0x2545f4914f6cdd1dull ^ (id + 1) * 0x9e3779b97f4a7c15ull;
		hostile_block[id % MAX_HARTS] = &h->regs;
	}
	if (plat.nharts > 1 && !secondaries_start_all(why, sizeof(why))) {
		kprintf("FAIL: hostile/start_harts: %s (seed %lu)\n", why, seed);
		kprintf("DONE: hostile\n");
		sbi_shutdown();
	}
	start = read_time();
	for (j = 0; j < plat.nharts; j++)
		if (plat.hart_ids[j] != plat.boot_hart)
			hart_post(plat.hart_ids[j], hostile_run, plat.hart_ids[j]);
	hostile_run(plat.boot_hart);
	if (!wait_for(all_done, 0, PROGRESS_TIMEOUT_US * 3))
		hostile_fail(&hharts[plat.boot_hart % MAX_HARTS], CHK_PROGRESS,
			     "the other harts did not finish");
	report(read_time() - start);
	kprintf("DONE: hostile\n");
	sbi_shutdown();
}
