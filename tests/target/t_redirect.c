/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Exceptions S-mode causes reach S-mode as delegation would deliver them:
 * the ones the firmware sees first (illegal instruction) are redirected with
 * sepc, scause, stval and sstatus SPP/SPIE/SIE set exactly as a delegated
 * trap would set them; delegated ones (breakpoint) arrive directly.
 *
 * Then a misbehaving S-mode: garbage in the trap CSRs, sret to pcs it never
 * trapped from, traps inside a handler, Vectored and reserved stvec modes,
 * the HS-mode trap CSRs, and an stvec that cannot be fetched (a trap loop
 * that must stay a loop of deliveries, never a hang in M-mode).
 */
#include "testlib.h"

/* `csrw cycle, zero` (0xc0001073, csrrw x0, cycle, x0): writing a
 * read-only CSR is an illegal instruction whose encoding lands in stval. */
#define ILLEGAL_INSN 0xc0001073u

static unsigned long __attribute__((noinline)) run_illegal(void)
{
	unsigned long pc;

	__asm__ __volatile__(
		"1: auipc %0, 0\n"
		".4byte 0xc0001073\n"
		: "=r"(pc) :: "memory");
	return pc + 4;
}

static void illegal_insn_case(bool sie)
{
	unsigned long cause, tval, pc;
	struct trap_record *rec = trap_record_of(current_hart());

	if (sie)
		irq_enable();
	else
		irq_disable();
	fault_expect(false);
	pc = run_illegal();
	irq_disable();
	if (!CHECK(fault_end(&cause, &tval), "the illegal instruction did not trap"))
		return;
	CHECK_EQ(cause, EXC_ILLEGAL_INSN, "scause");
	CHECK_EQ(tval, ILLEGAL_INSN, "stval holds the instruction");
	CHECK_EQ(rec->epc, pc, "sepc points at the instruction");
	CHECK(rec->status & SSTATUS_SPP, "sstatus.SPP says the trap came from S-mode");
	CHECK(!(rec->status & SSTATUS_SIE), "sstatus.SIE is cleared in the handler");
	CHECK(!!(rec->status & SSTATUS_SPIE) == sie, "sstatus.SPIE = SIE before the trap (%d)",
	      sie);
}

static void illegal_insn_sie_clear(void)
{
	illegal_insn_case(false);
}

static void illegal_insn_sie_set(void)
{
	illegal_insn_case(true);
}

static void breakpoint_delegated(void)
{
	unsigned long cause, tval;

	fault_expect(false);
	__asm__ __volatile__(".option push\n.option norvc\nebreak\n.option pop" ::: "memory");
	if (!CHECK(fault_end(&cause, &tval), "ebreak did not trap"))
		return;
	CHECK_EQ(cause, EXC_BREAKPOINT, "scause of ebreak");
}

static void misaligned_access_completes(void)
{
	static uint8_t buf[16] __attribute__((aligned(8)));
	unsigned long cause, i;
	volatile uint64_t *p = (volatile uint64_t *)(buf + 3);
	uint64_t v;

	for (i = 0; i < sizeof(buf); i++)
		buf[i] = (uint8_t)(0x10 + i);
	fault_expect(false);
	v = *p;
	*p = 0x1122334455667788ull;
	CHECK(!fault_end(&cause, NULL), "a misaligned access reached S-mode as a fault");
	CHECK_EQ(v, 0x1a19181716151413ull, "misaligned load value");
	CHECK_EQ(buf[3], 0x88, "misaligned store, first byte");
	CHECK_EQ(buf[10], 0x11, "misaligned store, last byte");
	CHECK_EQ(buf[2], 0x12, "byte below the store untouched");
	CHECK_EQ(buf[11], 0x1b, "byte above the store untouched");
}

/* ------------------------------------------------------------------------
 * Misbehaving S-mode.  The tests below take their traps on a vector of this
 * file (rd_vector), which logs every trap it sees (all the S-mode trap
 * CSRs, and those a trap must leave alone) and can send the code back to
 * S-mode at a resume address: the test kernel's own vector ends the run on
 * a fetch fault, relies on sscratch holding the hart id, and records only
 * one fault per expectation.
 */
#define ILLEGAL_INSN2 0xc0201073u   /* csrw instret, zero: another encoding */
#define SSTATUS_SUM (1ul << 18)
#define SSTATUS_MXR (1ul << 19)
#define HSTATUS_GVA (1ul << 6)
#define HSTATUS_SPV (1ul << 7)
#define HSTATUS_SPVP (1ul << 8)
#define RD_LOG 4

struct rd_trap {
	unsigned long epc, cause, tval, status, scratch, tvec, ie, atp;
	unsigned long hstatus, htval, htinst;   /* with rd.h only */
};

static struct {
	volatile int n;                       /* traps taken */
	struct rd_trap log[RD_LOG];
	volatile bool h;                      /* read the HS trap CSRs too */
	volatile bool nest;                   /* the first trap's handler traps again */
	unsigned long (*volatile nested)(void); /* ...by running this (returns its pc) */
	volatile unsigned long nested_pc;
} rd;
/* Used by the assembly below. */
volatile unsigned long rd_resume;      /* one-shot: continue here, in S-mode */
volatile unsigned long rd_wrong_slot;  /* entered the vector table past slot 0 */
volatile unsigned long rd_alt_entry;   /* entered through rd_vector_alt */

