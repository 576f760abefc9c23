/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * DBTR extension (ext-debug-triggers.adoc): num_triggers, the shared
 * memory rules, install / update / uninstall / enable / disable with
 * execute breakpoints that really fire in S-mode (the breakpoint exception
 * is S-mode's), read_triggers' state words, every error code, all or
 * nothing installs, per-hart triggers and their reset on hart stop.
 * OpenSBI 1.1 has no DBTR (SBI 3.0): INFO there.
 */
#include "testlib.h"

#define TDATA1_TYPE_SHIFT 60
#define TDATA1_DMODE      (1ul << 59)
#define MC_U        (1ul << 3)
#define MC_S        (1ul << 4)
#define MC_M        (1ul << 6)
#define MC_EXECUTE  (1ul << 2)
#define MC_LOAD     (1ul << 0)
#define MC_CHAIN    (1ul << 11)
#define MC_ACTION(a) ((unsigned long)(a) << 12)
#define OPAQUE_DBTR 0x44425452ul

static unsigned long shmem[16][4] __attribute__((aligned(64)));
static unsigned long trig_max;
static unsigned long trig_type;   /* 6 (mcontrol6) where the harts have it, else 2 */

static struct sbiret dbtr(unsigned long fid, unsigned long a0, unsigned long a1,
			  unsigned long a2)
{
	return SBI3(SBI_EXT_DBTR, fid, a0, a1, a2);
}

static unsigned long exec_tdata1(unsigned long extra)
{
	return trig_type << TDATA1_TYPE_SHIFT | MC_S | MC_EXECUTE | extra;
}

/* The extension, its trigger count and the type the tests use. */
static bool dbtr_ready(void)
{
	struct sbiret r = sbi_probe(SBI_EXT_DBTR);

	if (r.value != 1) {
		if (run.opensbi)
			test_not_applicable("OpenSBI 1.1 has no DBTR extension (SBI 3.0)");
		else
			check_failed("probe_extension(DBTR) returned %ld", r.value);
		return false;
	}
	trig_max = (unsigned long)dbtr(SBI_DBTR_NUM_TRIGGERS, 0, 0, 0).value;
	trig_type = 6;
	if (dbtr(SBI_DBTR_NUM_TRIGGERS, exec_tdata1(0), 0, 0).value == 0)
		trig_type = 2;
	if (!CHECK(trig_max >= 1 && trig_max <= 16, "num_triggers(0) = %lu", trig_max))
		return false;
	return CHECK_ERR(dbtr(SBI_DBTR_SET_SHMEM, (uintptr_t)shmem, 0, 0).error, SBI_SUCCESS,
			 "set_shmem(%p)", (void *)shmem);
}

/* Each installed trigger (a set with an unmapped one is refused whole). */
static void uninstall_all(void)
{
	unsigned long i;

	for (i = 0; i < trig_max; i++)
		dbtr(SBI_DBTR_UNINSTALL_TRIGGERS, i, 1, 0);
}

/* The code the execute triggers watch. */
static long __attribute__((noinline)) watched_a(long x) { __asm__ volatile(""); return x + 1; }
static long __attribute__((noinline)) watched_b(long x) { __asm__ volatile(""); return x + 2; }
static long (*volatile call_a)(long) = watched_a;
static long (*volatile call_b)(long) = watched_b;

/* Call fn; whether a breakpoint stopped it at its first instruction. */
static bool breaks_at(long (*fn)(long))
{
	unsigned long cause = 0, tval;
	struct trap_record *rec = trap_record_of(current_hart());

	fault_expect(true);
	fn(1);
	if (!fault_end(&cause, &tval))
		return false;
	CHECK_EQ(cause, EXC_BREAKPOINT, "scause of the trigger's exception");
	CHECK_EQ(rec->epc, (uintptr_t)fn, "sepc of the trigger's exception");
	return cause == EXC_BREAKPOINT;
}

/* Install one execute breakpoint on fn; its trig_idx, or -1. */
static long install_on(long (*fn)(long))
{
	struct sbiret r;

	shmem[0][0] = 0xdead;
	shmem[0][1] = exec_tdata1(0);
	shmem[0][2] = (uintptr_t)fn;
	shmem[0][3] = 0;
	r = dbtr(SBI_DBTR_INSTALL_TRIGGERS, 1, 0, 0);
	if (!CHECK_ERR(r.error, SBI_SUCCESS, "install_triggers(execute %p)", (void *)fn))
		return -1;
	CHECK_EQ(r.value, 0, "install_triggers value on success");
	CHECK(shmem[0][0] < trig_max, "trig_idx written back: %#lx", shmem[0][0]);
	return (long)shmem[0][0];
}

static void probe_dbtr(void)
{
	dbtr_ready();
}

static void num_triggers(void)
{
	unsigned long n2, n6;

	if (!dbtr_ready())
		return;
	n2 = (unsigned long)dbtr(SBI_DBTR_NUM_TRIGGERS, 2ul << TDATA1_TYPE_SHIFT | MC_S |
				 MC_EXECUTE, 0, 0).value;
	n6 = (unsigned long)dbtr(SBI_DBTR_NUM_TRIGGERS, 6ul << TDATA1_TYPE_SHIFT | MC_S |
				 MC_EXECUTE, 0, 0).value;
	CHECK(n2 <= trig_max && n6 <= trig_max && (n2 || n6),
	      "num_triggers: mcontrol %lu, mcontrol6 %lu of %lu", n2, n6, trig_max);
	CHECK_EQ(dbtr(SBI_DBTR_NUM_TRIGGERS, exec_tdata1(MC_M), 0, 0).value, 0,
		 "num_triggers(m = 1): no trigger takes it");
	CHECK_EQ(dbtr(SBI_DBTR_NUM_TRIGGERS, 15ul << TDATA1_TYPE_SHIFT, 0, 0).value, 0,
		 "num_triggers(type 15)");
}

static void set_shmem_errors(void)
{
	if (!dbtr_ready())
		return;
	CHECK_ERR(dbtr(SBI_DBTR_SET_SHMEM, (uintptr_t)shmem, 0, 1).error, SBI_ERR_INVALID_PARAM,
		  "set_shmem(flags 1)");
	CHECK_ERR(dbtr(SBI_DBTR_SET_SHMEM, (uintptr_t)shmem + 4, 0, 0).error,
		  SBI_ERR_INVALID_PARAM, "set_shmem(4-byte aligned)");
	CHECK_ERR(dbtr(SBI_DBTR_SET_SHMEM, fw_base(), 0, 0).error, SBI_ERR_INVALID_ADDRESS,
		  "set_shmem(firmware)");
	CHECK_ERR(dbtr(SBI_DBTR_SET_SHMEM, ram_end() - 8, 0, 0).error, SBI_ERR_INVALID_ADDRESS,
		  "set_shmem(straddling the end of RAM)");
	CHECK_ERR(dbtr(SBI_DBTR_SET_SHMEM, (uintptr_t)shmem, 1, 0).error, SBI_ERR_INVALID_ADDRESS,
		  "set_shmem(hi = 1)");
	CHECK_ERR(dbtr(SBI_DBTR_SET_SHMEM, -1ul, -1ul, 0).error, SBI_SUCCESS,
		  "set_shmem(-1, -1): disable");
	CHECK_ERR(dbtr(SBI_DBTR_READ_TRIGGERS, 0, 1, 0).error, SBI_ERR_NO_SHMEM,
		  "read_triggers without shared memory");
	CHECK_ERR(dbtr(SBI_DBTR_INSTALL_TRIGGERS, 1, 0, 0).error, SBI_ERR_NO_SHMEM,
		  "install_triggers without shared memory");
	CHECK_ERR(dbtr(SBI_DBTR_UPDATE_TRIGGERS, 1, 0, 0).error, SBI_ERR_NO_SHMEM,
		  "update_triggers without shared memory");
}

static void bad_ranges(void)
{
	if (!dbtr_ready())
		return;
	CHECK_ERR(dbtr(SBI_DBTR_READ_TRIGGERS, trig_max, 1, 0).error, SBI_ERR_BAD_RANGE,
		  "read_triggers(base = trig_max)");
	CHECK_ERR(dbtr(SBI_DBTR_READ_TRIGGERS, 1, trig_max, 0).error, SBI_ERR_BAD_RANGE,
		  "read_triggers(1, trig_max)");
	CHECK_ERR(dbtr(SBI_DBTR_READ_TRIGGERS, 0, trig_max, 0).error, SBI_SUCCESS,
		  "read_triggers(every trigger)");
	CHECK_ERR(dbtr(SBI_DBTR_INSTALL_TRIGGERS, trig_max + 1, 0, 0).error, SBI_ERR_BAD_RANGE,
		  "install_triggers(trig_max + 1)");
	CHECK_ERR(dbtr(SBI_DBTR_UPDATE_TRIGGERS, -1ul, 0, 0).error, SBI_ERR_BAD_RANGE,
		  "update_triggers(-1)");
}

/* A breakpoint S-mode installs fires in S-mode; read_triggers shows it. */
static void install_fires_and_reads_back(void)
{
	long idx;

	if (!dbtr_ready())
		return;
	CHECK(!breaks_at(call_a), "a breakpoint before any install");
	idx = install_on(call_a);
	if (idx < 0)
		return;
	CHECK(breaks_at(call_a), "the installed execute trigger did not fire");
	CHECK(!breaks_at(call_b), "a breakpoint on code the trigger does not watch");
	if (CHECK_ERR(dbtr(SBI_DBTR_READ_TRIGGERS, (unsigned long)idx, 1, 0).error, SBI_SUCCESS,
		      "read_triggers(%ld, 1)", idx)) {
		/* have_hw_trig 0 (docs/SBI.md), so no hw_trig_idx either. */
		CHECK_EQ(shmem[0][0], SBI_DBTR_STATE_MAPPED | SBI_DBTR_STATE_S, "trig_state");
		CHECK_EQ(shmem[0][1] >> TDATA1_TYPE_SHIFT, trig_type, "tdata1.type read back");
		CHECK_EQ(shmem[0][1] & (MC_S | MC_EXECUTE), MC_S | MC_EXECUTE, "tdata1 S/execute");
		CHECK_EQ(shmem[0][2], (uintptr_t)call_a, "tdata2 read back");
	}
	uninstall_all();
}

/* A trigger fires only in the modes S-mode enabled: U only, not in S. */
static void u_only_not_in_s(void)
{
	struct sbiret r;

	if (!dbtr_ready())
		return;
	shmem[0][1] = trig_type << TDATA1_TYPE_SHIFT | MC_U | MC_EXECUTE;
	shmem[0][2] = (uintptr_t)call_a;
	shmem[0][3] = 0;
	r = dbtr(SBI_DBTR_INSTALL_TRIGGERS, 1, 0, 0);
	if (!CHECK_ERR(r.error, SBI_SUCCESS, "install_triggers(execute, U only)"))
		return;
	CHECK(!breaks_at(call_a), "a trigger for U-mode fired in S-mode");
	uninstall_all();
}

static void disable_enable(void)
{
	long idx;

	if (!dbtr_ready() || (idx = install_on(call_a)) < 0)
		return;
	CHECK_ERR(dbtr(SBI_DBTR_DISABLE_TRIGGERS, (unsigned long)idx, 1, 0).error, SBI_SUCCESS,
		  "disable_triggers(%ld)", idx);
	CHECK(!breaks_at(call_a), "a disabled trigger fired");
	dbtr(SBI_DBTR_READ_TRIGGERS, (unsigned long)idx, 1, 0);
	CHECK_EQ(shmem[0][1] & (MC_S | MC_U), 0, "tdata1 S/U of a disabled trigger");
	CHECK_EQ(shmem[0][0], SBI_DBTR_STATE_MAPPED | SBI_DBTR_STATE_S,
		 "trig_state of a disabled trigger: mapped, s kept");
	CHECK_ERR(dbtr(SBI_DBTR_ENABLE_TRIGGERS, (unsigned long)idx, 1, 0).error, SBI_SUCCESS,
		  "enable_triggers(%ld)", idx);
	CHECK(breaks_at(call_a), "the re-enabled trigger did not fire");
	uninstall_all();
}

static void update_moves_trigger(void)
{
	long idx;
	struct sbiret r;

	if (!dbtr_ready() || (idx = install_on(call_a)) < 0)
		return;
	shmem[0][0] = (unsigned long)idx;
	shmem[0][1] = exec_tdata1(0);
	shmem[0][2] = (uintptr_t)call_b;
	shmem[0][3] = 0;
	r = dbtr(SBI_DBTR_UPDATE_TRIGGERS, 1, 0, 0);
	CHECK_ERR(r.error, SBI_SUCCESS, "update_triggers(%ld -> %p)", idx, (void *)call_b);
	CHECK(!breaks_at(call_a), "the old address still breaks after the update");
	CHECK(breaks_at(call_b), "the new address does not break after the update");
	/* Type must stay, the index must be installed and exist. */
	shmem[0][1] = (trig_type == 6 ? 2ul : 6ul) << TDATA1_TYPE_SHIFT | MC_S | MC_EXECUTE;
	r = dbtr(SBI_DBTR_UPDATE_TRIGGERS, 1, 0, 0);
	CHECK_ERR(r.error, SBI_ERR_INVALID_PARAM, "update_triggers(other type)");
	shmem[0][1] = exec_tdata1(MC_CHAIN);
	CHECK_ERR(dbtr(SBI_DBTR_UPDATE_TRIGGERS, 1, 0, 0).error, SBI_ERR_INVALID_PARAM,
		  "update_triggers(chain changed)");
	shmem[0][1] = exec_tdata1(0);
	shmem[0][0] = trig_max;
	CHECK_ERR(dbtr(SBI_DBTR_UPDATE_TRIGGERS, 1, 0, 0).error, SBI_ERR_INVALID_PARAM,
		  "update_triggers(trig_idx = trig_max)");
	uninstall_all();
	shmem[0][0] = (unsigned long)idx;
	CHECK_ERR(dbtr(SBI_DBTR_UPDATE_TRIGGERS, 1, 0, 0).error, SBI_ERR_FAILED,
		  "update_triggers(uninstalled %ld)", idx);
}

static void uninstall_and_set_errors(void)
{
	long idx;

	if (!dbtr_ready() || (idx = install_on(call_a)) < 0)
		return;
	CHECK_ERR(dbtr(SBI_DBTR_UNINSTALL_TRIGGERS, (unsigned long)idx, 1, 0).error,
		  SBI_SUCCESS, "uninstall_triggers(%ld)", idx);
	CHECK(!breaks_at(call_a), "an uninstalled trigger fired");
	dbtr(SBI_DBTR_READ_TRIGGERS, (unsigned long)idx, 1, 0);
	CHECK_EQ(shmem[0][0], 0, "trig_state after uninstall");
	CHECK_ERR(dbtr(SBI_DBTR_UNINSTALL_TRIGGERS, (unsigned long)idx, 1, 0).error,
		  SBI_ERR_INVALID_PARAM, "uninstall_triggers(%ld) again", idx);
	CHECK_ERR(dbtr(SBI_DBTR_ENABLE_TRIGGERS, (unsigned long)idx, 1, 0).error,
		  SBI_ERR_INVALID_PARAM, "enable_triggers(unmapped %ld)", idx);
	CHECK_ERR(dbtr(SBI_DBTR_DISABLE_TRIGGERS, trig_max, 1, 0).error, SBI_ERR_INVALID_PARAM,
		  "disable_triggers(trig_max)");
	CHECK_ERR(dbtr(SBI_DBTR_UNINSTALL_TRIGGERS, -1ul, 2, 0).error, SBI_ERR_INVALID_PARAM,
		  "uninstall_triggers(base -1, wrapping)");
	CHECK_ERR(dbtr(SBI_DBTR_ENABLE_TRIGGERS, 0, 0, 0).error, SBI_SUCCESS,
		  "enable_triggers(empty mask)");
}

/* Every configuration is checked before any is installed: the failing
 * index in value, nothing installed. */
static void install_invalid_configs(void)
{
	static const struct { unsigned long t1; long want; const char *what; } bad[] = {
		{ MC_M, SBI_ERR_INVALID_PARAM, "m = 1" },
		{ TDATA1_DMODE, SBI_ERR_INVALID_PARAM, "dmode = 1" },
		{ MC_ACTION(1), SBI_ERR_INVALID_PARAM, "action = debug mode" },
		{ MC_ACTION(8), SBI_ERR_INVALID_PARAM, "reserved action" },
		{ MC_CHAIN, SBI_ERR_INVALID_PARAM, "last entry chained" },
	};
	size_t i;
	struct sbiret r;

	if (!dbtr_ready())
		return;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		shmem[0][1] = exec_tdata1(0);
		shmem[0][2] = (uintptr_t)call_a;
		shmem[0][3] = 0;
		shmem[1][1] = exec_tdata1(bad[i].t1);
		shmem[1][2] = (uintptr_t)call_b;
		shmem[1][3] = 0;
		r = dbtr(SBI_DBTR_INSTALL_TRIGGERS, 2, 0, 0);
		CHECK_ERR(r.error, bad[i].want, "install_triggers(ok, %s)", bad[i].what);
		CHECK_EQ(r.value, 1, "install_triggers(ok, %s): failing index", bad[i].what);
		CHECK(!breaks_at(call_a), "install_triggers(ok, %s) installed entry 0",
		      bad[i].what);
	}
	shmem[0][1] = 15ul << TDATA1_TYPE_SHIFT;
	r = dbtr(SBI_DBTR_INSTALL_TRIGGERS, 1, 0, 0);
	CHECK_ERR(r.error, SBI_ERR_INVALID_PARAM, "install_triggers(type 15)");
	CHECK_EQ(r.value, 0, "install_triggers(type 15): failing index");
	uninstall_all();
}

