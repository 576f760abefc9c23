/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The traced-program payload's kernel: sets up the trace components of each
 * participating hart with the TCI driver (drivers/trace), runs the program
 * set once between trace_first and trace_last, prints where each trace
 * buffer is (TRACEBUF lines) and holds the machine (TRACE-DONE) so the
 * host can save the buffers through QEMU's monitor (tests/trace/).
 *
 * bootargs (QEMU -append):
 *   mode=btm|htm       seqjump implicitret repeat alljumps extaddr ctx ts
 *   sync=M:X           trTeInstSyncMode / trTeInstSyncMax
 *   buf=N              SMEM buffer bytes per hart (default 512 KiB)
 *   stop               stop on wrap
 *   harts=N            harts that trace (each runs the program set)
 *   hammer             the boot hart does not trace: it stores to the word
 *                      lrsc-contend's LR/SC loops add to (the next harts trace)
 *   priv=u|s           privilege filter (filter 0)
 *   range=filtered     address filter: only the .text.filtered functions
 *   ratified singlestep tv   tracesbi ingress options (tv: tandem-verification
 *                      records instead of N-Trace, docs/TRACE.md)
 *   tick=N             timer interrupts every N + 0..255 timer ticks
 *   notrace=1          run the programs without tracing (baseline)
 *   ctr                record each program with emulated CTR (S and U, every
 *                      type): CTRENTRY lines, oldest first, after each
 *                      (tests/trace/ctr-compare.py)
 *   only=A,B,...       run only these programs (names in programs[]; without
 *                      only=, all but lrsc-contend, which needs hammer)
 */
#include "tk.h"
#include "lib/fdt/fdt.h"
#include "drivers/trace/tci.h"

#define BUF_MAX   (512 * 1024)
/* tracesbi's own encoder registers (docs/TRACE.md) */
#define TSBI_TE_INGRESS    0xE00u
#define TSBI_TE_INSNS_LOW  0xE18u
#define TSBI_TE_INSNS_HIGH 0xE1Cu
#define PTE_V 0x01ul
#define PTE_R 0x02ul
#define PTE_W 0x04ul
#define PTE_X 0x08ul
#define PTE_U 0x10ul
#define PTE_G 0x20ul
#define PTE_A 0x40ul
#define PTE_D 0x80ul
#define SATP_SV39 (8ul << 60)
#define SSTATUS_SUM (1ul << 18)
#define EXC_BREAK 3
#define EXC_USER_ECALL 8
#define EXC_LOAD_PF 13
#define EXC_STORE_PF 15

/* ---- Configuration -------------------------------------------------------- */

static struct {
	struct tci_encoder_settings enc;
	uint32_t ingress;
	uint64_t buf;
	bool stop_on_wrap;
	int harts;
	int first;         /* index of the first tracing hart (1 with hammer) */
	int priv;          /* -1: no filter, else TCI priv bit mask */
	bool range;
	uint64_t tick;
	bool notrace;      /* run the programs untraced (the baseline) */
	bool ctr;          /* CTR records each program (docs/CTR.md) */
	char only[128];    /* run only these programs: comma list (tests, benchmarks) */
} cfg;

static bool flag(const char *key)
{
	return bootarg_flag(key);
}

static uint64_t number(const char *s)
{
	uint64_t v = 0;

	while (*s >= '0' && *s <= '9')
		v = v * 10 + (uint64_t)(*s++ - '0');
	return v;
}

static void read_config(void)
{
	char v[32];

	cfg.enc.inst_mode = bootarg("mode", v, sizeof(v)) && !strcmp(v, "btm")
		? TRTE_INST_MODE_BASELINE : TRTE_INST_MODE_OPTIMIZED;
	if (flag("seqjump"))
		cfg.enc.features |= TRTE_INST_EN_SEQUENTIAL_JUMP;
	if (flag("implicitret"))
		cfg.enc.features |= TRTE_INST_EN_IMPLICIT_RETURN | 3u << TRTE_INST_IMPLICIT_RETURN_MODE_SHIFT;
	if (flag("repeat"))
		cfg.enc.features |= TRTE_INST_EN_REPEATED_HISTORY;
	if (flag("alljumps"))
		cfg.enc.features |= TRTE_INST_EN_ALL_JUMPS;
	if (flag("extaddr"))
		cfg.enc.features |= TRTE_INST_EXTEND_ADDR_MSB;
	cfg.enc.context = flag("ctx");
	cfg.enc.timestamps = flag("ts");
	if (bootarg("sync", v, sizeof(v)) && v[1] == ':') {
		cfg.enc.sync_mode = (uint32_t)(v[0] - '0');
		cfg.enc.sync_max = (uint32_t)number(v + 2);
	}
	cfg.buf = bootarg("buf", v, sizeof(v)) ? number(v) : BUF_MAX;
	if (cfg.buf > BUF_MAX || cfg.buf < 64)
		cfg.buf = BUF_MAX;
	cfg.stop_on_wrap = flag("stop");
	cfg.first = flag("hammer") && plat.nharts > 1;
	cfg.harts = bootarg("harts", v, sizeof(v)) ? (int)number(v) : 1;
	if (cfg.harts < 1 || cfg.harts > plat.nharts - cfg.first)
		cfg.harts = plat.nharts - cfg.first;
	cfg.priv = -1;
	if (bootarg("priv", v, sizeof(v)))
		cfg.priv = v[0] == 'u' ? 1 : 2;
	cfg.range = bootarg("range", v, sizeof(v));
	cfg.tick = bootarg("tick", v, sizeof(v)) ? number(v) : 400;
	cfg.notrace = flag("notrace");
	cfg.ctr = flag("ctr");
	if (!bootarg("only", cfg.only, sizeof(cfg.only)))
		cfg.only[0] = '\0';
	if (flag("ratified"))
		cfg.ingress |= 1u;
	if (flag("singlestep"))
		cfg.ingress |= 2u;
	if (flag("tv"))
		cfg.ingress |= 4u;
	/* SRC fields tell the harts' streams apart. */
	if (cfg.harts > 1)
		cfg.enc.features |= 2u << TRTE_SRC_BITS_SHIFT;
}