extern char rd_vector[], rd_vector_alt[], rd_vtable[], rd_stub_page[];
void rd_handler(void);
void rd_sret_to(unsigned long pc, unsigned long set, unsigned long clear);
long rd_loop_enter(unsigned long tvec, void *record);
unsigned long rd_illegal_resumable(void);

__asm__(
	"	.section .text.rd_vector, \"ax\"\n"
	"	.balign 4\n"
	"	.globl rd_vector\n"
	/* Saves what a C call may clobber, so the interrupted code (C or the
	 * helpers below) gets every register back. */
	"rd_vector:\n"
	"	addi	sp, sp, -144\n"
	"	sd	ra, 0(sp)\n"
	"	sd	t0, 8(sp)\n"
	"	sd	t1, 16(sp)\n"
	"	sd	t2, 24(sp)\n"
	"	sd	a0, 32(sp)\n"
	"	sd	a1, 40(sp)\n"
	"	sd	a2, 48(sp)\n"
	"	sd	a3, 56(sp)\n"
	"	sd	a4, 64(sp)\n"
	"	sd	a5, 72(sp)\n"
	"	sd	a6, 80(sp)\n"
	"	sd	a7, 88(sp)\n"
	"	sd	t3, 96(sp)\n"
	"	sd	t4, 104(sp)\n"
	"	sd	t5, 112(sp)\n"
	"	sd	t6, 120(sp)\n"
	"	call	rd_handler\n"
	"	ld	ra, 0(sp)\n"
	"	ld	t0, 8(sp)\n"
	"	ld	t1, 16(sp)\n"
	"	ld	t2, 24(sp)\n"
	"	ld	a0, 32(sp)\n"
	"	ld	a1, 40(sp)\n"
	"	ld	a2, 48(sp)\n"
	"	ld	a3, 56(sp)\n"
	"	ld	a4, 64(sp)\n"
	"	ld	a5, 72(sp)\n"
	"	ld	a6, 80(sp)\n"
	"	ld	a7, 88(sp)\n"
	"	ld	t3, 96(sp)\n"
	"	ld	t4, 104(sp)\n"
	"	ld	t5, 112(sp)\n"
	"	ld	t6, 120(sp)\n"
	"	addi	sp, sp, 144\n"
	"	sret\n"
	/* Marks that the trap came in through a vector-table slot other than
	 * BASE, then handles it as usual. */
	"rd_vector_wrong:\n"
	"	addi	sp, sp, -16\n"
	"	sd	t0, 0(sp)\n"
	"	sd	t1, 8(sp)\n"
	"	la	t0, rd_wrong_slot\n"
	"	li	t1, 1\n"
	"	sd	t1, 0(t0)\n"
	"	ld	t0, 0(sp)\n"
	"	ld	t1, 8(sp)\n"
	"	addi	sp, sp, 16\n"
	"	j	rd_vector\n"
	/* The same, marking an entry at rd_vector_alt. */
	"	.balign 4\n"
	"	.globl rd_vector_alt\n"
	"rd_vector_alt:\n"
	"	addi	sp, sp, -16\n"
	"	sd	t0, 0(sp)\n"
	"	sd	t1, 8(sp)\n"
	"	la	t0, rd_alt_entry\n"
	"	li	t1, 1\n"
	"	sd	t1, 0(t0)\n"
	"	ld	t0, 0(sp)\n"
	"	ld	t1, 8(sp)\n"
	"	addi	sp, sp, 16\n"
	"	j	rd_vector\n"
	/* Vectored-mode table: exceptions belong at BASE (slot 0), interrupt
	 * n at BASE + 4n.  Slot 0 is `jal t0, rd_vtable + 0x808`, encoded by
	 * hand (0x009002ef) because its bytes 1..2, 0x02 0x90, read from the
	 * odd address BASE + 1 are c.ebreak (0x9002): a firmware that jumps
	 * to stvec with its MODE bit on a hart that keeps mepc[0] (QEMU 7.2)
	 * runs that breakpoint, which the hart delegates to BASE, and the
	 * handler sees the odd sepc instead of the hart getting lost.  Entries
	 * through the table clobber t0. */
	"	.balign 256\n"
	"	.globl rd_vtable\n"
	"rd_vtable:\n"
	"	.option push\n"
	"	.option norvc\n"
	"	.4byte	0x009002ef\n"
	"	.rept 15\n"
	"	j	rd_vector_wrong\n"
	"	.endr\n"
	"	.skip	0x808 - 64\n"
	"	j	rd_vector\n"
	"	.option pop\n"
	/* rd_illegal_resumable(): an illegal instruction that resumes at its
	 * return through rd_resume, whatever trap comes back; returns the
	 * instruction's address. */
	"	.globl rd_illegal_resumable\n"
	"rd_illegal_resumable:\n"
	"	la	t1, 1f\n"
	"	la	t2, rd_resume\n"
	"	sd	t1, 0(t2)\n"
	"	la	a0, 2f\n"
	"2:	.4byte	0xc0001073\n"
	"1:	ret\n"
	/* rd_sret_to(pc, set, clear): sret to pc with sstatus bits set and
	 * cleared (SPP picks S or U); the fault the fetch there takes comes
	 * back through rd_vector to label 1 (rd_resume). */
	"	.globl rd_sret_to\n"
	"rd_sret_to:\n"
	"	la	t0, 1f\n"
	"	la	t1, rd_resume\n"
	"	sd	t0, 0(t1)\n"
	"	csrw	sepc, a0\n"
	"	csrc	sstatus, a2\n"
	"	csrs	sstatus, a1\n"
	"	sret\n"
	"1:	ret\n"
	/* rd_loop_enter(tvec, record): stvec = tvec, then an illegal
	 * instruction that the firmware redirects to tvec.  While tvec cannot
	 * be fetched the hart stays in that trap loop; once it maps the stub
	 * page, the stub jumps to rd_loop_landing (s0), which records the last
	 * trap delivered and returns 0.  -1: the instruction did not trap. */
	"	.globl rd_loop_enter\n"
	"rd_loop_enter:\n"
	"	addi	sp, sp, -32\n"
	"	sd	ra, 0(sp)\n"
	"	sd	s0, 8(sp)\n"
	"	sd	s1, 16(sp)\n"
	"	sd	s2, 24(sp)\n"
	"	la	s0, rd_loop_landing\n"
	"	mv	s1, a1\n"
	"	csrr	s2, stvec\n"
	"	csrw	stvec, a0\n"
	"	li	t0, 1\n"
	"	fence	rw, rw\n"
	"	sd	t0, 0(s1)\n"
	"	fence	rw, rw\n"
	"	.4byte	0xc0001073\n"
	"	li	a0, -1\n"
	"	j	2f\n"
	"rd_loop_landing:\n"
	"	csrr	t0, sepc\n"
	"	sd	t0, 8(s1)\n"
	"	csrr	t0, scause\n"
	"	sd	t0, 16(s1)\n"
	"	csrr	t0, stval\n"
	"	sd	t0, 24(s1)\n"
	"	csrr	t0, sstatus\n"
	"	sd	t0, 32(s1)\n"
	"	li	a0, 0\n"
	"2:	csrw	stvec, s2\n"
	"	ld	ra, 0(sp)\n"
	"	ld	s0, 8(sp)\n"
	"	ld	s1, 16(sp)\n"
	"	ld	s2, 24(sp)\n"
	"	addi	sp, sp, 32\n"
	"	ret\n"
	/* A page of its own: mapped at the looping hart's stvec to let it out
	 * of the loop (it runs there at that virtual address, so it only
	 * jumps to an absolute one). */
	"	.section .text.rd_stub, \"ax\"\n"
	"	.balign 4096\n"
	"	.globl rd_stub_page\n"
	"rd_stub_page:\n"
	"	jr	s0\n"
	"	.previous\n");

