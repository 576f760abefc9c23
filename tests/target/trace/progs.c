/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * S-mode programs of the traced-program payload, the kinds the host N-Trace
 * corpus has: sorting with function pointers, deep recursion, an
 * interpreter with a jump table, string routines (RVC), an illegal
 * instruction.  Each checks its own result (0 = right).
 */
#include "tk.h"

/* ---- Sorting through comparison callbacks ---------------------------- */

typedef int (*cmp_fn)(long, long);

static int cmp_up(long a, long b) { return a < b ? -1 : a > b; }
static int cmp_down(long a, long b) { return b < a ? -1 : b > a; }

static void insertion_sort(long *v, int n, cmp_fn cmp)
{
	for (int i = 1; i < n; i++) {
		long x = v[i];
		int j = i - 1;

		while (j >= 0 && cmp(v[j], x) > 0) {
			v[j + 1] = v[j];
			j--;
		}
		v[j + 1] = x;
	}
}

static void quick_sort(long *v, int lo, int hi, cmp_fn cmp)
{
	if (hi - lo < 8) {
		insertion_sort(v + lo, hi - lo + 1, cmp);
		return;
	}
	long pivot = v[(lo + hi) / 2];
	int i = lo, j = hi;

	while (i <= j) {
		while (cmp(v[i], pivot) < 0)
			i++;
		while (cmp(v[j], pivot) > 0)
			j--;
		if (i <= j) {
			long t = v[i];

			v[i++] = v[j];
			v[j--] = t;
		}
	}
	if (lo < j)
		quick_sort(v, lo, j, cmp);
	if (i < hi)
		quick_sort(v, i, hi, cmp);
}

long p_sort(void)
{
	long v[96];     /* on the stack: every hart runs this at once */
	static const cmp_fn order[2] = { cmp_up, cmp_down };
	unsigned long seed = 7;
	long bad = 0;

	for (int round = 0; round < 2; round++) {
		for (int i = 0; i < 96; i++) {
			seed = seed * 6364136223846793005ul + 1442695040888963407ul;
			v[i] = (long)(seed >> 40) - 4000;
		}
		quick_sort(v, 0, 95, order[round]);
		for (int i = 1; i < 96; i++)
			bad += order[round](v[i - 1], v[i]) > 0;
	}
	return bad;
}

/* ---- Recursion --------------------------------------------------------- */

