// SPDX-License-Identifier: BSD-2-Clause
/*
 * Linux's own perf tool on the firmware's SBI PMU: what a perf user runs
 * first.  Only with tracesbi.perftool=check (assert) or =info (report the
 * figures only: the differential boot under another firmware).
 *
 * Checks (scripts/run-linux-test.sh names them linux/perf-tool/...):
 *   stat            perf stat -e cycles,instructions of the loop
 *   record-EVENT    perf record -c PERIOD of the loop, for cycles
 *                   and instructions, plain, :u and :k; then perf
 *                   report: the sample count (against the loop's
 *                   instructions / PERIOD) and where they fell
 *   record-cpuN     the same, the loop pinned to CPU N, for every CPU:
 *                   sampling works on every hart
 *   record-all-cpus perf record -a while a loop runs on every CPU
 * and, in init's ordinary boot (tracesbi.perftool=tlb, no -icount):
 *   perf-tool/record-dTLB-load-misses, -dTLB-store-misses, -iTLB-load-misses
 *                   the TLB-miss events QEMU counts itself: some samples
 *
 * Sampling is counter overflow: the firmware must give cycles and
 * instructions a counter that raises LCOFI (docs/PMU.md "Which counter an
 * event gets").  The boot runs under -icount, where cycles and instret
 * count instructions, so the expected sample count is exact to a few
 * percent.  QEMU 7.2 counts cycles and instructions in every privilege
 * mode whatever mhpmevent's xINH bits say, so the samples of a :k event
 * fall where the time went (the loop, in U-mode): only their task is
 * checked, not their mode.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "init.h"

#define PERF "/bin/perf"
#define SPIN "/bin/tsbi-spin"
#define SPIN_COMM "tsbi-spin"
#define DATA "/tmp/perf.data"
#define ITERATIONS "10000000"
#define PERIOD 100000ul
#define MAX_CPUS 64
#define OUTPUT_MAX 65536

static bool asserting;   /* tracesbi.perftool=check; =info only reports */
static char output[OUTPUT_MAX];

static void result(bool ok, const char *check, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void result(bool ok, const char *check, const char *fmt, ...)
{
    char why[400];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(why, sizeof(why), fmt, ap);
    va_end(ap);
    if (!asserting)
        return;   /* the figures are on the INFO line before */
    if (ok)
        pass(check);
    else
        fail(check, "%s", why);
}

/* Runs argv with stdout and stderr into `output`; its exit status, or -1. */
static int run_capture(char *const argv[])
{
    int fds[2], status;
    size_t len = 0;
    ssize_t n;
    pid_t pid;

    output[0] = '\0';
    if (pipe(fds))
        return -1;
    pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        dup2(fds[1], 1);
        dup2(fds[1], 2);
        close(fds[0]);
        execv(argv[0], argv);
        fprintf(stderr, "execv %s: %s\n", argv[0], strerror(errno));
        _exit(127);
    }
    close(fds[1]);
    while ((n = read(fds[0], output + len, sizeof(output) - 1 - len)) > 0)
        len += (size_t)n;
    output[len] = '\0';
    close(fds[0]);
    if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
        return -1;
    return WEXITSTATUS(status);
}

/* The last line of `output`, for a failure message. */
static const char *last_output_line(void)
{
    static char line[160];
    size_t len = strlen(output);
    const char *p;

    while (len && output[len - 1] == '\n')
        len--;
    for (p = output + len; p > output && p[-1] != '\n'; p--)
        ;
    snprintf(line, sizeof(line), "%.*s", (int)(output + len - p), p);
    return line;
}

/* ---- perf stat ---- */

/* The count of `event` in perf stat -x, output, or 0. */
static uint64_t stat_count(const char *event)
{
    char *line = output;

    while (line && *line) {
        char *next = strchr(line, '\n'), *field;

        if (next)
            *next = '\0';
        field = strchr(line, ',');
        if (field && strncmp(field, ",,", 2) == 0 && strstr(field + 2, event) == field + 2) {
            uint64_t v = strtoull(line, NULL, 10);

            if (next)
                *next = '\n';
            return v;
        }
        if (next)
            *next = '\n';
        line = next ? next + 1 : NULL;
    }
    return 0;
}

/* The loop's instructions as perf stat counts them (0 when it cannot). */
static uint64_t check_stat(void)
{
    char *argv[] = { PERF, "stat", "-x", ",", "-e", "cycles,instructions", "--", SPIN,
                     ITERATIONS, NULL };
    uint64_t iterations = strtoull(ITERATIONS, NULL, 10), cycles, insns;
    int rc = run_capture(argv);

    cycles = stat_count("cycles");
    insns = stat_count("instructions");
    printf("INFO: linux/perf-tool/stat: cycles %llu, instructions %llu for %llu iterations\n",
           (unsigned long long)cycles, (unsigned long long)insns,
           (unsigned long long)iterations);
    if (rc != 0) {
        printf("INFO: linux/perf-tool/stat: perf stat exited with %d: %s\n", rc,
               last_output_line());
        result(false, "stat", "perf stat exited with %d: %s", rc, last_output_line());
        return 0;
    }
    /* The loop body is at least 3 instructions (add, addi, branch). */
    result(cycles > 0 && insns >= 3 * iterations && insns <= 100 * iterations, "stat",
           "cycles %llu, instructions %llu: want both counted, instructions in [3, 100] "
           "per iteration", (unsigned long long)cycles, (unsigned long long)insns);
    return insns;
}

