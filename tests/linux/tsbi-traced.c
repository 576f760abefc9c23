// SPDX-License-Identifier: BSD-2-Clause
/*
 * The program the perf trace tests trace from Linux (tests/linux/
 * trace-perf-test.py): calls through pointers, recursion, a loop of
 * branches, system calls and first touches of fresh pages (page faults),
 * in a deterministic amount of work.  It is freestanding (no libc: every
 * instruction it runs is its own) and linked at 0x2000000000
 * (build-linux.sh: -Ttext-segment, -mcmodel=medany), where nothing else in
 * the test system lives, so that QEMU's -dfilter keeps exactly its
 * instructions in the execution log the trace is compared with.
 *
 *   tsbi-traced N        N rounds (1..1000), prints "tsbi-traced: N SUM"
 */
#include <stddef.h>

#define SYS_getppid 173
#define SYS_write   64
#define SYS_exit    93
#define SYS_munmap  215
#define SYS_mmap    222
#define PAGE        4096ul

static long syscall6(long n, long a0, long a1, long a2, long a3, long a4, long a5)
{
    register long r0 __asm__("a0") = a0, r1 __asm__("a1") = a1, r2 __asm__("a2") = a2;
    register long r3 __asm__("a3") = a3, r4 __asm__("a4") = a4, r5 __asm__("a5") = a5;
    register long nr __asm__("a7") = n;

    __asm__ volatile("ecall" : "+r"(r0) : "r"(r1), "r"(r2), "r"(r3), "r"(r4), "r"(r5), "r"(nr)
                     : "memory");
    return r0;
}

typedef unsigned long (*step_fn)(unsigned long);

static unsigned long __attribute__((noinline)) twice(unsigned long x) { return 2 * x + 1; }
static unsigned long __attribute__((noinline)) half(unsigned long x) { return x / 2 + 3; }
static unsigned long __attribute__((noinline)) mix(unsigned long x) { return x ^ (x >> 3); }

static unsigned long __attribute__((noinline)) fib(unsigned n)
{
    return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

static unsigned long __attribute__((noinline)) collatz_steps(unsigned long x)
{
    unsigned long n = 0;

    while (x != 1 && n < 500) {
        x = (x & 1) ? 3 * x + 1 : x / 2;
        n++;
    }
    return n;
}

/* Touches every page of a fresh mapping: a page fault each. */
static unsigned long touch_pages(unsigned long pages)
{
    volatile unsigned char *p;
    unsigned long sum = 0;
    long addr = syscall6(SYS_mmap, 0, (long)(pages * PAGE), 3 /* RW */,
                         0x22 /* PRIVATE|ANONYMOUS */, -1, 0);

    if (addr < 0 && addr > -4096)
        return 0;
    p = (volatile unsigned char *)addr;
    for (unsigned long i = 0; i < pages * PAGE; i += PAGE) {
        p[i] = (unsigned char)(i >> 12);
        sum += p[i];
    }
    syscall6(SYS_munmap, addr, (long)(pages * PAGE), 0, 0, 0, 0);
    return sum;
}

static long parse_rounds(const char *s)
{
    long v = 0;

    if (!s || !*s)
        return -1;
    for (; *s; s++) {
        if (*s < '0' || *s > '9' || v > 1000)
            return -1;
        v = v * 10 + (*s - '0');
    }
    return v;
}

static size_t put_decimal(char *p, unsigned long v)
{
    char tmp[24];
    size_t n = 0, i;

    do {
        tmp[n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    for (i = 0; i < n; i++)
        p[i] = tmp[n - 1 - i];
    return n;
}

static void say(const char *s, size_t len)
{
    syscall6(SYS_write, 1, (long)s, (long)len, 0, 0, 0);
}

static int run(long argc, char **argv)
{
    static const step_fn steps[] = { twice, half, mix };
    static const char usage[] = "usage: tsbi-traced ROUNDS (1..1000)\n";
    long rounds = argc > 1 ? parse_rounds(argv[1]) : -1;
    unsigned long sum = 0;
    static const char prefix[] = "tsbi-traced: ";
    char line[64];
    size_t n;

    if (rounds < 1 || rounds > 1000) {
        say(usage, sizeof(usage) - 1);
        return 2;
    }
    for (long r = 0; r < rounds; r++) {
        for (unsigned i = 0; i < 30; i++)
            sum = steps[(sum + i) % 3](sum) & 0xffffff;
        sum += fib(10 + (unsigned)(r & 3));
        sum += collatz_steps(27 + (unsigned long)r);
        sum += touch_pages(4);
        if (syscall6(SYS_getppid, 0, 0, 0, 0, 0, 0) == 0)   /* never */
            sum = 0;
    }
    for (n = 0; prefix[n]; n++)   /* no memcpy: nothing but this program runs */
        line[n] = prefix[n];
    n += put_decimal(line + n, (unsigned long)rounds);
    line[n++] = ' ';
    n += put_decimal(line + n, sum);
    line[n++] = '\n';
    say(line, n);
    return 0;
}

/* The kernel's initial stack: argc, then argv[]. */
void __attribute__((noreturn, used)) traced_main(long *sp)
{
    syscall6(SYS_exit, run(sp[0], (char **)(sp + 1)), 0, 0, 0, 0, 0);
    __builtin_unreachable();
}

__asm__(".text\n"
        ".globl _start\n"
        "_start:\n"
        "	mv	a0, sp\n"
        "	andi	sp, sp, -16\n"
        "	call	traced_main\n");