static long fib(long n)
{
	return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

static long ackermann(long m, long n)
{
	if (m == 0)
		return n + 1;
	if (n == 0)
		return ackermann(m - 1, 1);
	return ackermann(m - 1, ackermann(m, n - 1));
}

static long hanoi(int n, int from, int to, int via)
{
	if (n == 0)
		return 0;
	return hanoi(n - 1, from, via, to) + 1 + hanoi(n - 1, via, to, from);
}

long p_recurse(void)
{
	return (fib(11) != 89) + (ackermann(2, 2) != 7) + (hanoi(6, 0, 2, 1) != 63);
}

/* ---- A register-machine interpreter (switch -> jump table) ------------ */

enum op { OP_LOADI, OP_ADD, OP_SUB, OP_MUL, OP_JNZ, OP_DEC, OP_CALL, OP_HALT, OP_XOR, OP_SHR };

struct insn {
	uint8_t op, a, b, c;
	int32_t imm;
};

static long helper_square(long x) { return x * x; }
static long helper_negate(long x) { return -x; }
static long (*const helpers[2])(long) = { helper_square, helper_negate };

static long interp_run(const struct insn *prog, long *r)
{
	for (int pc = 0;;) {
		const struct insn *i = &prog[pc++];

		switch (i->op) {
		case OP_LOADI: r[i->a] = i->imm; break;
		case OP_ADD: r[i->a] = r[i->b] + r[i->c]; break;
		case OP_SUB: r[i->a] = r[i->b] - r[i->c]; break;
		case OP_MUL: r[i->a] = r[i->b] * r[i->c]; break;
		case OP_XOR: r[i->a] = r[i->b] ^ r[i->c]; break;
		case OP_SHR: r[i->a] = r[i->b] >> (r[i->c] & 63); break;
		case OP_DEC: r[i->a]--; break;
		case OP_JNZ: if (r[i->a]) pc = i->imm; break;
		case OP_CALL: r[i->a] = helpers[i->imm & 1](r[i->b]); break;
		default: return r[0];
		}
	}
}

long p_interp(void)
{
	/* r0 = sum over k = 12..1 of k*k, minus 5 via negate + add */
	static const struct insn prog[] = {
		{ OP_LOADI, 0, 0, 0, 0 },
		{ OP_LOADI, 1, 0, 0, 12 },
		{ OP_CALL, 2, 1, 0, 0 },     /* 2: r2 = r1 * r1 */
		{ OP_ADD, 0, 0, 2, 0 },
		{ OP_DEC, 1, 0, 0, 0 },
		{ OP_JNZ, 1, 0, 0, 2 },
		{ OP_LOADI, 3, 0, 0, 5 },
		{ OP_CALL, 3, 3, 0, 1 },     /* r3 = -5 */
		{ OP_ADD, 0, 0, 3, 0 },
		{ OP_LOADI, 4, 0, 0, 1 },
		{ OP_XOR, 5, 0, 4, 0 },
		{ OP_SHR, 5, 5, 4, 0 },
		{ OP_HALT, 0, 0, 0, 0 },
	};
	long r[8];

	return interp_run(prog, r) != 650 - 5 || r[5] != (645 ^ 1) >> 1;
}

/* ---- String routines ----------------------------------------------------- */

static size_t s_len(const char *s)
{
	size_t n = 0;

	while (s[n])
		n++;
	return n;
}

static void s_reverse(char *s)
{
	for (size_t i = 0, j = s_len(s); i + 1 < j; i++, j--) {
		char t = s[i];

		s[i] = s[j - 1];
		s[j - 1] = t;
	}
}

static int s_words(const char *s)
{
	int n = 0, in = 0;

	for (; *s; s++) {
		if (*s == ' ')
			in = 0;
		else if (!in) {
			in = 1;
			n++;
		}
	}
	return n;
}

static int s_cmp(const char *a, const char *b)
{
	while (*a && *a == *b)
		a++, b++;
	return (unsigned char)*a - (unsigned char)*b;
}

long p_strings(void)
{
	char buf[64];   /* per hart */
	static const char text[] = "the quick brown fox jumps over the lazy dog";
	long bad = 0;
	size_t i;

	for (i = 0; text[i]; i++)
		buf[i] = text[i];
	buf[i] = 0;
	bad += s_len(buf) != sizeof(text) - 1;
	bad += s_words(buf) != 9;
	s_reverse(buf);
	bad += buf[0] != 'g' || s_cmp(buf, "god yzal eht revo spmuj xof nworb kciuq eht") != 0;
	s_reverse(buf);
	bad += s_cmp(buf, text) != 0;
	return bad;
}

/* ---- Functions an address-range filter selects (link.ld) ---------------- */

__attribute__((section(".text.filtered"), noinline)) static long filtered_leaf(long x)
{
	return x * 3 + (x & 1);
}

__attribute__((section(".text.filtered"), noinline)) long p_filtered(void)
{
	long sum = 0;

	for (long i = 0; i < 40; i++)
		sum += filtered_leaf(i) + p_recurse();
	return sum != 2360;
}

/* ---- An illegal instruction in S-mode (the kernel skips it) ------------- */

long p_s_illegal(void)
{
	volatile long n = 0;

	__asm__ volatile("unimp");
	n++;
	__asm__ volatile("unimp");
	n++;
	return n != 2;
}

/* ---- SSE events (ext-sse.adoc): SBI calls that return elsewhere --------- */

/*
 * The handler of the local software event: it counts its runs in the
 * counter ENTRY_ARG (a7) points to and completes.  It touches a6/a7 only,
 * which completion gives back (INTERRUPTED_A6/A7), so the interrupted code
 * keeps every register.  The inject call returns into it, and its complete
 * call returns after the inject: two SBI calls that do not return after
 * their ecall, which the trace must follow.
 */
__asm__(".text\n"
	".balign 4\n"
	"trace_sse_entry:\n"
	"	ld	a6, 0(a7)\n"
	"	addi	a6, a6, 1\n"
	"	sd	a6, 0(a7)\n"
	"	li	a7, 0x535345\n"   /* SBI_EXT_SSE */
	"	li	a6, 6\n"          /* SBI_SSE_COMPLETE */
	"	ecall\n"
	"1:	j	1b\n");             /* complete never returns here */
void trace_sse_entry(void);

long p_sse(unsigned long hartid, volatile long *count)
{
	const unsigned long ev = SBI_SSE_EVENT_LOCAL_SOFTWARE;
	long bad = 0;

	*count = 0;
	bad |= SBI3(SBI_EXT_SSE, SBI_SSE_REGISTER, ev, (uintptr_t)trace_sse_entry,
		    (uintptr_t)count).error;
	bad |= SBI1(SBI_EXT_SSE, SBI_SSE_ENABLE, ev).error;
	bad |= SBI0(SBI_EXT_SSE, SBI_SSE_HART_UNMASK).error;   /* masked at boot */
	for (int i = 0; i < 3; i++)
		bad |= SBI2(SBI_EXT_SSE, SBI_SSE_INJECT, ev, hartid).error;
	bad |= SBI0(SBI_EXT_SSE, SBI_SSE_HART_MASK).error;
	bad |= SBI1(SBI_EXT_SSE, SBI_SSE_DISABLE, ev).error;
	bad |= SBI1(SBI_EXT_SSE, SBI_SSE_UNREGISTER, ev).error;
	return bad || *count != 3;
}

/* ---- LR/SC sequences (docs/TRACE.md, "LR/SC sequences") ------------------- */

/*
 * Constrained LR/SC loops of the shapes Linux 6.1 uses (arch/riscv's
 * cmpxchg, atomic_fetch_add_unless, atomic_dec_if_positive), with
 * compressed and full-size branches, a forward branch that leaves the
 * sequence and one that stays inside it, and an instruction before the LR
 * in the same block.  A visit between the LR and the SC would make the SC
 * fail at every try: the loops would never end while traced.
 *   lrsc_cmpxchg_d(p, old, new)  the value seen (new stored when it was old)
 *   lrsc_add_w(p, n)             the old value (p += n)
 *   lrsc_dec_pos_w(p)            old - 1 (stored only when not negative)
 *   lrsc_inc_sat_w(p, limit)     min(old + 1, limit), stored
 *   lrsc_add_unless_d(p, n, u)   the old value (p += n unless it was u)
 *   lrsc_add_count_w(p, n, r)    the old value (p += n; *r += the SC's retries)
 */
__asm__(".text\n"
	".balign 4\n"
	".globl lrsc_cmpxchg_d, lrsc_add_w, lrsc_dec_pos_w, lrsc_inc_sat_w, lrsc_add_unless_d\n"
	".globl lrsc_add_count_w\n"
	"lrsc_cmpxchg_d:\n"
	"0:	lr.d	a5, (a0)\n"
	"	bne	a5, a1, 1f\n"
	"	sc.d.rl	a4, a2, (a0)\n"
	"	bnez	a4, 0b\n"              /* c.bnez */
	"	fence	rw, rw\n"
	"1:	mv	a0, a5\n"
	"	ret\n"
	"lrsc_add_w:\n"
	".option push\n"
	".option norvc\n"
	"0:	lr.w.aq	a5, (a0)\n"
	"	add	a4, a5, a1\n"
	"	sc.w.rl	a4, a4, (a0)\n"
	"	bnez	a4, 0b\n"              /* 32-bit bne */
	".option pop\n"
	"	mv	a0, a5\n"
	"	ret\n"
	"lrsc_dec_pos_w:\n"
	"0:	lr.w	a5, (a0)\n"
	"	addiw	a4, a5, -1\n"           /* c.addiw */
	"	bltz	a4, 1f\n"
	"	sc.w.rl	a3, a4, (a0)\n"
	"	bnez	a3, 0b\n"
	"	fence	rw, rw\n"
	"1:	mv	a0, a4\n"
	"	ret\n"
	"lrsc_inc_sat_w:\n"
	"	li	a3, 0\n"                /* the block's run before the LR */
	"0:	lr.w	a5, (a0)\n"
	"	addiw	a4, a5, 1\n"
	"	blt	a4, a1, 1f\n"           /* stays inside the sequence */
	"	mv	a4, a1\n"
	"1:	sc.w	a3, a4, (a0)\n"
	"	bnez	a3, 0b\n"
	"	mv	a0, a4\n"
	"	ret\n"
	"lrsc_add_count_w:\n"
	"	li	a6, -1\n"              /* the block's run before the LR */
	"0:	addi	a6, a6, 1\n"
	"	lr.w.aq	a5, (a0)\n"
	"	nop\n"                      /* a wider window for contention */
	"	nop\n"
	"	nop\n"
	"	nop\n"
	"	add	a4, a5, a1\n"
	"	sc.w.rl	a4, a4, (a0)\n"
	"	bnez	a4, 0b\n"
	"	lw	a4, 0(a2)\n"
	"	add	a4, a4, a6\n"
	"	sw	a4, 0(a2)\n"
	"	mv	a0, a5\n"
	"	ret\n"
	"lrsc_add_unless_d:\n"
	"0:	lr.d	a5, (a0)\n"
	"	beq	a5, a2, 1f\n"
	"	add	a4, a5, a1\n"
	"	sc.d.rl	a4, a4, (a0)\n"
	"	bnez	a4, 0b\n"
	"	fence	rw, rw\n"
	"1:	mv	a0, a5\n"
	"	ret\n");
long lrsc_cmpxchg_d(volatile long *p, long old, long new);
int lrsc_add_w(volatile int *p, int n);
int lrsc_dec_pos_w(volatile int *p);
int lrsc_inc_sat_w(volatile int *p, int limit);
long lrsc_add_unless_d(volatile long *p, long n, long u);

long p_lrsc(void)
{
	volatile long word = 5, unless = 0;   /* per hart: every hart runs this at once */
	volatile int count = 0, down = 3, sat = 0;
	long bad = 0;

	for (long i = 0; i < 16; i++) {
		bad |= lrsc_cmpxchg_d(&word, 5 + i, 6 + i) != 5 + i;    /* stored */
		bad |= lrsc_cmpxchg_d(&word, 100, 7) != 6 + i;          /* compare fails */
		bad |= lrsc_add_w(&count, 3) != 3 * i;
		bad |= lrsc_dec_pos_w(&down) != 2 - (i < 3 ? i : 3);    /* stops at 0 */
		bad |= lrsc_inc_sat_w(&sat, 10) != (i < 10 ? i + 1 : 10);
		bad |= lrsc_add_unless_d(&unless, 1, 8) != (i < 8 ? i : 8);
	}
	return bad || word != 21 || count != 48 || down != 0 || sat != 10 || unless != 8;
}