/* ---- Paging: identity, with PTE.U on the user pages ---------------------- */

char tk_demand[MAX_HARTS][DEMAND_PAGES][4096] __attribute__((aligned(4096), section(".user.bss")));
char tk_ustack[MAX_HARTS][4096] __attribute__((aligned(4096), section(".user.bss")));
static uint64_t pt_root[512] __attribute__((aligned(4096)));
static uint64_t pt_l1[512] __attribute__((aligned(4096)));      /* 2 GiB .. 3 GiB */
static uint64_t pt_l0[512] __attribute__((aligned(4096)));      /* the image's 2 MiB */
extern char __user_start[], __user_end[];

static uint64_t leaf(uintptr_t pa, uint64_t perm)
{
	return (uint64_t)pa >> 12 << 10 | perm | PTE_V | PTE_A | PTE_D;
}

static uint64_t table(const void *t)
{
	return (uint64_t)(uintptr_t)t >> 12 << 10 | PTE_V;
}

static bool is_demand(uintptr_t a)
{
	return a >= (uintptr_t)tk_demand && a < (uintptr_t)tk_demand + sizeof(tk_demand);
}

static bool is_user(uintptr_t a)
{
	return (a >= (uintptr_t)__user_start && a < (uintptr_t)__user_end) || is_demand(a) ||
	       (a >= (uintptr_t)tk_ustack && a < (uintptr_t)tk_ustack + sizeof(tk_ustack));
}

/* The demand pages start unmapped on every run of the program set. */
static void unmap_demand(int hart)
{
	for (int i = 0; i < DEMAND_PAGES; i++)
		pt_l0[((uintptr_t)tk_demand[hart][i] >> 12) & 511] = 0;
	__asm__ volatile("sfence.vma" ::: "memory");
}

static void build_page_tables(void)
{
	uintptr_t image = (uintptr_t)__image_start & ~0x1FFFFFul;

	/* 0 .. 1 GiB: devices and the trace registers (S, no X). */
	pt_root[0] = leaf(0, PTE_R | PTE_W | PTE_G);
	pt_root[2] = table(pt_l1);
	for (int i = 0; i < 512; i++)
		pt_l1[i] = leaf(0x80000000ul + ((uintptr_t)i << 21), PTE_R | PTE_W | PTE_X | PTE_G);
	pt_l1[(image - 0x80000000ul) >> 21] = table(pt_l0);
	for (int i = 0; i < 512; i++) {
		uintptr_t pa = image + ((uintptr_t)i << 12);

		pt_l0[i] = is_user(pa) ? leaf(pa, PTE_R | PTE_W | PTE_X | PTE_U)
				       : leaf(pa, PTE_R | PTE_W | PTE_X | PTE_G);
	}
	for (int h = 0; h < MAX_HARTS; h++)
		unmap_demand(h);
}

static void paging_on(void)
{
	__asm__ volatile("sfence.vma" ::: "memory");
	csr_write(satp, SATP_SV39 | (uintptr_t)pt_root >> 12);
	__asm__ volatile("sfence.vma" ::: "memory");
	csr_set(sstatus, SSTATUS_SUM);
}

/* ---- Traps ------------------------------------------------------------- */

struct tk_hart {
	unsigned long user_ctx[14];
	unsigned long hartid;
	int index;
	unsigned long syscalls, ticks, page_faults, illegal, breaks;
	uint64_t seed;
};

static struct tk_hart harts_state[MAX_HARTS];

static struct tk_hart *self_state(void)
{
	struct tk_hart *t;

	__asm__("mv %0, tp" : "=r"(t));
	return t;
}