static unsigned long insn_len_at(unsigned long pc)
{
	return (*(volatile uint16_t *)pc & 3) == 3 ? 4 : 2;
}

void rd_handler(void)
{
	struct rd_trap t = {
		csr_read(sepc), csr_read(scause), csr_read(stval), csr_read(sstatus),
		csr_read(sscratch), csr_read(stvec), csr_read(sie), csr_read(satp), 0, 0, 0,
	};
	int n = rd.n;

	if (rd.h) {
		t.hstatus = csr_read(0x600);
		t.htval = csr_read(0x643);
		t.htinst = csr_read(0x64A);
		/* Whatever the trap left in SPV, sret goes back to HS/U. */
		csr_clear(0x600, HSTATUS_SPV);
	}
	rd.n = n + 1;
	if (n < RD_LOG)
		rd.log[n] = t;
	if (t.cause & SCAUSE_INTERRUPT) {
		/* None is enabled by these tests; the log shows it. */
		csr_write(sie, 0);
		return;
	}
	if (n == 0 && rd.nest)
		rd.nested_pc = rd.nested();
	if (rd_resume) {
		csr_write(sepc, rd_resume);
		rd_resume = 0;
		csr_set(sstatus, SSTATUS_SPP);   /* back to S even from U */
		return;
	}
	if (n >= RD_LOG || t.cause == EXC_INSN_ACCESS_FAULT || t.cause == EXC_INSN_PAGE_FAULT) {
		/* A runaway or a fetch fault nobody asked for: nothing
		 * sensible to return to (the runner reports the cut run). */
		kprintf("redirect: unexpected trap %d: scause=%lu sepc=%lx stval=%lx\n", n,
			t.cause, t.epc, t.tval);
		sbi_shutdown();
	}
	/* Skip the instruction; a nested trap in this handler overwrote
	 * sepc and sstatus.SPP/SPIE, so they come from what was read first. */
	csr_write(sepc, t.epc + insn_len_at(t.epc));
	csr_clear(sstatus, SSTATUS_SPP | SSTATUS_SPIE);
	csr_set(sstatus, t.status & (SSTATUS_SPP | SSTATUS_SPIE));
}

/* Take this hart's traps on rd_vector with a clean log and every S
 * interrupt masked; rd_end puts back the kernel's vector and sie. */