/* ---- perf record + perf report ---- */

struct profile {
    unsigned long total;          /* samples */
    unsigned long in_spin;        /* of the loop's task */
    unsigned long in_spin_code;   /* of the loop's task, in its own code */
    unsigned long spin_on[MAX_CPUS]; /* of the loop's task, per CPU */
};

/* perf report --sort cpu,comm,dso -n rows: "PCT% SAMPLES CPU COMM DSO". */
static void parse_report(struct profile *p)
{
    char *line = output;

    memset(p, 0, sizeof(*p));
    while (line && *line) {
        char *next = strchr(line, '\n'), comm[64], dso[160];
        unsigned long samples;
        double pct;
        int cpu;

        if (next)
            *next = '\0';
        if (line[0] != '#' &&
            sscanf(line, " %lf%% %lu %d %63s %159s", &pct, &samples, &cpu, comm, dso) == 5) {
            p->total += samples;
            if (!strcmp(comm, SPIN_COMM)) {
                p->in_spin += samples;
                if (!strcmp(dso, SPIN_COMM))
                    p->in_spin_code += samples;
                if (cpu >= 0 && cpu < MAX_CPUS)
                    p->spin_on[cpu] += samples;
            }
        }
        if (next)
            *next = '\n';
        line = next ? next + 1 : NULL;
    }
}

/* perf record [extra] -e event -c period_ -- tsbi-spin ITERATIONS [where],
 * then perf report; false (and a result line) when either fails. */
static bool record(const char *check, const char *event, unsigned long period_,
                   const char *extra, const char *where, struct profile *p)
{
    char period[24];
    char *rec[16] = { PERF, "record", "-q", "-N", "--sample-cpu", "-o", DATA, "-e",
                      (char *)event, "-c", period };
    char *report[] = { PERF, "report", "-i", DATA, "--stdio", "-q", "-n", "--sort",
                       "cpu,comm,dso", NULL };
    int n = 11, rc;

    snprintf(period, sizeof(period), "%lu", period_);
    if (extra)
        rec[n++] = (char *)extra;
    rec[n++] = "--";
    rec[n++] = SPIN;
    rec[n++] = ITERATIONS;
    if (where)
        rec[n++] = (char *)where;
    rec[n] = NULL;
    unlink(DATA);
    rc = run_capture(rec);
    if (rc != 0) {
        printf("INFO: linux/perf-tool/%s: perf record exited with %d: %s\n", check, rc,
               last_output_line());
        result(false, check, "perf record exited with %d: %s", rc, last_output_line());
        return false;
    }
    rc = run_capture(report);
    if (rc != 0) {
        printf("INFO: linux/perf-tool/%s: perf report exited with %d: %s\n", check, rc,
               last_output_line());
        result(false, check, "perf report exited with %d: %s", rc, last_output_line());
        return false;
    }
    parse_report(p);
    return true;
}

static unsigned long percent(unsigned long part, unsigned long whole)
{
    return whole ? part * 100 / whole : 0;
}

/* Within a factor of two of the expected count (the loop's instructions
 * over the period: under -icount cycles count instructions too). */
static bool count_plausible(unsigned long samples, unsigned long expected)
{
    return samples >= expected / 2 && samples <= 2 * expected + 10;
}

static void check_record_event(const char *event, unsigned long expected)
{
    bool kernel_only = strstr(event, ":k") != NULL;
    char check[48];
    struct profile p;
    bool ok;

    snprintf(check, sizeof(check), "record-%s", event);
    for (char *c = check; *c; c++)
        if (*c == ':')
            *c = '-';
    if (!record(check, event, PERIOD, NULL, NULL, &p))
        return;
    printf("INFO: linux/perf-tool/%s: %lu samples (about %lu expected), %lu %% in %s, "
           "%lu %% in its code\n", check, p.total, expected, percent(p.in_spin, p.total),
           SPIN_COMM, percent(p.in_spin_code, p.total));
    ok = count_plausible(p.total, expected) && percent(p.in_spin, p.total) >= 90 &&
         (kernel_only || percent(p.in_spin_code, p.total) >= 90);
    result(ok, check, "%lu samples, want %lu to %lu; %lu %% in %s, %lu %% in its code: want "
           ">= 90 %%%s", p.total, expected / 2, 2 * expected + 10, percent(p.in_spin, p.total),
           SPIN_COMM, percent(p.in_spin_code, p.total),
           kernel_only ? " in the task (QEMU 7.2 does not filter by mode)" : " for both");
}