/* trig_max triggers fit, one more does not (FAILED at that index). */
static void install_until_full(void)
{
	unsigned long i;
	struct sbiret r;

	if (!dbtr_ready())
		return;
	for (i = 0; i < trig_max; i++) {
		shmem[i][1] = exec_tdata1(0);
		shmem[i][2] = (uintptr_t)call_a + 64 * i;
		shmem[i][3] = 0;
	}
	r = dbtr(SBI_DBTR_INSTALL_TRIGGERS, trig_max, 0, 0);
	CHECK_ERR(r.error, SBI_SUCCESS, "install_triggers(%lu)", trig_max);
	shmem[0][1] = exec_tdata1(0);
	shmem[0][2] = (uintptr_t)call_b;
	r = dbtr(SBI_DBTR_INSTALL_TRIGGERS, 1, 0, 0);
	CHECK_ERR(r.error, SBI_ERR_FAILED, "install_triggers with every trigger taken");
	CHECK_EQ(r.value, 0, "install_triggers with every trigger taken: failing index");
	CHECK_ERR(dbtr(SBI_DBTR_UNINSTALL_TRIGGERS, 0, (1ul << trig_max) - 1, 0).error,
		  SBI_SUCCESS, "uninstall_triggers(all)");
}

static void unknown_fid(void)
{
	if (!dbtr_ready())
		return;
	CHECK_ERR(SBI0(SBI_EXT_DBTR, 8).error, SBI_ERR_NOT_SUPPORTED, "DBTR FID 8");
}