static unsigned long rd_begin(void)
{
	unsigned long old_sie = csr_read(sie);

	irq_disable();
	csr_write(sie, 0);
	memset(&rd, 0, sizeof(rd));
	rd_resume = 0;
	rd_wrong_slot = 0;
	rd_alt_entry = 0;
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	csr_write(stvec, (uintptr_t)rd_vector);
	return old_sie;
}

static void rd_end(unsigned long old_sie)
{
	trap_init_hart();
	csr_write(sie, old_sie);
}

/* pc of the illegal instruction it ran (ILLEGAL_INSN2). */
static unsigned long __attribute__((noinline)) run_illegal2(void)
{
	unsigned long pc;

	__asm__ __volatile__(
		"auipc %0, 0\n"
		".4byte 0xc0201073\n"
		: "=r"(pc) :: "memory");
	return pc + 4;
}

/* pc of the ebreak it ran (4 bytes: delegated, never through M-mode; t0
 * may come back clobbered by rd_vtable). */
static unsigned long __attribute__((noinline)) run_ebreak(void)
{
	unsigned long pc;

	__asm__ __volatile__(
		".option push\n.option norvc\n"
		"auipc %0, 0\n"
		"ebreak\n"
		".option pop\n"
		: "=r"(pc) :: "t0", "memory");
	return pc + 4;
}

/* What a trap taken from S (or U) into S-mode writes (privileged spec,
 * "Supervisor Status (sstatus) Register": SPP = previous mode, SPIE = SIE,
 * SIE = 0; "Supervisor Exception Program Counter (sepc)", "scause",
 * "stval"). */
static void check_trap(const struct rd_trap *t, const char *what, unsigned long cause,
		       unsigned long epc, unsigned long tval, bool from_s, bool spie)
{
	CHECK_EQ(t->cause, cause, "%s: scause", what);
	CHECK_EQ(t->epc, epc, "%s: sepc", what);
	CHECK_EQ(t->tval, tval, "%s: stval", what);
	CHECK(!!(t->status & SSTATUS_SPP) == from_s, "%s: sstatus.SPP = %d, expected %d", what,
	      !!(t->status & SSTATUS_SPP), from_s);
	CHECK(!!(t->status & SSTATUS_SPIE) == spie, "%s: sstatus.SPIE = %d, expected %d", what,
	      !!(t->status & SSTATUS_SPIE), spie);
	CHECK(!(t->status & SSTATUS_SIE), "%s: sstatus.SIE set in the handler", what);
}

/* Page tables of this file's tests (translation on with garbage, the
 * unfetchable stvec). */
#define RD_V 0x100000000ul   /* first 4 KiB page past the identity-mapped 4 GiB */
static uint64_t rd_root[512] __attribute__((aligned(4096)));
static uint64_t rd_l1[512] __attribute__((aligned(4096)));
static uint64_t rd_l0[512] __attribute__((aligned(4096)));

/* Sv39 (privileged spec, "Sv39"): the low 4 GiB identity-mapped in 1 GiB
 * pages, and the 4 KiB page at RD_V mapped (R, X) to physical page `pa`,
 * or unmapped when pa is 0. */
static void rd_map(uintptr_t pa)
{
	unsigned long gib;

	for (gib = 0; gib < 4; gib++)
		rd_root[gib] = (gib << 30) >> 12 << 10 | PTE_V | PTE_R | PTE_W | PTE_X | PTE_A | PTE_D;
	rd_root[RD_V >> 30] = (uintptr_t)rd_l1 >> 12 << 10 | PTE_V;
	rd_l1[(RD_V >> 21) & 511] = (uintptr_t)rd_l0 >> 12 << 10 | PTE_V;
	rd_l0[(RD_V >> 12) & 511] = pa ? (pa >> 12 << 10 | PTE_V | PTE_R | PTE_X | PTE_A | PTE_D) : 0;
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
}

static unsigned long rd_satp(void)
{
	return SATP_MODE_SV39 | (uintptr_t)rd_root >> 12;
}

struct s_state {
	unsigned long epc, cause, tval, status, scratch, tvec, ie, atp;
};

static void read_s_state(struct s_state *s)
{
	s->epc = csr_read(sepc);
	s->cause = csr_read(scause);
	s->tval = csr_read(stval);
	s->status = csr_read(sstatus);
	s->scratch = csr_read(sscratch);
	s->tvec = csr_read(stvec);
	s->ie = csr_read(sie);
	s->atp = csr_read(satp);
}

#define GARBAGE_SCRATCH 0x5c5c5c5c00c0ffeeul
#define GARBAGE_EPC     0x0000001234567800ul
#define GARBAGE_CAUSE   13ul                      /* load page fault */
#define GARBAGE_TVAL    0xdeadbeef0badf00dul
#define GARBAGE_SIE     (SIE_SSIE | SIE_SEIE)