/* Timer interrupts "land anywhere": a pseudo-random deadline every time,
 * `tick` + 0..255 timer ticks away.  (Traced, every S/U instruction costs
 * the firmware tens of instructions of the same virtual time: too short an
 * interval and the handler would never get back to the program.) */
static void arm_timer(struct tk_hart *t)
{
	t->seed = t->seed * 6364136223846793005ul + 1;
	sbi_set_timer(read_time() + cfg.tick + (t->seed >> 56));
}

static unsigned long insn_len_at(unsigned long tval, unsigned long epc)
{
	unsigned long bits = tval ? tval : *(volatile uint16_t *)epc;

	return (bits & 3) == 3 ? 4 : 2;
}

static void user_exit(struct tk_frame *f, struct tk_hart *t, long code)
{
	static const int saved[14] = { 1, 2, 8, 9, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27 };

	for (int i = 0; i < 14; i++)
		f->regs[saved[i]] = t->user_ctx[i];
	f->regs[10] = (unsigned long)code;
	f->sepc = (uintptr_t)tk_user_return;
	f->sstatus |= SSTATUS_SPP | SSTATUS_SPIE;
}

static void syscall(struct tk_frame *f, struct tk_hart *t)
{
	t->syscalls++;
	f->sepc += 4;
	switch (f->regs[17]) {
	case SYS_EXIT:
		user_exit(f, t, (long)f->regs[10]);
		break;
	case SYS_TWICE:
		f->regs[10] = 2 * f->regs[10] + 1;
		break;
	case SYS_COUNT:
		f->regs[10] = t->syscalls;
		break;
	default:
		f->regs[10] = (unsigned long)-1;
		break;
	}
}

void tk_trap(struct tk_frame *f);
void tk_trap(struct tk_frame *f)
{
	struct tk_hart *t = self_state();
	unsigned long cause = f->scause;

	if (cause & SCAUSE_INTERRUPT) {
		if ((cause & ~SCAUSE_INTERRUPT) == IRQ_S_TIMER) {
			t->ticks++;
			arm_timer(t);
		} else {
			csr_clear(sie, 1ul << (cause & 63));
		}
		return;
	}
	switch (cause) {
	case EXC_USER_ECALL:
		syscall(f, t);
		return;
	case EXC_LOAD_PF:
	case EXC_STORE_PF:
		if (!is_demand(f->stval))
			break;
		t->page_faults++;
		/* A load maps the page read-only: a store to it (the SC after
		 * an LR, u-lrsc) faults once more. */
		pt_l0[(f->stval >> 12) & 511] =
			leaf(f->stval & ~0xFFFul, cause == EXC_LOAD_PF ? PTE_R | PTE_U : PTE_R | PTE_W | PTE_U);
		__asm__ volatile("sfence.vma %0" :: "r"(f->stval) : "memory");
		return;
	case EXC_ILLEGAL_INSN:
		t->illegal++;
		f->sepc += insn_len_at(f->stval, f->sepc);
		return;
	case EXC_BREAK:
		t->breaks++;
		f->sepc += insn_len_at(0, f->sepc);
		return;
	default:
		break;
	}
	kprintf("tk: hart %lu: unexpected trap scause %lx sepc %lx stval %lx\n", t->hartid, cause,
		f->sepc, f->stval);
	for (;;)
		wfi();
}

/* Park this hart for good: no timer, no pending SSIP, HSM STOPPED. */
static void stop_self(void)
{
	csr_write(sie, 0);
	sbi_set_timer(UINT64_MAX);
	csr_clear(sip, 1ul << 1);
	sbi_hart_stop();
	for (;;)
		wfi();
}

/* ---- The program set ----------------------------------------------------- */

static long user(long (*entry)(long), long arg, struct tk_hart *t)
{
	return tk_run_user(entry, arg, (uintptr_t)tk_ustack[t->index] + 4096, t->user_ctx);
}

/* The program set: each returns 0 when it computed the right result. */
static long prog_sort(struct tk_hart *t) { (void)t; return p_sort(); }
static long prog_recurse(struct tk_hart *t) { (void)t; return p_recurse(); }
static long prog_syscalls(struct tk_hart *t) { return user(u_syscalls, 24, t) < 0; }
static long prog_interp(struct tk_hart *t) { (void)t; return p_interp(); }
static long prog_pagefault(struct tk_hart *t)
{
	return user(u_pagefault, (long)(uintptr_t)tk_demand[t->index], t);
}
static long prog_strings(struct tk_hart *t) { (void)t; return p_strings(); }
static long prog_illegal(struct tk_hart *t) { return user(u_illegal, 2, t); }
static long prog_filtered(struct tk_hart *t) { (void)t; return p_filtered(); }
static long prog_s_illegal(struct tk_hart *t) { (void)t; return p_s_illegal(); }
static long prog_compute(struct tk_hart *t) { return user(u_compute, 1500, t) < 0; }
static long prog_sse(struct tk_hart *t)
{
	static volatile long runs[MAX_HARTS];

	return p_sse(t->hartid, &runs[t->index]);
}