/* ---- per hart, reset on hart stop ---- */

static unsigned long secondary_shmem[16][4] __attribute__((aligned(64)));

/* On a secondary: shared memory of its own, every trigger installed. */
static long install_all_call(unsigned long arg)
{
	unsigned long i;

	(void)arg;
	if (dbtr(SBI_DBTR_SET_SHMEM, (uintptr_t)secondary_shmem, 0, 0).error)
		return -1;
	for (i = 0; i < trig_max; i++) {
		secondary_shmem[i][1] = exec_tdata1(0);
		secondary_shmem[i][2] = (uintptr_t)call_b;
		secondary_shmem[i][3] = 0;
	}
	return dbtr(SBI_DBTR_INSTALL_TRIGGERS, trig_max, 0, 0).error;
}

/* After a restart: no shared memory (NO_SHMEM), then every trigger free. */
static long after_reset_call(unsigned long arg)
{
	long e = dbtr(SBI_DBTR_READ_TRIGGERS, 0, 1, 0).error;

	(void)arg;
	if (e != SBI_ERR_NO_SHMEM)
		return 1000 + e;
	e = install_all_call(0);
	uninstall_all();
	return e;
}

static void per_hart_and_reset_on_stop(void)
{
	long h = other_hart(0), result = -1;

	if (!dbtr_ready() || !need_secondaries())
		return;
	if (install_on(call_a) < 0)
		return;
	if (CHECK(hart_call((unsigned long)h, install_all_call, 0, 2000000, &result),
		  "hart %ld hangs", h))
		CHECK_ERR(result, SBI_SUCCESS, "hart %ld installs all its triggers while the "
			  "boot hart holds one", h);
	CHECK(breaks_at(call_a), "the boot hart's trigger after hart %ld installed", h);
	uninstall_all();
	if (!restart_hart((unsigned long)h, OPAQUE_DBTR))
		return;
	if (CHECK(hart_call((unsigned long)h, after_reset_call, 0, 2000000, &result),
		  "hart %ld hangs", h))
		CHECK_EQ(result, 0, "hart %ld after its reset (1000 + error: read_triggers "
			 "had shared memory)", h);
}