/* Load the garbage; `held` gets what the hart kept of it (all WARL). */
static void set_garbage(struct s_state *held)
{
	rd_map(0);
	csr_write(sie, GARBAGE_SIE);
	csr_write(sscratch, GARBAGE_SCRATCH);
	csr_write(satp, rd_satp());
	__asm__ volatile("sfence.vma" ::: "memory");
	csr_write(sepc, GARBAGE_EPC);
	csr_write(scause, GARBAGE_CAUSE);
	csr_write(stval, GARBAGE_TVAL);
	csr_clear(sstatus, SSTATUS_SPP | SSTATUS_SIE);
	csr_set(sstatus, SSTATUS_SPIE | SSTATUS_SUM | SSTATUS_MXR);
	read_s_state(held);
}

static void clear_garbage(unsigned long hartid)
{
	csr_write(satp, 0);
	__asm__ volatile("sfence.vma" ::: "memory");
	csr_write(sscratch, hartid);
	csr_clear(sstatus, SSTATUS_SPIE | SSTATUS_SUM | SSTATUS_MXR);
}

/*
 * S-mode state no SBI call leaves behind, before a redirected illegal
 * instruction: stale sepc/scause/stval, sstatus.SPP = 0 and SPIE = 1 while
 * running in S with SIE = 0, SUM and MXR set, a garbage sscratch, sie bits
 * and translation on.  The redirect must write exactly sepc, scause, stval
 * and sstatus.SPP/SPIE/SIE, nothing else.
 */
static void redirect_writes_only_trap_state(void)
{
	unsigned long hartid = current_hart(), old_sie = rd_begin(), pc;
	struct s_state held, after;
	struct rd_trap t;
	int n;

	set_garbage(&held);
	pc = run_illegal();
	read_s_state(&after);
	clear_garbage(hartid);
	n = rd.n;
	t = rd.log[0];
	rd_end(old_sie);
	if (!CHECK_EQ(n, 1, "traps taken by the illegal instruction"))
		return;
	CHECK(held.atp != 0, "satp kept no Sv39 mode (%#lx)", held.atp);
	check_trap(&t, "redirected over garbage", EXC_ILLEGAL_INSN, pc, ILLEGAL_INSN, true, false);
	CHECK_EQ(t.status & (SSTATUS_SUM | SSTATUS_MXR), SSTATUS_SUM | SSTATUS_MXR,
		 "sstatus.SUM/MXR in the handler");
	CHECK_EQ(t.scratch, held.scratch, "sscratch in the handler");
	CHECK_EQ(t.tvec, (uintptr_t)rd_vector, "stvec in the handler");
	CHECK_EQ(t.ie, held.ie, "sie in the handler");
	CHECK_EQ(t.atp, held.atp, "satp in the handler");
	CHECK_EQ(after.scratch, held.scratch, "sscratch after the trap");
	CHECK_EQ(after.ie, held.ie, "sie after the trap");
	CHECK_EQ(after.atp, held.atp, "satp after the trap");
	CHECK_EQ(after.cause, EXC_ILLEGAL_INSN, "scause after the trap");
	CHECK_EQ(after.tval, ILLEGAL_INSN, "stval after the trap");
}

/* An SBI call is handled in M-mode: no S-mode trap CSR changes, whatever
 * S-mode left in them (fast path: BASE; slow path: an unknown EID). */
static void ecall_leaves_s_state(void)
{
	unsigned long hartid = current_hart(), old_sie = rd_begin();
	struct s_state held, after[2];
	struct sbiret r[2];
	int n, i;

	set_garbage(&held);
	r[0] = sbi_probe(SBI_EXT_BASE);
	read_s_state(&after[0]);
	r[1] = SBI0(0x0A5A5A5Aul, 0);
	read_s_state(&after[1]);
	clear_garbage(hartid);
	n = rd.n;
	rd_end(old_sie);
	CHECK_EQ(n, 0, "traps delivered to S-mode by the SBI calls");
	CHECK_ERR(r[0].error, SBI_SUCCESS, "probe_extension(BASE)");
	CHECK_ERR(r[1].error, SBI_ERR_NOT_SUPPORTED, "an unknown EID");
	for (i = 0; i < 2; i++) {
		const char *what = i ? "after an unknown EID" : "after probe_extension";

		CHECK_EQ(after[i].epc, held.epc, "sepc %s", what);
		CHECK_EQ(after[i].cause, held.cause, "scause %s", what);
		CHECK_EQ(after[i].tval, held.tval, "stval %s", what);
		CHECK_EQ(after[i].status & (SSTATUS_SPP | SSTATUS_SPIE | SSTATUS_SIE |
					    SSTATUS_SUM | SSTATUS_MXR),
			 held.status & (SSTATUS_SPP | SSTATUS_SPIE | SSTATUS_SIE |
					SSTATUS_SUM | SSTATUS_MXR), "sstatus %s", what);
		CHECK_EQ(after[i].scratch, held.scratch, "sscratch %s", what);
		CHECK_EQ(after[i].tvec, held.tvec, "stvec %s", what);
		CHECK_EQ(after[i].ie, held.ie, "sie %s", what);
		CHECK_EQ(after[i].atp, held.atp, "satp %s", what);
	}
}

