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