/* The cache events QEMU 7.2 counts on HPM counters (TLB misses, which it
 * increments itself): they sample too.  Their count depends on the
 * kernel's work, so only some samples are asked for. */
static void check_record_tlb_event(const char *event)
{
    char check[48];
    struct profile p;

    snprintf(check, sizeof(check), "perf-tool/record-%s", event);
    if (!record(check, event, 20, NULL, NULL, &p))
        return;
    printf("INFO: linux/%s: %lu samples at one per 20 misses, %lu %% in %s\n", check,
           p.total, percent(p.in_spin, p.total), SPIN_COMM);
    result(p.total > 0, check, "no sample of %s at one per 20 misses", event);
}

static void check_record_on_cpu(int cpu, unsigned long expected)
{
    char check[32], where[12];
    struct profile p;

    snprintf(check, sizeof(check), "record-cpu%d", cpu);
    snprintf(where, sizeof(where), "%d", cpu);
    if (!record(check, "cycles", PERIOD, NULL, where, &p))
        return;
    printf("INFO: linux/perf-tool/%s: %lu samples (about %lu expected), %lu on CPU %d in %s\n",
           check, p.total, expected, p.spin_on[cpu], cpu, SPIN_COMM);
    result(count_plausible(p.total, expected) && percent(p.spin_on[cpu], p.total) >= 90, check,
           "%lu samples, %lu of them on CPU %d in %s: want %lu to %lu, >= 90 %% there", p.total,
           p.spin_on[cpu], cpu, SPIN_COMM, expected / 2, 2 * expected + 10);
}

static void check_record_all_cpus(int cpus, unsigned long expected)
{
    struct profile p;
    char why[300] = "";
    size_t len = 0;
    bool ok = true;

    if (!record("record-all-cpus", "cycles", PERIOD, "-a", "all", &p))
        return;
    for (int cpu = 0; cpu < cpus; cpu++) {
        len += (size_t)snprintf(why + len, sizeof(why) - len, "%sCPU %d: %lu", cpu ? ", " : "",
                                cpu, p.spin_on[cpu]);
        ok = ok && p.spin_on[cpu] >= expected / 4;
        if (len >= sizeof(why))
            break;
    }
    printf("INFO: linux/perf-tool/record-all-cpus: %lu samples; of %s: %s\n", p.total,
           SPIN_COMM, why);
    result(ok, "record-all-cpus", "samples of %s per CPU: %s; want at least %lu on each",
           SPIN_COMM, why, expected / 4);
}

/*
 * tracesbi.perftool=tlb (=tlb-info): only the TLB-miss events, in a boot
 * without -icount: under -icount QEMU 7.2 aborts ("Raised interrupt while
 * not in I/O function") when a counter it increments overflows.
 */
void check_perf_tool_tlb(void)
{
    struct stat st;

    if (cmdline_has("tracesbi.perftool=tlb"))
        asserting = true;
    else if (!cmdline_has("tracesbi.perftool=tlb-info"))
        return;
    if (stat(PERF, &st) || stat(SPIN, &st)) {
        printf("INFO: linux/perf-tool/present: %s or %s missing\n", PERF, SPIN);
        result(false, "perf-tool/present", "%s or %s missing from the initramfs", PERF, SPIN);
        return;
    }
    mkdir("/tmp", 01777);
    check_record_tlb_event("dTLB-load-misses");
    check_record_tlb_event("dTLB-store-misses");
    check_record_tlb_event("iTLB-load-misses");
}

void check_perf_tool(int cpus)
{
    static const char *const events[] = { "cycles", "instructions", "cycles:u",
                                          "instructions:u", "cycles:k", "instructions:k" };
    struct stat st;
    uint64_t insns;
    unsigned long expected;

    if (cmdline_has("tracesbi.perftool=check"))
        asserting = true;
    else if (!cmdline_has("tracesbi.perftool=info"))
        return;
    if (stat(PERF, &st) || stat(SPIN, &st)) {
        printf("INFO: linux/perf-tool/present: %s or %s missing\n", PERF, SPIN);
        result(false, "present", "%s or %s missing from the initramfs", PERF, SPIN);
        return;
    }
    mkdir("/tmp", 01777);
    insns = check_stat();
    if (!insns) {
        result(false, "record", "no instruction count from perf stat to size the samples by");
        return;
    }
    expected = (unsigned long)(insns / PERIOD);
    for (size_t i = 0; i < sizeof(events) / sizeof(events[0]); i++)
        check_record_event(events[i], expected);

    if (cpus > MAX_CPUS)
        cpus = MAX_CPUS;
    for (int cpu = 0; cpu < cpus; cpu++)
        check_record_on_cpu(cpu, expected);
    check_record_all_cpus(cpus, expected);
}