static long prog_fp(struct tk_hart *t) { (void)t; return p_fp(); }
static long prog_lrsc(struct tk_hart *t) { (void)t; return p_lrsc(); }
static long prog_u_lrsc(struct tk_hart *t)
{
	unmap_demand(t->index);   /* the LR's first touch faults */
	return user(u_lrsc, (long)(uintptr_t)tk_demand[t->index], t) < 0;
}

/*
 * LR/SC loops other harts contend for (docs/TRACE.md, "LR/SC sequences"):
 * every tracing hart adds to one word LRSC_SMP_ADDS times with an LR/SC
 * loop that counts its retries (lrsc_add_count_w), and the word must end
 * at the sum.  Whether an SC fails because another hart's store fell
 * between its LR and SC is up to QEMU's turns (under -icount a traced hart
 * spends nearly all its time in M-mode, and in practice none does): the
 * retries are printed, not required.  A failing SC is traced in u-lrsc.
 */
#define LRSC_SMP_ADDS 300
static volatile int lrsc_smp_word, lrsc_smp_done, lrsc_smp_retries;

static bool all_added(unsigned long harts)
{
	return lrsc_smp_done == (int)harts;
}

static long prog_lrsc_smp(struct tk_hart *t)
{
	int retries = 0;
	long bad = 0;

	for (int i = 0; i < LRSC_SMP_ADDS; i++)
		lrsc_add_count_w(&lrsc_smp_word, 1, &retries);
	__atomic_fetch_add(&lrsc_smp_retries, retries, __ATOMIC_SEQ_CST);
	__atomic_fetch_add(&lrsc_smp_done, 1, __ATOMIC_SEQ_CST);
	bad |= !wait_for(all_added, (unsigned long)cfg.harts, 600 * 1000000ul);
	if (t->index != 0)
		return bad;
	kprintf("LRSC-SMP harts=%d retries=%d\n", (int)cfg.harts, lrsc_smp_retries);
	return bad || lrsc_smp_word != cfg.harts * LRSC_SMP_ADDS;
}

/*
 * LR/SC loops contended by an untraced hart (docs/TRACE.md, "LR/SC
 * sequences"), with the `hammer` boot option: the boot hart, which then
 * does not trace, runs hammer() while the next hart runs this program.
 * The hammer adds HAMMER_ADD to the word the traced hart's LR/SC loop adds
 * 1 to, then moves its Sstc deadline (stimecmp) to the next timer tick.
 * That is what makes QEMU 7.2 switch harts often under -icount: the write
 * that moves the nearest deadline ends the writer's turn, the other hart's
 * turn ends at that deadline, and a sweep of the harts starts at cpu 0, so
 * the boot hart (hart 0) gets its turn before the deadline passes unseen.
 * The traced hart thus runs in turns of at most 100 instructions with an add
 * between them; some end between its LR and its SC, which then fails
 * because the word changed.  The program requires such retries (else it
 * tests nothing); the word's low half must end at the traced adds.  The
 * deadline is never taken (sie.STIE is 0).  hammer() sits in .text.hammer,
 * which tests/trace leaves out of QEMU's log (-dfilter): its instructions
 * would otherwise be half the log.
 */
#define CONTEND_ADDS 200
#define HAMMER_ADD   0x10000
#define TK_STR_(x) #x
#define TK_STR(x) TK_STR_(x)
struct hammer {
	volatile int word;
	volatile long done;     /* the traced hart finished: the hammer returns */
	volatile long adds;
};
static struct hammer hammer;
void hammer_run(struct hammer *h);

__asm__(".pushsection .text.hammer, \"ax\"\n"
	".balign 4\n"
	".globl hammer_run\n"
	"hammer_run:\n"                 /* a0 = struct hammer * */
	"	li	t1, " TK_STR(HAMMER_ADD) "\n"
	"1:	amoadd.w zero, t1, (a0)\n"
	"	ld	t2, 16(a0)\n"
	"	addi	t2, t2, 1\n"
	"	sd	t2, 16(a0)\n"
	"	csrr	t2, time\n"
	"	addi	t2, t2, 1\n"
	"	csrw	" TK_STR(CSR_STIMECMP) ", t2\n"
	"	ld	t2, 8(a0)\n"
	"	beqz	t2, 1b\n"
	"	li	t2, -1\n"
	"	csrw	" TK_STR(CSR_STIMECMP) ", t2\n"
	"	ret\n"
	".popsection\n");

static long prog_lrsc_contend(struct tk_hart *t)
{
	int retries = 0;

	if (!cfg.first) {
		kprintf("LRSC-CONTEND: needs the hammer boot option and -smp 2 or more\n");
		return 1;
	}
	if (t->index != cfg.first)
		return 0;   /* one traced hart is contended */
	for (int i = 0; i < CONTEND_ADDS; i++)
		lrsc_add_count_w(&hammer.word, 1, &retries);
	hammer.done = 1;
	kprintf("LRSC-CONTEND adds=%d hammer=%ld retries=%d\n", CONTEND_ADDS, hammer.adds,
		retries);
	return (hammer.word & (HAMMER_ADD - 1)) != CONTEND_ADDS || retries == 0;
}