/* Arbitration (docs/SBI.md): triggers S-mode installed stay its own: a trace
 * start on that hart is refused and says why, and the trigger still fires. */
#define TE_CONTROL          0x000u
#define TE_ACTIVE           (1u << 0)
#define TE_ENABLE           (1u << 1)
#define TE_INST_TRACING     (1u << 2)
#define TE_MODE_HTM         (6u << 4)
#define TSBI_STATUS         0xE08u
#define TSBI_TRIGGERS_BUSY  (1u << 4)

static void trace_refused_while_installed(void)
{
	uint64_t enc = trace_component_of(plat.boot_hart, true);
	volatile uint32_t *control, *status;

	if (!dbtr_ready())
		return;
	if (!CHECK(enc, "boot hart %lu has a trace encoder in the DT", plat.boot_hart))
		return;
	control = (volatile uint32_t *)(uintptr_t)(enc + TE_CONTROL);
	status = (volatile uint32_t *)(uintptr_t)(enc + TSBI_STATUS);
	if (install_on(watched_a) < 0)
		return;
	*control = 0;
	*control = TE_ACTIVE;
	*control = TE_ACTIVE | TE_ENABLE | TE_INST_TRACING | TE_MODE_HTM;
	CHECK_EQ(*control & TE_INST_TRACING, 0, "trTeInstTracing after a start over DBTR triggers");
	CHECK(*status & TSBI_TRIGGERS_BUSY, "tsbiTeStatus %#x has bit 4 (triggers busy)", *status);
	*control = 0;
	CHECK(breaks_at(call_a), "the DBTR trigger still fires after the refused trace start");
	uninstall_all();
}

static const struct target_test tests[] = {
	{ "probe_dbtr", probe_dbtr, DEV_NONE },
	{ "num_triggers", num_triggers, DEV_NONE },
	{ "set_shmem_errors", set_shmem_errors, DEV_NONE },
	{ "bad_ranges", bad_ranges, DEV_NONE },
	{ "install_fires_and_reads_back", install_fires_and_reads_back, DEV_NONE },
	{ "u_only_not_in_s", u_only_not_in_s, DEV_NONE },
	{ "disable_enable", disable_enable, DEV_NONE },
	{ "update_moves_trigger", update_moves_trigger, DEV_NONE },
	{ "uninstall_and_set_errors", uninstall_and_set_errors, DEV_NONE },
	{ "install_invalid_configs", install_invalid_configs, DEV_NONE },
	{ "install_until_full", install_until_full, DEV_NONE },
	{ "unknown_fid", unknown_fid, DEV_NONE },
	{ "per_hart_and_reset_on_stop", per_hart_and_reset_on_stop, DEV_NONE },
	{ "trace_refused_while_installed", trace_refused_while_installed, DEV_NONE },
};
GROUP(dbtr, tests);