/*
 * S-mode "returns" with sret to a pc it could never have trapped from:
 * firmware memory (PMP), past the end of RAM, an odd address, to S or to
 * U.  sret sets pc = sepc, privilege = SPP, SIE = SPIE (privileged spec,
 * "Trap-Return Instructions"); the fetch there is an instruction access
 * fault, which the firmware must deliver to S-mode like any other: sepc =
 * stval = that pc, SPP = the mode of the fetch, SPIE = the SIE sret set.
 * sepc is WARL with bit 0 always 0 ("sepc"): the pc is what the hart kept
 * of the odd value (QEMU 7.2 keeps bit 0; the firmware passes on mepc as
 * the hart reports it).
 */
static void sret_case(uintptr_t pc, bool to_u, bool spie)
{
	unsigned long old_sie = rd_begin(), want;
	char what[72];
	struct rd_trap t;
	int n;

	csr_write(sepc, pc);
	want = csr_read(sepc);
	ksnprintf(what, sizeof(what), "sret to %lx in %s with SPIE=%d", want,
		  to_u ? "U" : "S", spie);
	rd_sret_to(want, (to_u ? 0 : SSTATUS_SPP) | (spie ? SSTATUS_SPIE : 0),
		   (to_u ? SSTATUS_SPP : 0) | (spie ? 0 : SSTATUS_SPIE));
	irq_disable();
	n = rd.n;
	t = rd.log[0];
	rd_end(old_sie);
	if (!CHECK_EQ(n, 1, "%s: traps taken", what))
		return;
	check_trap(&t, what, EXC_INSN_ACCESS_FAULT, want, want, !to_u, spie);
}

static void sret_to_bad_pc(void)
{
	sret_case(fw_base(), false, false);
	sret_case(fw_base() + 0x101, false, true);
	sret_case(fw_end() - 4, true, true);
	sret_case(ram_end(), true, false);
	sret_case(ram_end() + 0x1000, false, true);
	sret_case(1ul << 63, false, false);
	sret_case(-4096ul, true, true);
}

/*
 * A handler that traps before it has finished with the first trap: the
 * second trap overwrites sepc/scause/stval/sstatus with its own values (the
 * SPIE it records is the handler's SIE = 0), none of the first one's.
 * The first trap is redirected (illegal instruction) or delegated
 * (ebreak); the nested one is always redirected.
 */
static void nested_case(bool first_redirected)
{
	unsigned long old_sie = rd_begin(), pc;
	struct rd_trap t0, t1;
	int n;

	rd.nest = true;
	rd.nested = run_illegal2;
	irq_enable();
	pc = first_redirected ? run_illegal() : run_ebreak();
	irq_disable();
	n = rd.n;
	t0 = rd.log[0];
	t1 = rd.log[1];
	rd_end(old_sie);
	if (!CHECK_EQ(n, 2, "traps taken"))
		return;
	if (first_redirected)
		check_trap(&t0, "first trap", EXC_ILLEGAL_INSN, pc, ILLEGAL_INSN, true, true);
	else
		check_trap(&t0, "first trap", EXC_BREAKPOINT, pc, t0.tval, true, true);
	check_trap(&t1, "nested trap", EXC_ILLEGAL_INSN, rd.nested_pc + 0, ILLEGAL_INSN2, true,
		   false);
}

static void nested_redirect(void)
{
	nested_case(true);
	nested_case(false);
}

/*
 * With the H extension a trap into HS-mode also writes hstatus, htval and
 * htinst (privileged spec, H extension, "Trap Entry", "Hypervisor Trap
 * Value (htval) Register": "For other traps, htval is set to zero";
 * "Hypervisor Trap Instruction (htinst) Register": zero for an illegal
 * instruction or a breakpoint).  From V = 0: hstatus.SPV = 0 and GVA = 0
 * (no guest virtual address), SPVP unchanged.  Stale values that HS-mode
 * left there must not survive a redirected trap, nor a delegated one
 * (the hardware's reference).
 */
static void hs_trap_case(bool redirected)
{
	const char *what = redirected ? "redirected illegal instruction" : "delegated ebreak";
	unsigned long old_sie = rd_begin(), old_hs = csr_read(0x600), htinst_held;
	struct rd_trap t;
	int n;

	rd.h = true;
	csr_write(0x643, 0x1234560ul);   /* htval: a stale guest physical address >> 2 */
	csr_write(0x64A, 0x00002003ul);  /* htinst: a transformed load (lw), if kept */
	htinst_held = csr_read(0x64A);
	csr_set(0x600, HSTATUS_SPV | HSTATUS_GVA | HSTATUS_SPVP);
	if (redirected)
		run_illegal();
	else
		run_ebreak();
	n = rd.n;
	t = rd.log[0];
	csr_write(0x600, old_hs & ~(HSTATUS_SPV | HSTATUS_GVA));
	rd_end(old_sie);
	if (!CHECK_EQ(n, 1, "%s: traps taken", what))
		return;
	CHECK_EQ(t.htval, 0, "%s: htval", what);
	if (htinst_held)
		CHECK_EQ(t.htinst, 0, "%s: htinst", what);
	CHECK_EQ(t.hstatus & (HSTATUS_SPV | HSTATUS_GVA | HSTATUS_SPVP), HSTATUS_SPVP,
		 "%s: hstatus SPV/GVA/SPVP", what);
}

