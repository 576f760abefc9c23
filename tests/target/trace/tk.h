/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The traced-program payload (tests/trace/README.md): a small S-mode kernel
 * that runs S-mode and U-mode programs while the firmware traces them.
 */
#ifndef TK_H
#define TK_H

#include "rt.h"

/* Trap frame of entry.S's tk_vector. */
struct tk_frame {
	unsigned long regs[32];
	unsigned long sepc, scause, stval, sstatus;
};

/* U-mode programs (uprogs.c), entered with tk_run_user. */
#define USER_TEXT __attribute__((section(".user.text"), noinline))
#define USER_DATA __attribute__((section(".user.data")))

#define SYS_EXIT   0
#define SYS_TWICE  1   /* returns 2 * a0 + 1 */
#define SYS_COUNT  2   /* returns how many syscalls this hart made */

long u_syscalls(long n);
long u_trap(long n);
long u_no_trap(long n);
long u_pagefault(long base);
long u_illegal(long n);
long u_compute(long n);
long u_lrsc(long base);

/* Demand-paged U memory: DEMAND_PAGES pages per hart, unmapped until a
 * U-mode access faults on them. */
#define DEMAND_PAGES 6
extern char tk_demand[][DEMAND_PAGES][4096];
extern char tk_ustack[][4096];

/* S-mode programs (progs.c): each returns 0 when its result is right. */
long p_sort(void);
long p_recurse(void);
long p_interp(void);
long p_strings(void);
long p_filtered(void);
long p_s_illegal(void);
long p_sse(unsigned long hartid, volatile long *count);
long p_fp(void);   /* fp.S */
long p_lrsc(void);
int lrsc_add_w(volatile int *p, int n);
int lrsc_add_count_w(volatile int *p, int n, int *retries);

/* entry.S */
extern char tk_vector[], tk_user_return[], trace_first[], trace_last[];
long tk_run_user(long (*entry)(long), long arg, uintptr_t user_sp, unsigned long *ctx);
void trace_session_start(volatile uint32_t *control, uint32_t value);
void trace_session_stop(volatile uint32_t *control, uint32_t value);

#endif