/* SBI calls that return with an interrupt pending: a deadline in the past
 * makes the timer interrupt pending before the call returns, so S-mode
 * takes it at the instruction after the ecall, before that one runs. */
/* What a trap and an SBI call cost while traced (make bench-trace's
 * traps row): TRAP_LOOPS of each, against the same loops without them. */
#define TRAP_LOOPS 64
static long prog_u_trap(struct tk_hart *t) { return user(u_trap, TRAP_LOOPS, t); }
static long prog_u_no_trap(struct tk_hart *t) { return user(u_no_trap, TRAP_LOOPS, t); }

static long prog_sbi_call(struct tk_hart *t)
{
	long bad = 0;

	(void)t;
	for (int i = 0; i < TRAP_LOOPS; i++)
		bad |= sbi_probe(SBI_EXT_BASE).value != 1;
	return bad;
}

/* sbi_probe()'s call shape without the ecall: the same arguments into a
 * function that answers as the SBI does. */
static __attribute__((noinline)) struct sbiret no_sbi(unsigned long eid, unsigned long fid,
						      unsigned long a0)
{
	__asm__ volatile("" : "+r"(eid), "+r"(fid), "+r"(a0));
	return (struct sbiret){ 0, eid == SBI_EXT_BASE && fid == 3 && a0 == SBI_EXT_BASE };
}

static long prog_no_sbi_call(struct tk_hart *t)
{
	long bad = 0;

	(void)t;
	for (int i = 0; i < TRAP_LOOPS; i++)
		bad |= no_sbi(SBI_EXT_BASE, 3, SBI_EXT_BASE).value != 1;
	return bad;
}

static long prog_sbi_irq(struct tk_hart *t)
{
	unsigned long before = t->ticks;

	for (int i = 0; i < 3; i++)
		sbi_set_timer(0);
	return t->ticks - before < 3;
}

/*
 * An interrupt two instructions after an SBI call returns: sbi_ecall()'s
 * ret, which the stepper predicts and the hart runs, then the csrs that
 * makes the supervisor software interrupt pending (taken right after it;
 * the handler masks it).  The trace shows both before the interrupt (it
 * once reported that nothing had retired since the call).
 */
static long prog_sbi_ret_irq(struct tk_hart *t)
{
	long bad = 0;

	(void)t;
	for (int i = 0; i < 3; i++) {
		csr_clear(sip, 1ul << IRQ_S_SOFT);
		csr_set(sie, 1ul << IRQ_S_SOFT);
		bad |= sbi_probe(SBI_EXT_BASE).error;
		csr_set(sip, 1ul << IRQ_S_SOFT);
		bad |= (long)(csr_read(sie) & (1ul << IRQ_S_SOFT));   /* taken: masked */
	}
	csr_clear(sip, 1ul << IRQ_S_SOFT);
	return bad;
}

static const struct program {
	const char *name;
	long (*run)(struct tk_hart *t);
} programs[] = {
	{ "sort", prog_sort },           /* function pointers, recursion */
	{ "recurse", prog_recurse },     /* deep recursion */
	{ "u-syscalls", prog_syscalls }, /* U-mode ecalls */
	{ "interp", prog_interp },       /* indirect jumps */
	{ "u-pagefault", prog_pagefault }, /* demand paging from U-mode */
	{ "strings", prog_strings },     /* RVC string routines */
	{ "u-illegal", prog_illegal },   /* illegal instructions, ebreak */
	{ "filtered", prog_filtered },   /* the address filter's functions */
	{ "s-illegal", prog_s_illegal }, /* S-mode illegal instruction */
	{ "u-compute", prog_compute },   /* U-mode, preempted by the timer */
	{ "sse", prog_sse },             /* SBI calls returning into SSE handlers */
	{ "fp", prog_fp },               /* F and D instructions */
	{ "sbi-irq", prog_sbi_irq },     /* interrupts pending at SBI returns */
	{ "sbi-ret-irq", prog_sbi_ret_irq }, /* an interrupt just after an SBI return */
	{ "lrsc", prog_lrsc },           /* LR/SC loops of Linux's shapes */
	{ "u-lrsc", prog_u_lrsc },       /* LR/SC in U-mode on demand-paged memory */
	{ "lrsc-smp", prog_lrsc_smp },   /* LR/SC loops another hart contends for */
	{ "lrsc-contend", prog_lrsc_contend }, /* ... and an untraced hart's stores */
	/* what a trap / an SBI call costs while traced (bench-trace) */
	{ "u-trap", prog_u_trap },       /* U-mode ecalls in a loop */
	{ "u-no-trap", prog_u_no_trap }, /* ... the loop calling a function instead */
	{ "sbi-call", prog_sbi_call },   /* SBI calls (probe_extension) in a loop */
	{ "no-sbi-call", prog_no_sbi_call }, /* ... a function call instead */
};
#define NPROGRAMS (sizeof(programs) / sizeof(programs[0]))