static void redirect_into_hs_trap_csrs(void)
{
	if (!probe_hfence_gvma()) {
		test_not_applicable("no H extension");
		return;
	}
	hs_trap_case(false);
	hs_trap_case(true);
}

/*
 * stvec MODE = Vectored: "all synchronous exceptions into supervisor mode
 * cause the pc to be set to the address in the BASE field, whereas
 * interrupts cause the pc to be set to the address in the BASE field plus
 * four times the interrupt cause number" (privileged spec, "Supervisor
 * Trap Vector Base Address (stvec) Register").  A redirected exception
 * enters at BASE like a delegated one: slots 1..15 of the table mark a
 * wrong entry, an odd sepc an entry at BASE + 1 (see rd_vtable).
 */
static void vectored_stvec_exception_at_base(void)
{
	unsigned long old_sie = rd_begin(), held, pc_ill, pc_brk;
	struct rd_trap t0, t1;
	int n;

	csr_write(stvec, (uintptr_t)rd_vtable | 1);
	held = csr_read(stvec);
	if (held != ((uintptr_t)rd_vtable | 1)) {
		rd_end(old_sie);
		test_not_applicable("stvec does not keep Vectored mode (wrote %lx, reads %lx)",
				    (unsigned long)(uintptr_t)rd_vtable | 1, held);
		return;
	}
	pc_ill = rd_illegal_resumable();
	pc_brk = run_ebreak();
	n = rd.n;
	t0 = rd.log[0];
	t1 = rd.log[1];
	rd_end(old_sie);
	CHECK_EQ(rd_wrong_slot, 0, "an exception entered the vector table past BASE");
	if (!CHECK_EQ(n, 2, "traps taken"))
		return;
	if (t0.cause == EXC_BREAKPOINT && t0.epc == held) {
		check_failed("the redirected illegal instruction went to stvec with its MODE bit, "
			     "%lx (a breakpoint there)", held);
		return;
	}
	check_trap(&t0, "redirected, vectored", EXC_ILLEGAL_INSN, pc_ill, ILLEGAL_INSN, true, false);
	check_trap(&t1, "delegated, vectored", EXC_BREAKPOINT, pc_brk, t1.tval, true, false);
	CHECK_EQ(t0.tvec, held, "stvec in the handler");
}

/*
 * stvec MODE >= 2 is reserved and the field WARL: the hart reads back a
 * legal MODE (0 or 1), and a redirected exception enters at the BASE the
 * hart kept (rd_vector_alt marks an entry there, rd_vector is the old one).
 */
static void reserved_stvec_mode(void)
{
	unsigned long mode;

	for (mode = 2; mode <= 3; mode++) {
		unsigned long old_sie = rd_begin(), held, base, pc;
		bool alt, ok;
		int n;

		csr_write(stvec, (uintptr_t)rd_vector_alt | mode);
		held = csr_read(stvec);
		base = held & ~3ul;
		ok = base == (uintptr_t)rd_vector || base == (uintptr_t)rd_vector_alt;
		if (!ok) {
			rd_end(old_sie);
			check_failed("stvec reads %lx after writing %lx: neither vector", held,
				     (unsigned long)(uintptr_t)rd_vector_alt | mode);
			return;
		}
		pc = run_illegal();
		n = rd.n;
		alt = rd_alt_entry;
		rd_end(old_sie);
		CHECK((held & 3) < 2, "stvec kept reserved MODE %lu (reads %lx)", held & 3, held);
		CHECK_EQ(n, 1, "traps taken with stvec %lx", held);
		CHECK(alt == (base == (uintptr_t)rd_vector_alt),
		      "the trap entered %s, stvec holds %lx", alt ? "rd_vector_alt" : "rd_vector",
		      held);
		CHECK_EQ(rd.log[0].epc, pc, "sepc with stvec %lx", held);
	}
}

/*
 * stvec that cannot be fetched: the redirected trap enters S-mode at stvec
 * (privileged spec, "Supervisor Trap Vector Base Address (stvec)
 * Register"), the fetch there takes an instruction access fault, which is
 * delivered at stvec again, and so on: a hart that delegated the cause
 * would loop in S-mode for ever.  The firmware must do the same, going
 * through M-mode on each fault (access faults are not delegated): deliver
 * each trap, never wedge in M-mode.
 *
 * To make the loop observable and bounded, a secondary hart runs it with
 * Sv39 on and stvec = RD_V, a page mapped to the firmware's memory (PMP
 * denies S-mode, so the fetch is an access fault, not a page fault) or to
 * a physical address past RAM.  Meanwhile the boot hart checks that the
 * hart is still looping and STARTED, then remaps RD_V to a stub page and
 * has the hart fenced with SBI remote_sfence_vma: the fence is an IPI that
 * the looping hart's M-mode must take between two trap deliveries.  The
 * hart's next fetch at stvec runs the stub, which records the last trap
 * delivered: the fetch access fault at stvec, from S, with SIE/SPIE 0.
 * A firmware looping in M-mode never completes the fence (the run times
 * out in this test); one that does not deliver the fault leaves the hart
 * elsewhere.
 */
static struct {
	volatile unsigned long entered, epc, cause, tval, status;
} rd_loop;

