/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * U-mode programs of the traced-program payload.  They live on PTE.U pages
 * (.user.text / .user.data) and may not call anything else: everything they
 * use is here, and the kernel is reached only through ecall.
 */
#include "tk.h"

USER_TEXT static long sys(long nr, long arg)
{
	register long a0 __asm__("a0") = arg;
	register long a7 __asm__("a7") = nr;

	__asm__ volatile("ecall" : "+r"(a0) : "r"(a7) : "memory");
	return a0;
}

USER_TEXT static void __attribute__((noreturn)) sys_exit(long code)
{
	sys(SYS_EXIT, code);
	for (;;)
		;
}

/* U-mode ecalls: every result checked. */
USER_TEXT long u_syscalls(long n)
{
	long i, sum = 0, bad = 0;

	for (i = 0; i < n; i++) {
		long r = sys(SYS_TWICE, i);

		if (r != 2 * i + 1)
			bad++;
		sum += r;
	}
	if (sys(SYS_COUNT, 0) < n)
		bad++;
	sys_exit(bad ? -1 : sum);
}

/* What a trap costs while traced (make bench-trace, the traps row): n
 * ecalls, and the same loop calling a U-mode function that computes what
 * the system call does instead (u_no_trap). */
USER_TEXT long u_trap(long n)
{
	long i, sum = 0;

	for (i = 0; i < n; i++)
		sum += sys(SYS_TWICE, i);
	sys_exit(sum == n * n ? 0 : -1);
}

USER_TEXT __attribute__((noinline)) static long twice(long x)
{
	__asm__ volatile("" : "+r"(x));   /* (a call, as the ecall is) */
	return 2 * x + 1;
}

USER_TEXT long u_no_trap(long n)
{
	long i, sum = 0;

	for (i = 0; i < n; i++)
		sum += twice(i);
	sys_exit(sum == n * n ? 0 : -1);
}

/* Touches demand-paged memory: each first touch of a page is a page
 * fault the kernel answers by mapping the page. */
USER_TEXT long u_pagefault(long base)
{
	volatile long *p = (volatile long *)base;
	long i, sum = 0;

	for (i = 0; i < DEMAND_PAGES; i++)
		p[i * 512 + (i & 7)] = i * 3 + 1;   /* store: store page fault */
	for (i = 0; i < DEMAND_PAGES; i++)
		sum += p[i * 512 + (i & 7)];
	sys_exit(sum == 3 * DEMAND_PAGES * (DEMAND_PAGES - 1) / 2 + DEMAND_PAGES ? 0 : -1);
}

/* Illegal instructions and breakpoints: the kernel skips each one. */
USER_TEXT long u_illegal(long n)
{
	long i, survived = 0;

	for (i = 0; i < n; i++) {
		__asm__ volatile("unimp");
		survived++;
		__asm__ volatile("ebreak");
		survived++;
		__asm__ volatile("c.ebreak");
		survived++;
	}
	sys_exit(survived == 3 * n ? 0 : -1);
}

USER_DATA static unsigned long u_table[16] = {
	3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 9, 3,
};

/* A long computation the timer preempts: branches, loads, a call chain. */
USER_TEXT static unsigned long mix(unsigned long x, unsigned long k)
{
	x ^= x >> 7;
	x *= 0x9E3779B97F4A7C15ul;
	return x + u_table[k & 15];
}

USER_TEXT long u_compute(long n)
{
	unsigned long x = 12345, odd = 0;
	long i;

	for (i = 0; i < n; i++) {
		x = mix(x, (unsigned long)i);
		if (x & 1)
			odd++;
		else if ((x & 6) == 6)
			x += 17;
	}
	sys_exit((long)((x ^ odd) & 0x7fffffff));
}

/*
 * LR/SC on demand-paged memory (docs/TRACE.md, "LR/SC sequences"): the LR's
 * first touch of a page is a load page fault, which the kernel answers
 * with a read-only mapping, so the SC faults next (a store page fault
 * inside the sequence: the reservation is lost, the SC fails once and the
 * loop retries).  One sequence without an exit (an add), one with (a
 * cmpxchg whose compare can fail).
 */
__asm__(".pushsection .user.text, \"ax\"\n"
	".balign 4\n"
	"u_lrsc_add_w:\n"
	"0:	lr.w	a5, (a0)\n"
	"	add	a4, a5, a1\n"
	"	sc.w	a4, a4, (a0)\n"
	"	bnez	a4, 0b\n"
	"	mv	a0, a5\n"
	"	ret\n"
	"u_lrsc_cmpxchg_w:\n"
	"0:	lr.w.aq	a5, (a0)\n"
	"	bne	a5, a1, 1f\n"
	"	sc.w.aqrl a4, a2, (a0)\n"
	"	bnez	a4, 0b\n"
	"1:	mv	a0, a5\n"
	"	ret\n"
	".popsection\n");
int u_lrsc_add_w(volatile int *p, int n);
int u_lrsc_cmpxchg_w(volatile int *p, int old, int new);

USER_TEXT long u_lrsc(long base)
{
	volatile int *add = (volatile int *)base, *cas = (volatile int *)(base + 4096);
	long i, bad = 0;
	int a0, c;

	/* The pages hold what earlier programs left: values are relative to
	 * what the first touches (each an LR that faults) find. */
	a0 = u_lrsc_add_w(add, 2) + 2;                 /* then the SC faults */
	c = u_lrsc_cmpxchg_w(cas, 0x7fffffff, 0);      /* the compare fails */
	for (i = 0; i < 8; i++) {
		bad |= u_lrsc_add_w(add, 2) != a0 + 2 * i;
		/* stored (the first time, after its SC's store fault) */
		bad |= u_lrsc_cmpxchg_w(cas, c + (int)i, c + (int)i + 1) != c + i;
		bad |= u_lrsc_cmpxchg_w(cas, c - 1, 0) != c + i + 1;   /* compare fails */
	}
	sys_exit(bad || *add != a0 + 16 || *cas != c + 8 ? -1 : 0);
}