/* Whether only= (a comma-separated list of names) selects the program;
 * without only=, every program runs. */
static bool selected(const char *name)
{
	size_t n = strlen(name);
	const char *p = cfg.only;

	if (!*p)   /* lrsc-contend needs `hammer`: only when named */
		return strcmp(name, "lrsc-contend") != 0;
	for (;;) {
		size_t len = 0;

		while (p[len] && p[len] != ',')
			len++;
		if (len == n && !strncmp(p, name, n))
			return true;
		if (!p[len])
			return false;
		p += len + 1;
	}
}

/* only= must name programs that exist: a misspelt name would silently run
 * nothing.  Returns true when every name is known. */
static bool only_valid(void)
{
	const char *p = cfg.only;

	while (*p) {
		size_t len = 0;
		bool known = false;

		while (p[len] && p[len] != ',')
			len++;
		for (unsigned i = 0; i < NPROGRAMS; i++)
			known |= strlen(programs[i].name) == len && !strncmp(p, programs[i].name, len);
		if (!known)
			return false;
		p += len + (p[len] == ',');
	}
	return true;
}

struct program_cost {
	uint64_t instret;    /* every instruction the hart ran, M-mode included */
	uint64_t traced;     /* instructions the encoder reported (TSBI_TE_INSNS) */
};

static uint64_t traced_count(volatile uint32_t *enc)
{
	if (!enc)
		return 0;
	return enc[TSBI_TE_INSNS_LOW / 4] | (uint64_t)enc[TSBI_TE_INSNS_HIGH / 4] << 32;
}

/* Every program, in S-mode and U-mode, with the timer running.  Returns a
 * bit mask of the programs that computed a wrong result; cost[] gets what
 * each one cost (enc: the encoder's registers, NULL when not tracing). */
/*
 * CTR around a program: a buffer of 64 from WRPTR 0, cleared, S and U
 * with every type (NTBREN).  ctr_first is the enabling csrw, ctr_last the
 * disabling one: the host finds where recording began and ended in the
 * ground truth (their n-th executions bracket the n-th program).
 */
void ctr_record_on(void);
void ctr_record_off(void);
__asm__(
	"	.text\n"
	"	.globl ctr_record_on, ctr_record_off, ctr_first, ctr_last\n"
	"ctr_record_on:\n"
	"	li	t0, 2\n"
	"	csrw	0x15F, t0\n"
	"	csrw	0x14F, zero\n"
	"	.word	0x10400073\n"
	"	li	t0, 0x1000000003\n"
	"ctr_first:\n"
	"	csrw	0x14E, t0\n"
	"	ret\n"
	"ctr_record_off:\n"
	"ctr_last:\n"
	"	csrw	0x14E, zero\n"
	"	ret\n");

/* The 64 entries, oldest first (logical entry 63 down to 0). */
static void ctr_dump(const char *prog)
{
	unsigned long i, src, tgt, data;

	for (i = 64; i-- > 0;) {
		__asm__ volatile("csrw 0x150, %0" :: "r"(0x200 + i));
		__asm__ volatile("csrr %0, 0x151" : "=r"(src));
		__asm__ volatile("csrr %0, 0x152" : "=r"(tgt));
		__asm__ volatile("csrr %0, 0x153" : "=r"(data));
		if (src & 1)
			kprintf("CTRENTRY prog=%s src=0x%lx tgt=0x%lx type=%lu cc=%lu ccv=%lu\n",
				prog, src & ~1UL, tgt, data & 0xF, data >> 16 & 0xFFFF,
				data >> 15 & 1);
	}
}

static long run_programs(struct tk_hart *t, volatile uint32_t *enc, struct program_cost *cost)
{
	long bad = 0;

	for (unsigned i = 0; i < NPROGRAMS; i++) {
		uint64_t n0, i0;

		if (!selected(programs[i].name))
			continue;
		n0 = traced_count(enc);
		i0 = read_instret();

		if (cfg.ctr)
			ctr_record_on();
		bad |= (long)(programs[i].run(t) != 0) << i;
		if (cfg.ctr) {
			ctr_record_off();
			ctr_dump(programs[i].name);
		}
		cost[i].instret = read_instret() - i0;
		cost[i].traced = traced_count(enc) - n0;
	}
	return bad;
}

/* ---- One hart's session ---------------------------------------------------- */

static uint8_t tracebuf[MAX_HARTS][BUF_MAX] __attribute__((aligned(64)));
static struct tci_topology topo;