static long loop_on_stvec(unsigned long arg)
{
	long r;

	(void)arg;
	csr_write(satp, rd_satp());
	__asm__ volatile("sfence.vma" ::: "memory");
	r = rd_loop_enter(RD_V, (void *)&rd_loop);
	csr_write(satp, 0);
	__asm__ volatile("sfence.vma" ::: "memory");
	return r;
}

static bool loop_entered(unsigned long arg)
{
	(void)arg;
	return rd_loop.entered != 0;
}

static long stop_self(unsigned long arg)
{
	(void)arg;
	return sbi_hart_stop().error;
}

static void loop_case(unsigned long h, uintptr_t bad_pa, const char *what)
{
	struct sbiret r;
	long result = -2;

	rd_map(bad_pa);
	memset((void *)&rd_loop, 0, sizeof(rd_loop));
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	hart_post(h, loop_on_stvec, 0);
	if (!CHECK(wait_for(loop_entered, 0, 1000000), "%s: hart %lu did not run the test", what,
		   h))
		return;
	delay_us(2000);
	CHECK(mailbox[h].done_seq != mailbox[h].req_seq,
	      "%s: the hart left the trap loop on its own (stvec is unfetchable)", what);
	r = sbi_hart_status(h);
	CHECK(!r.error && r.value == SBI_HSM_STATE_STARTED,
	      "%s: hart %lu status %ld (error %s) while it loops", what, h, r.value,
	      sbi_error_name(r.error));
	rd_map((uintptr_t)rd_stub_page);
	r = sbi_ecall(SBI_EXT_RFENCE, SBI_RFENCE_REMOTE_SFENCE_VMA, 1, h, 0, (unsigned long)-1,
		      0, 0);
	CHECK_ERR(r.error, SBI_SUCCESS, "%s: remote_sfence_vma to the looping hart", what);
	if (!CHECK(hart_wait(h, 1000000, &result),
		   "%s: hart %lu did not come out of the loop after the remap", what, h))
		return;
	if (!CHECK_EQ(result, 0, "%s: the illegal instruction did not trap", what))
		return;
	CHECK_EQ(rd_loop.cause, EXC_INSN_ACCESS_FAULT, "%s: scause of the last trap", what);
	CHECK_EQ(rd_loop.epc, RD_V, "%s: sepc of the last trap", what);
	CHECK_EQ(rd_loop.tval, RD_V, "%s: stval of the last trap", what);
	CHECK(rd_loop.status & SSTATUS_SPP, "%s: sstatus.SPP of the last trap", what);
	CHECK(!(rd_loop.status & (SSTATUS_SIE | SSTATUS_SPIE)),
	      "%s: sstatus.SIE/SPIE of the last trap (%lx)", what, rd_loop.status);
}

static void unfetchable_stvec_loop(void)
{
	long h = other_hart(0), last;
	struct sbiret r;
	bool was_stopped;

	if (h < 0) {
		test_not_applicable("needs a second hart");
		return;
	}
	/* The groups after this one expect the secondaries stopped: start
	 * only this one, stop it again at the end. */
	r = sbi_hart_status(h);
	was_stopped = !r.error && r.value == SBI_HSM_STATE_STOPPED;
	if (was_stopped) {
		unsigned long old = mailbox[h].entry.count;

		r = sbi_hart_start(h, (uintptr_t)secondary_entry, 0);
		if (!CHECK_ERR(r.error, SBI_SUCCESS, "hart_start(%ld)", h) ||
		    !CHECK(hart_wait_entry(h, old, 2000000), "hart %ld did not start", h))
			return;
	}
	loop_case(h, fw_base(), "stvec in firmware memory");
	loop_case(h, ram_end(), "stvec past RAM");
	if (was_stopped) {
		hart_post(h, stop_self, 0);
		CHECK(hart_wait_state(h, SBI_HSM_STATE_STOPPED, 1000000, &last),
		      "hart %ld did not stop again (status %ld)", h, last);
	}
}

static const struct target_test tests[] = {
	{ "illegal_insn_sie_clear", illegal_insn_sie_clear, DEV_NONE },
	{ "illegal_insn_sie_set", illegal_insn_sie_set, DEV_NONE },
	{ "breakpoint_delegated", breakpoint_delegated, DEV_NONE },
	{ "misaligned_access_completes", misaligned_access_completes, DEV_NONE },
	{ "redirect_writes_only_trap_state", redirect_writes_only_trap_state, DEV_NONE },
	{ "ecall_leaves_s_state", ecall_leaves_s_state, DEV_NONE },
	{ "sret_to_bad_pc", sret_to_bad_pc, DEV_NONE },
	{ "nested_redirect", nested_redirect, DEV_NONE },
	{ "redirect_into_hs_trap_csrs", redirect_into_hs_trap_csrs,
	  DEV_OPENSBI_HS_TRAP_STATE },
	{ "vectored_stvec_exception_at_base", vectored_stvec_exception_at_base,
	  DEV_OPENSBI_VECTORED_STVEC },
	{ "reserved_stvec_mode", reserved_stvec_mode, DEV_NONE },
	{ "unfetchable_stvec_loop", unfetchable_stvec_loop, DEV_NONE },
};
GROUP(redirect, tests);
