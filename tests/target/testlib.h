/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Test registration and checks.  Each group file defines a table of tests
 * (data); the runner prints one PASS/FAIL line per test, or an INFO line for
 * a known deviation of the firmware named by bootargs `fw=` (such a test is
 * not run and counts neither way).
 */
#ifndef TARGET_TESTLIB_H
#define TARGET_TESTLIB_H

#include "rt.h"

/* Values the firmware under test must report (tracesbi's by default). */
#ifndef EXPECTED_IMPL_ID
#define EXPECTED_IMPL_ID 0x7ACE
#endif
#ifndef EXPECTED_IMPL_VERSION
#define EXPECTED_IMPL_VERSION 0x00000001   /* 0.1: major << 16 | minor (README) */
#endif
#ifndef EXPECTED_SPEC_MAJOR
#define EXPECTED_SPEC_MAJOR 3
#endif
#ifndef EXPECTED_SPEC_MINOR
#define EXPECTED_SPEC_MINOR 0
#endif

/* Known deviations of Debian's OpenSBI 1.1 (fw_jump) from what tracesbi
 * implements; each test names at most one.  Every one was confirmed with
 * bootargs check-deviations=1 (a deviating hart_start/suspend can lose a
 * hart there, so later tests of that run may fail). */
enum deviation {
	DEV_NONE = 0,
	DEV_OPENSBI_SPEC_VERSION,     /* reports SBI spec 1.0 */
	DEV_OPENSBI_IMPL_ID,          /* impl id 1 (OpenSBI) */
	DEV_OPENSBI_NO_DBCN,          /* DBCN is SBI 2.0, OpenSBI 1.1 lacks it */
	DEV_OPENSBI_HART_MASK,        /* ignores invalid harts in hart masks */
	DEV_OPENSBI_MASK_BASE,        /* requires a valid base with an empty mask */
	DEV_OPENSBI_START_ADDR,       /* accepts start addresses outside RAM */
	DEV_OPENSBI_SUSPEND_TYPES,    /* platform-specific suspend types */
	DEV_OPENSBI_LEGACY_A1,        /* clobbers a1 on unimplemented legacy EIDs */
	DEV_OPENSBI_RANGE_CHECK,      /* accepts fence ranges running past 2^64 */
	DEV_OPENSBI_SUSPEND_WAKES,    /* retentive suspend returns on its own
	                               * IPIs (a fence), which the spec allows */
	DEV_OPENSBI_PMU_LAYOUT,       /* counter 1 is time, 16 firmware counters */
	DEV_OPENSBI_PMU_FLAGS,        /* accepts reserved flag bits */
	DEV_OPENSBI_PMU_SETS,         /* empty and wrapping counter sets */
	DEV_OPENSBI_PMU_EVENT_RULES,  /* which events it takes, and where */
	DEV_OPENSBI_PMU_MATCHING,     /* counter choice, SKIP_MATCH */
	DEV_OPENSBI_PMU_QEMU_REMAINDER, /* QEMU 7.2's stale overflow remainder kept */
	DEV_OPENSBI_PMU_STATES,       /* ALREADY_STARTED/STOPPED in sets */
	DEV_OPENSBI_PMU_STOPPED_VALUE, /* a stopped HPM counter reads its start value */
	DEV_OPENSBI_PMU_SELF,         /* counts IPIs/fences to the caller as sent */
	DEV_OPENSBI_PMU_SUSPEND,      /* HPM counters stop over non-retentive suspend */
	DEV_OPENSBI_PMU_NO_SBI2,      /* PMU functions 0-5 only (SBI 0.3) */
	DEV_OPENSBI_PMU_EVENTS,       /* no tracesbi or platform firmware events */
	DEV_OPENSBI_NO_TRACESBI_EXT,  /* tracesbi's own extension (mhpmevent read-back) */
	DEV_OPENSBI_IMPL_VERSION,     /* OpenSBI's own version number */
	DEV_OPENSBI_NO_TRACE,         /* no emulated trace components (docs/TRACE.md) */
	DEV_OPENSBI_VECTORED_STVEC,   /* redirects to stvec with its MODE bit; QEMU
	                               * 7.2 keeps mepc[0], so Vectored goes to BASE+1 */
	DEV_OPENSBI_HS_TRAP_STATE,    /* a redirect from V=0 leaves hstatus.SPV/GVA and
	                               * htval stale (a bug) */
	DEV_OPENSBI_CLEAR_IPI_RESULT, /* legacy clear_ipi returns 0 with an IPI pending */
	DEV_OPENSBI_LEGACY_MASK_ALIGN, /* takes a misaligned legacy hart mask pointer */
	DEV_OPENSBI_ASID_WIDTH,       /* takes ASIDs wider than the hart's */
	DEV_COUNT
};

struct target_test {
	const char *name;
	void (*run)(void);
	enum deviation deviation;
};

struct test_group {
	const char *name;
	const struct target_test *tests;
	int count;
};

#define GROUP(gname, table) \
	const struct test_group group_##gname = { #gname, table, sizeof(table) / sizeof(table[0]) }

/* Checks: the first failure of a test is kept as its FAIL reason; a check
 * returns whether it held so a test can stop early. */
bool check_failed(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
#define CHECK(cond, ...) ((cond) ? true : check_failed(__VA_ARGS__))
/* An SBI error code equals the expected one. */
#define CHECK_ERR(got, want, ...) check_err((got), (want), __VA_ARGS__)
bool check_err(long got, long want, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* An unsigned value equals the expected one. */
bool check_eq(unsigned long got, unsigned long want, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
#define CHECK_EQ(got, want, ...) check_eq((got), (want), __VA_ARGS__)
/* The platform cannot exercise what the test checks (e.g. a layout the run's
 * -smp does not produce): the runner prints an INFO line saying why, which
 * counts neither as a pass nor as a failure.  A failed check still fails. */
void test_not_applicable(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Run state the tests consult. */
struct run_state {
	bool opensbi;          /* fw=opensbi */
	bool check_deviations; /* run deviating tests, report them as INFO */
	int expect_sstc;       /* -1: unknown, else 0/1 from bootargs */
	bool sstc;             /* stimecmp readable from S-mode */
	int expect_sscofpmf;   /* -1: unknown, else 0/1 from bootargs */
	bool no_reset;         /* no-reset=1: the board has no reset device, so no SRST */
	bool icount;           /* QEMU -icount: instret counts instructions */
	bool verbose;          /* print every failed check */
	bool secondaries_ok;   /* every secondary hart is started and parked */
};
extern struct run_state run;

/* Start the secondaries if needed; a failed check when that fails. */
bool need_secondaries(void);
/* Any other hart than the boot hart (the last one), or -1. */
long other_hart(int nth);
/* Table "HSM Hart Start/Resume Register State": what a hart found when it
 * entered secondary_entry (a0 = hartid, a1 = opaque, satp = 0,
 * sstatus.SIE = 0); `when` ends each failure text ("a0 <when>"). */
/* Stop secondary hart h (HSM hart_stop from its mailbox), start a stopped
 * one at secondary_entry with `opaque`, or both; failed checks when that
 * fails. */
bool stop_hart(unsigned long h);
bool start_hart(unsigned long h, unsigned long opaque);
bool restart_hart(unsigned long h, unsigned long opaque);
/* Each secondary still answers a call (after fences, IPIs, ...). */
void check_secondaries_alive(const char *after);
void check_entry_state(const struct hart_entry_info *e, unsigned long hartid,
		       unsigned long opaque, const char *when);

#endif