struct session_result {
	volatile long bad, done;
	struct tci_capture cap;
	uint32_t control;
	uint32_t features;   /* trTeInstFeatures as read back */
	uint32_t ts_control; /* trTsControl as read back */
	uint32_t ingress;    /* tsbiTeIngress as read back */
	const char *error;
	unsigned long ticks, syscalls, page_faults, illegal, breaks;
	struct program_cost cost[NPROGRAMS];
};

static struct session_result results[MAX_HARTS];

extern char __filtered_start[], __filtered_end[];

/* Filter 0 and comparators 0/1 from the configuration. */
static void setup_filters(struct tci_component *enc)
{
	uint32_t ctl = TRTE_FILTER_ENABLE;

	if (cfg.priv < 0 && !cfg.range)
		return;
	if (cfg.priv >= 0) {
		ctl |= TRTE_FILTER_MATCH_PRIVILEGE;
		tci_write(enc, TRTE_FILTER_BASE + TRTE_FILTER_MATCH_INST, (uint32_t)cfg.priv);
	}
	if (cfg.range) {
		/* Comparator 0: iaddr >= start && iaddr < end (mode 1: P && S). */
		uint32_t comp = TRTE_COMP_FN_GE << TRTE_COMP_P_FUNCTION_SHIFT |
				TRTE_COMP_FN_LT << TRTE_COMP_S_FUNCTION_SHIFT |
				TRTE_COMP_MODE_P_AND_S << TRTE_COMP_MATCH_MODE_SHIFT;

		tci_write(enc, TRTE_COMP_BASE + TRTE_COMP_PMATCH_LOW, (uint32_t)(uintptr_t)__filtered_start);
		tci_write(enc, TRTE_COMP_BASE + TRTE_COMP_PMATCH_HIGH, (uint32_t)((uintptr_t)__filtered_start >> 32));
		tci_write(enc, TRTE_COMP_BASE + TRTE_COMP_SMATCH_LOW, (uint32_t)(uintptr_t)__filtered_end);
		tci_write(enc, TRTE_COMP_BASE + TRTE_COMP_SMATCH_HIGH, (uint32_t)((uintptr_t)__filtered_end >> 32));
		tci_write(enc, TRTE_COMP_BASE + TRTE_COMP_CONTROL, comp);
		ctl |= TRTE_FILTER_MATCH_COMP1;   /* comparator 0 */
	}
	tci_write(enc, TRTE_FILTER_BASE + TRTE_FILTER_CONTROL, ctl);
	cfg.enc.inst_filters = 1;
}

static long session(unsigned long index)
{
	struct tk_hart *t = &harts_state[index];
	struct session_result *r = &results[index];
	struct tci_component *enc = tci_find_encoder(&topo, plat.hart_ids[index]);
	struct tci_component *sink = tci_sink_of(&topo, enc);
	struct tci_encoder_settings es = cfg.enc;
	struct tci_sink_settings ss = { .smem = true, .stop_on_wrap = cfg.stop_on_wrap };
	volatile uint32_t *control;
	unsigned long old_stvec = csr_read(stvec), old_sscratch = csr_read(sscratch);
	uint32_t ctl;
	int rc;

	if (!enc || !sink) {
		r->error = "no encoder/sink for this hart in the DT";
		r->done = 1;
		return -1;
	}
	t->hartid = plat.hart_ids[index];
	t->index = (int)index;
	t->seed = index * 977 + 1;
	ss.start = (uintptr_t)tracebuf[index];
	ss.limit = ss.start + cfg.buf - 4;
	es.features |= (uint32_t)index << TRTE_SRC_ID_SHIFT;
	if ((rc = tci_reset(sink, TRCOMP_RAMSINK)) || (rc = tci_reset(enc, TRCOMP_ENCODER)) ||
	    (rc = tci_ramsink_setup(sink, &ss))) {
		r->error = tci_strerror(rc);
		r->done = 1;
		return -1;
	}
	setup_filters(enc);
	es.inst_filters = cfg.enc.inst_filters;
	if ((rc = tci_encoder_setup(enc, &es))) {
		r->error = tci_strerror(rc);
		r->done = 1;
		return -1;
	}
	tci_write(enc, TSBI_TE_INGRESS, cfg.ingress);
	/* Sink on, encoder enabled; the store at trace_session_start sets
	 * trTeInstTracing, so trace_first is the first traced instruction. */
	ctl = tci_read(sink, TRRAM_CONTROL) & ~TRRAM_EMPTY;
	tci_write(sink, TRRAM_CONTROL, ctl | TRRAM_ENABLE);
	ctl = tci_read(enc, TRTE_CONTROL) & ~TRTE_EMPTY;
	tci_write(enc, TRTE_CONTROL, ctl | TRTE_ENABLE);
	control = (volatile uint32_t *)(uintptr_t)enc->base;

	__asm__ volatile("mv tp, %0" :: "r"(t));
	paging_on();
	unmap_demand((int)index);
	csr_write(sscratch, 0);
	csr_write(stvec, (uintptr_t)tk_vector);
	arm_timer(t);
	csr_set(sie, SIE_STIE);
	csr_set(sstatus, SSTATUS_SIE);

	if (cfg.notrace) {
		r->bad = run_programs(t, NULL, r->cost);
	} else {
		trace_session_start(control, ctl | TRTE_ENABLE | TRTE_INST_TRACING);
		r->bad = run_programs(t, control, r->cost);
		trace_session_stop(control, ctl | TRTE_ENABLE);
	}

	csr_clear(sstatus, SSTATUS_SIE);
	csr_clear(sie, SIE_STIE);
	sbi_set_timer(UINT64_MAX);
	csr_write(stvec, old_stvec);
	csr_write(sscratch, old_sscratch);
	csr_write(satp, 0);
	__asm__ volatile("sfence.vma" ::: "memory");
	r->control = tci_read(enc, TRTE_CONTROL);
	r->features = tci_read(enc, TRTE_INST_FEATURES);
	r->ts_control = tci_read(enc, TRTS_CONTROL);
	r->ingress = tci_read(enc, TSBI_TE_INGRESS);
	if ((rc = tci_trace_stop(enc, sink)))
		r->error = tci_strerror(rc);
	tci_ramsink_capture(sink, &r->cap);
	r->ticks = t->ticks;
	r->syscalls = t->syscalls;
	r->page_faults = t->page_faults;
	r->illegal = t->illegal;
	r->breaks = t->breaks;
	r->done = 1;
	return 0;
}

