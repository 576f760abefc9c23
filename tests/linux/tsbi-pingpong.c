// SPDX-License-Identifier: BSD-2-Clause
/*
 * The context-switch workload of the program-tracing benchmark
 * (tests/linux/trace_bench.c, scripts/bench-trace-linux.py): N round trips
 * through two pipes, measured by the program itself around them.
 *
 *   tsbi-pingpong pp N     a partner process (forked, so on the same CPU
 *                          as this one, and never traced: perf's inherit is
 *                          off) echoes each byte back: this process is
 *                          switched out and in once per round trip
 *   tsbi-pingpong self N   no partner: the answers are in the pipe
 *                          beforehand, so the same write and read system
 *                          calls never block (N <= 60000)
 *
 * Prints "tsbi-pingpong: MODE N instret=I switches=S accesses=A": I the
 * instructions the hart retired over the round trips (U-mode rdinstret,
 * which counts every mode: the partner's, the kernel's and the firmware's
 * too), S this process's context switches over them (/proc/self/status),
 * A the register accesses the firmware emulated on CPU 0 over them (its
 * SBI PMU firmware events ACCESS_LOAD + ACCESS_STORE, per-CPU counting
 * events; -1 when they cannot be opened).  Everything it sets up and
 * reads is outside the rdinstret window.  Run it pinned to CPU 0.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/perf_event.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

/* Linux 6.1's riscv_pmu_sbi: a raw config with bit 63 set is SBI firmware
 * event `config & 0xffff` (the SBI PMU's ACCESS_LOAD 2, ACCESS_STORE 3). */
#define SBI_FW_EVENT(code) ((1ull << 63) | (code))
#define SBI_FW_ACCESS_LOAD  2
#define SBI_FW_ACCESS_STORE 3
#define SELF_MAX 60000      /* below the pipe's 64 KiB */

static unsigned long long read_instret(void)
{
    unsigned long long v;

    __asm__ volatile("rdinstret %0" : "=r"(v));
    return v;
}

/* The number after "key:" when line starts with it, else 0. */
static long long field(const char *line, const char *key)
{
    size_t n = strlen(key);

    return strncmp(line, key, n) == 0 && line[n] == ':' ? strtoll(line + n + 1, NULL, 10) : 0;
}

/* Voluntary plus involuntary context switches of this process so far. */
static long long context_switches(void)
{
    char line[128];
    long long total = 0;
    FILE *f = fopen("/proc/self/status", "r");

    if (!f)
        return -1;
    while (fgets(line, sizeof(line), f))
        total += field(line, "voluntary_ctxt_switches") +
                 field(line, "nonvoluntary_ctxt_switches");
    fclose(f);
    return total;
}

/* A disabled counting event of firmware event `code` on CPU 0, or -1. */
static int open_cpu0_fw_event(unsigned code)
{
    struct perf_event_attr attr;

    memset(&attr, 0, sizeof(attr));
    attr.size = sizeof(attr);
    attr.type = PERF_TYPE_RAW;
    attr.config = SBI_FW_EVENT(code);
    attr.disabled = 1;
    return (int)syscall(SYS_perf_event_open, &attr, -1, 0, -1, PERF_FLAG_FD_CLOEXEC);
}

static void set_counting(const int *fd, int n, unsigned long request)
{
    for (int i = 0; i < n; i++)
        if (fd[i] >= 0)
            ioctl(fd[i], request, 0);
}

/* The sum of the counts, or -1 when an event is missing. */
static long long read_counts(const int *fd, int n)
{
    long long total = 0;

    for (int i = 0; i < n; i++) {
        uint64_t v;

        if (fd[i] < 0 || read(fd[i], &v, sizeof(v)) != (ssize_t)sizeof(v))
            return -1;
        total += (long long)v;
    }
    return total;
}

/* The partner: each byte from `in` goes back on `out`, until EOF. */
static void echo(int in, int out)
{
    char c;

    while (read(in, &c, 1) == 1)
        if (write(out, &c, 1) != 1)
            break;
    _exit(0);
}

static int usage(void)
{
    fprintf(stderr, "usage: tsbi-pingpong pp|self N (1..%d)\n", SELF_MAX);
    return 2;
}

static bool fill(int fd, long n)
{
    static char bytes[SELF_MAX];

    return write(fd, bytes, (size_t)n) == (ssize_t)n;
}

int main(int argc, char **argv)
{
    int to_partner[2], from_partner[2], counters[2];
    unsigned long long start, end;
    long long switches, accesses;
    long n = argc == 3 ? strtol(argv[2], NULL, 10) : 0;
    bool pp = argc == 3 && !strcmp(argv[1], "pp");
    pid_t partner = -1;
    char c = 'x';

    if (n < 1 || n > SELF_MAX || (!pp && strcmp(argv[1], "self") != 0))
        return usage();
    if (pipe(to_partner) || pipe(from_partner)) {
        perror("tsbi-pingpong: pipe");
        return 1;
    }
    if (pp) {
        partner = fork();
        if (partner == 0) {
            close(to_partner[1]);
            close(from_partner[0]);
            echo(to_partner[0], from_partner[1]);
        }
        close(to_partner[0]);
        close(from_partner[1]);
    } else if (!fill(from_partner[1], n)) {
        perror("tsbi-pingpong: filling the pipe");
        return 1;
    }
    counters[0] = open_cpu0_fw_event(SBI_FW_ACCESS_LOAD);
    counters[1] = open_cpu0_fw_event(SBI_FW_ACCESS_STORE);
    /* (the switch counts right around the window: enabling a counter is
     * no switch, but a system call may be) */
    set_counting(counters, 2, PERF_EVENT_IOC_ENABLE);
    switches = context_switches();
    start = read_instret();
    for (long i = 0; i < n; i++)
        if (write(to_partner[1], &c, 1) != 1 || read(from_partner[0], &c, 1) != 1) {
            perror("tsbi-pingpong: round trip");
            return 1;
        }
    end = read_instret();
    switches = context_switches() - switches;
    set_counting(counters, 2, PERF_EVENT_IOC_DISABLE);
    accesses = read_counts(counters, 2);
    if (pp) {
        close(to_partner[1]);
        waitpid(partner, NULL, 0);
    }
    printf("tsbi-pingpong: %s %ld instret=%llu switches=%lld accesses=%lld\n", argv[1], n,
           end - start, switches, accesses);
    return 0;
}