static bool session_done(unsigned long index)
{
	return results[index].done;
}

void boot_main(unsigned long hartid, uintptr_t dtb);
void boot_main(unsigned long hartid, uintptr_t dtb)
{
	struct fdt fdt;
	char why[80];
	long bad = 0;
	int rc, i;

	csr_write(sscratch, hartid);
	trap_init_hart();
	if (platform_init(hartid, dtb))
		sbi_shutdown();
	read_config();
	if (!only_valid()) {
		kprintf("TRACE-DONE fail: only=%s names an unknown program\n", cfg.only);
		for (;;)
			wfi();
	}
	if (fdt_open(&fdt, (const void *)dtb, plat.dtb_size) < 0 ||
	    (rc = tci_discover(&fdt, &tci_mmio, &topo)) != TCI_OK) {
		kprintf("TRACE-DONE fail: no trace components\n");
		for (;;)
			wfi();
	}
	build_page_tables();
	if (cfg.first + cfg.harts > 1 && !secondaries_start_all(why, sizeof(why))) {
		kprintf("TRACE-DONE fail: %s\n", why);
		for (;;)
			wfi();
	}
	for (i = 1; i < cfg.first + cfg.harts; i++)
		hart_post(plat.hart_ids[i], (hart_fn)session, (unsigned long)i);
	if (cfg.first)
		hammer_run(&hammer);
	else
		session(0);
	for (i = 1; i < cfg.first + cfg.harts; i++)
		if (!wait_for(session_done, (unsigned long)i, 600 * 1000000ul))
			results[i].error = "timed out";
	for (i = cfg.first; i < cfg.first + cfg.harts; i++) {
		const struct session_result *r = &results[i];

		bad += r->bad + (r->error != NULL);
		kprintf("TRACEBUF hart=%lu first=0x%lx len=%lu start=0x%lx limit=0x%lx wrap=%d "
			"stoponwrap=%d control=0x%x features=0x%x tscontrol=0x%x ingress=0x%x timebase=%lu "
			"ticks=%lu syscalls=%lu pagefaults=%lu illegal=%lu breaks=%lu "
			"bad=0x%lx%s%s\n",
			plat.hart_ids[i], (unsigned long)r->cap.first, (unsigned long)r->cap.len,
			(unsigned long)r->cap.start, (unsigned long)r->cap.limit, r->cap.wrapped,
			cfg.stop_on_wrap, r->control, r->features, r->ts_control, r->ingress,
			(unsigned long)plat.timebase_hz, r->ticks, r->syscalls, r->page_faults, r->illegal, r->breaks,
			(unsigned long)r->bad, r->error ? " error=" : "", r->error ? r->error : "");
		for (unsigned k = 0; k < NPROGRAMS; k++)
			if (r->cost[k].instret)
					kprintf("TRACEPROG hart=%lu prog=%s instret=%lu traced=%lu\n",
					plat.hart_ids[i], programs[k].name,
					(unsigned long)r->cost[k].instret,
					(unsigned long)r->cost[k].traced);
	}
	kprintf("TRACE-DONE %s\n", bad ? "fail" : "ok");
	/* Held here: the host saves the buffers, then quits QEMU.  Every hart
	 * stops through HSM so nothing runs (and nothing is logged) any more. */
	for (i = 1; i < cfg.first + cfg.harts; i++)
		hart_post(plat.hart_ids[i], (hart_fn)stop_self, 0);
	stop_self();
}
