// SPDX-License-Identifier: BSD-2-Clause
/*
 * init of the tracesbi Linux boot test: the only program of the initramfs.
 *
 * It prints what the kernel sees of the machine the firmware handed over
 * (online CPUs, harts, interrupts, PMU), checks it, exercises the firmware
 * through the kernel (threads on every hart, remote TLB shootdowns through
 * SBI RFENCE, CPU offline/online through SBI HSM, perf counting through the
 * SBI PMU: cycles, instructions and the firmware events set_timer and IPI
 * sent), and powers off through reboot(RB_POWER_OFF), which the kernel
 * turns into an SBI SRST call.
 *
 * Output contract with scripts/run-linux-test.sh:
 *   "PASS: linux/<check>" or "FAIL: linux/<check>: <reason>" per check,
 *   "INFO: linux/<what>: ..." for facts that are not checks,
 *   "tracesbi-init: started" first and "tracesbi-init: done checks=N failed=M"
 *   last, so the script can tell a complete run from a truncated one.
 * The expected number of CPUs, how the kernel's timer works, what the
 * board's PMU offers and how the run ends come from the kernel command line
 * (tracesbi.cpus=N, tracesbi.timer=sbi|sstc, tracesbi.sscofpmf=0,
 * tracesbi.hwcounters=0, tracesbi.end=reboot), since only the test script
 * knows what QEMU was given.  Without the last three the machine is QEMU
 * virt: Sscofpmf, hardware counters, power-off.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <linux/perf_event.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/klog.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "init.h"

#define MAX_CPUS 64

static int checks_run;
static int checks_failed;

void pass(const char *check)
{
    checks_run++;
    printf("PASS: linux/%s\n", check);
}

void fail(const char *check, const char *fmt, ...)
{
    va_list ap;

    checks_run++;
    checks_failed++;
    printf("FAIL: linux/%s: ", check);
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    putchar('\n');
}

/* Reads a whole (small, procfs/sysfs) file into buf; returns its length or -1. */
long read_file(const char *path, char *buf, size_t size)
{
    FILE *f = fopen(path, "r");
    size_t n;

    if (!f)
        return -1;
    n = fread(buf, 1, size - 1, f);
    fclose(f);
    buf[n] = '\0';
    return (long)n;
}

static void mount_or_report(const char *source, const char *target, const char *type)
{
    mkdir(target, 0755);
    if (mount(source, target, type, 0, NULL) != 0 && errno != EBUSY)
        printf("INFO: linux/mount: mounting %s on %s failed: %s\n", type, target, strerror(errno));
}

/* The number after "key=" on the kernel command line, or `fallback` when absent. */
static int cmdline_int(const char *key, int fallback)
{
    char cmdline[LINE_MAX_LEN], pattern[64];
    const char *p;

    if (read_file("/proc/cmdline", cmdline, sizeof(cmdline)) < 0)
        return fallback;
    snprintf(pattern, sizeof(pattern), "%s=", key);
    p = strstr(cmdline, pattern);
    return p ? atoi(p + strlen(pattern)) : fallback;
}

/* Whether "key=value" is on the kernel command line as a whole word. */
bool cmdline_has(const char *key_value)
{
    char cmdline[LINE_MAX_LEN];
    const char *p;
    size_t len = strlen(key_value);

    if (read_file("/proc/cmdline", cmdline, sizeof(cmdline)) < 0)
        return false;
    for (p = strstr(cmdline, key_value); p; p = strstr(p + 1, key_value))
        if ((p == cmdline || p[-1] == ' ') && (p[len] == ' ' || p[len] == '\n' || !p[len]))
            return true;
    return false;
}

/* The value of "key=value" on the kernel command line (a whole word) into
 * buf; false when absent or longer than buf. */
bool cmdline_value(const char *key, char *buf, size_t size)
{
    char cmdline[LINE_MAX_LEN], pattern[64];
    const char *p;

    if (read_file("/proc/cmdline", cmdline, sizeof(cmdline)) < 0)
        return false;
    snprintf(pattern, sizeof(pattern), "%s=", key);
    for (p = strstr(cmdline, pattern); p; p = strstr(p + 1, pattern)) {
        size_t len;

        if (p != cmdline && p[-1] != ' ')
            continue;
        p += strlen(pattern);
        len = strcspn(p, " \n");
        if (len >= size)
            return false;
        memcpy(buf, p, len);
        buf[len] = '\0';
        return true;
    }
    return false;
}

/* tracesbi.cpus=N from /proc/cmdline, or -1 when absent. */
static int expected_cpus(void)
{
    return cmdline_int("tracesbi.cpus", -1);
}

/*
 * What the board's PMU offers, as the test script says on the command line.
 * mode_filter: the harts have Sscofpmf.  Without it Linux 6.1's SBI PMU
 * driver declares PERF_PMU_CAP_NO_EXCLUDE and perf_event_open refuses any
 * exclude_* flag with EINVAL (QEMU spike and sifive_u).  hw_counters: the
 * firmware offers cycle/instret/HPM counters; tracesbi offers firmware
 * counters only on harts without mcountinhibit (docs/PMU.md; QEMU
 * sifive_u's U54s), where no counter can take a hardware event.
 */
struct pmu_offer {
    bool mode_filter;
    bool hw_counters;
};

static struct pmu_offer pmu;

/* Counts the CPUs of a sysfs CPU list such as "0-3" or "0,2-3"; -1 if malformed. */
static int count_cpu_list(const char *list)
{
    int count = 0;

    while (*list && *list != '\n') {
        char *end;
        long first = strtol(list, &end, 10), last = first;

        if (end == list)
            return -1;
        if (*end == '-') {
            list = end + 1;
            last = strtol(list, &end, 10);
            if (end == list || last < first)
                return -1;
        }
        count += (int)(last - first + 1);
        list = end;
        if (*list == ',')
            list++;
    }
    return count;
}

/* Number of online CPUs according to sysfs, or -1. */
static int sysfs_online_cpus(char *online, size_t size)
{
    if (read_file("/sys/devices/system/cpu/online", online, size) > 0)
        return count_cpu_list(online);
    snprintf(online, size, "(unreadable)\n");
    return -1;
}

static void check_online_cpus(int expected)
{
    char online[128];
    int from_sysfs = sysfs_online_cpus(online, sizeof(online));
    long from_sysconf = sysconf(_SC_NPROCESSORS_ONLN);

    printf("INFO: linux/cpus: /sys/devices/system/cpu/online=%.*s (%d CPUs), "
           "sysconf(_SC_NPROCESSORS_ONLN)=%ld\n",
           (int)strcspn(online, "\n"), online, from_sysfs, from_sysconf);
    if (from_sysfs == expected && from_sysconf == expected)
        pass("cpus-online");
    else
        fail("cpus-online", "expected %d, sysfs says %d, sysconf says %ld",
             expected, from_sysfs, from_sysconf);
}

/* Prints the per-hart lines of /proc/cpuinfo and checks one "hart" line per CPU. */
static void check_cpuinfo(int expected)
{
    FILE *f = fopen("/proc/cpuinfo", "r");
    char line[LINE_MAX_LEN];
    bool seen[MAX_CPUS] = { false };
    int harts = 0, duplicates = 0;

    if (!f) {
        fail("cpuinfo-harts", "cannot open /proc/cpuinfo: %s", strerror(errno));
        return;
    }
    while (fgets(line, sizeof(line), f)) {
        unsigned long hartid;

        if (strncmp(line, "processor", 9) && strncmp(line, "hart", 4) &&
            strncmp(line, "isa", 3) && strncmp(line, "mmu", 3))
            continue;
        printf("INFO: linux/cpuinfo: %s", line);
        if (sscanf(line, "hart : %lu", &hartid) == 1) {
            harts++;
            if (hartid < MAX_CPUS && seen[hartid])
                duplicates++;
            else if (hartid < MAX_CPUS)
                seen[hartid] = true;
        }
    }
    fclose(f);
    if (harts == expected && duplicates == 0)
        pass("cpuinfo-harts");
    else
        fail("cpuinfo-harts", "expected %d distinct hart lines, found %d (%d duplicated)",
             expected, harts, duplicates);
}

/* A workload long enough to span several scheduler ticks (~tens of ms). */
static uint64_t spin_workload(uint64_t iterations)
{
    volatile uint64_t x = 1;

    for (uint64_t i = 0; i < iterations; i++)
        x = x * 6364136223846793005ull + 1442695040888963407ull;
    return x;
}

struct pinned_thread {
    pthread_t thread;
    int cpu;
    int cpu_at_start;
    int cpu_at_end;
    int affinity_error;
    uint64_t result;
};

bool pin_self(int cpu)
{
    cpu_set_t set;

    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    return sched_setaffinity(0, sizeof(set), &set) == 0;
}

static void pin_self_all(int cpus)
{
    cpu_set_t set;

    CPU_ZERO(&set);
    for (int cpu = 0; cpu < cpus; cpu++)
        CPU_SET(cpu, &set);
    sched_setaffinity(0, sizeof(set), &set);
}

static void *run_pinned(void *arg)
{
    struct pinned_thread *t = arg;

    /* Pinning the running thread migrates it before the call returns. */
    t->affinity_error = pin_self(t->cpu) ? 0 : errno;
    t->cpu_at_start = sched_getcpu();
    t->result = spin_workload(2000000);
    t->cpu_at_end = sched_getcpu();
    return NULL;
}

/* The workload's result computed by the main thread, once. */
static uint64_t workload_reference(void)
{
    static uint64_t reference;

    if (!reference)
        reference = spin_workload(2000000);
    return reference;
}

/* "" when the thread ran its whole workload on its CPU, else why not. */
static const char *pinned_thread_problem(const struct pinned_thread *t, char *why, size_t size)
{
    if (t->affinity_error)
        snprintf(why, size, "sched_setaffinity: %s", strerror(t->affinity_error));
    else if (t->cpu_at_start != t->cpu || t->cpu_at_end != t->cpu)
        snprintf(why, size, "ran on CPU %d then %d", t->cpu_at_start, t->cpu_at_end);
    else if (t->result != workload_reference())
        snprintf(why, size, "workload result 0x%llx differs from the main thread's 0x%llx",
                 (unsigned long long)t->result, (unsigned long long)workload_reference());
    else
        return "";
    return why;
}

/* Runs the workload in a thread pinned to `cpu`; "" if it ran there, else why not. */
static const char *run_thread_on(int cpu, char *why, size_t size)
{
    struct pinned_thread t = { .cpu = cpu, .cpu_at_start = -1, .cpu_at_end = -1 };

    if (pthread_create(&t.thread, NULL, run_pinned, &t) != 0)
        return "pthread_create failed";
    pthread_join(t.thread, NULL);
    return pinned_thread_problem(&t, why, size);
}

/* One thread per CPU, all running at the same time. */
static void check_thread_per_cpu(int cpus)
{
    struct pinned_thread threads[MAX_CPUS];
    bool created[MAX_CPUS];
    char name[64], why[128];

    workload_reference();
    if (cpus > MAX_CPUS)
        cpus = MAX_CPUS;
    for (int cpu = 0; cpu < cpus; cpu++) {
        threads[cpu] = (struct pinned_thread){ .cpu = cpu, .cpu_at_start = -1, .cpu_at_end = -1 };
        created[cpu] = pthread_create(&threads[cpu].thread, NULL, run_pinned, &threads[cpu]) == 0;
    }
    for (int cpu = 0; cpu < cpus; cpu++) {
        const char *problem = "pthread_create failed";

        snprintf(name, sizeof(name), "thread-runs-on-cpu%d", cpu);
        if (created[cpu]) {
            pthread_join(threads[cpu].thread, NULL);
            problem = pinned_thread_problem(&threads[cpu], why, sizeof(why));
        }
        if (*problem)
            fail(name, "%s", problem);
        else
            pass(name);
    }
}

/*
 * Per-CPU interrupt counts from /proc/interrupts: a header of CPUn columns,
 * then one row per interrupt ("5: c0 c1 c2 c3 RISC-V INTC 5 Edge riscv-timer",
 * "IPI0: c0 .. Rescheduling interrupts").  timer[] sums the timer row, ipi[]
 * all IPI rows (IPIs the kernel handled, per receiving CPU).
 */
struct interrupt_counts {
    unsigned long timer[MAX_CPUS];
    unsigned long ipi[MAX_CPUS];
    bool timer_row;
    int ipi_rows;
};

static bool read_interrupt_counts(int cpus, struct interrupt_counts *ic, bool print)
{
    FILE *f = fopen("/proc/interrupts", "r");
    char line[LINE_MAX_LEN];

    *ic = (struct interrupt_counts){ .timer_row = false };
    if (!f)
        return false;
    while (fgets(line, sizeof(line), f)) {
        char *p = strchr(line, ':');
        unsigned long counts[MAX_CPUS];
        bool is_ipi = strncmp(line + strspn(line, " "), "IPI", 3) == 0;
        bool is_timer = strstr(line, "riscv-timer") != NULL;
        int n = 0;

        if (print)
            printf("INFO: linux/interrupts: %s", line);
        if (!p || (!is_ipi && !is_timer))
            continue;
        for (p++; n < cpus; n++) {
            char *end;

            counts[n] = strtoul(p, &end, 10);
            if (end == p)
                break;
            p = end;
        }
        if (n != cpus)
            continue;
        for (int cpu = 0; cpu < cpus; cpu++) {
            if (is_timer)
                ic->timer[cpu] += counts[cpu];
            else
                ic->ipi[cpu] += counts[cpu];
        }
        ic->timer_row |= is_timer;
        ic->ipi_rows += is_ipi;
    }
    fclose(f);
    return true;
}

static void check_interrupts(int cpus)
{
    struct interrupt_counts ic;
    int cpu;

    if (cpus > MAX_CPUS)
        cpus = MAX_CPUS;
    if (!read_interrupt_counts(cpus, &ic, true)) {
        fail("interrupts-timer", "cannot open /proc/interrupts: %s", strerror(errno));
        fail("interrupts-ipi", "cannot open /proc/interrupts");
        return;
    }

    for (cpu = 0; cpu < cpus && ic.timer[cpu] > 0; cpu++)
        ;
    if (!ic.timer_row)
        fail("interrupts-timer", "no riscv-timer row with %d CPU columns", cpus);
    else if (cpu < cpus)
        fail("interrupts-timer", "CPU %d took no timer interrupt", cpu);
    else
        pass("interrupts-timer");

    for (cpu = 0; cpu < cpus && ic.ipi[cpu] > 0; cpu++)
        ;
    if (ic.ipi_rows == 0)
        fail("interrupts-ipi", "no IPI rows with %d CPU columns", cpus);
    else if (cpu < cpus)
        fail("interrupts-ipi", "CPU %d received no IPI", cpu);
    else
        pass("interrupts-ipi");
}

/*
 * Monotonic time through the system call, not the vDSO: the vDSO reads the
 * time CSR from U-mode, which check_user_time_csr() tests on its own.
 */
static double seconds_now(void)
{
    struct timespec ts;

    syscall(SYS_clock_gettime, CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/*
 * Remote TLB shootdown.  Readers pinned to CPUs 1..n-1 keep reading one
 * virtual page, so their harts keep its translation cached; they make no
 * system call while doing so (on QEMU a kernel user-memory access toggles
 * sstatus.SUM, which flushes that hart's TLB and would hide a missing fence).
 * CPU 0 writes the round number into a new page, moves it to that address
 * (mremap MREMAP_FIXED, which frees the old page) and announces the round.
 * Before freeing the old page the kernel must flush the readers' TLBs, which
 * on riscv is an SBI RFENCE remote SFENCE.VMA(.ASID) call: a firmware that
 * does not fence the other harts leaves them reading the old page.  (Checked
 * with a kernel patched to flush locally only: every round then reads stale.)
 */
#define SHOOTDOWN_ROUNDS 20

struct shootdown {
    volatile int *page;          /* the virtual page that gets remapped */
    atomic_int round;            /* last round announced by CPU 0 */
    atomic_int acks;             /* reader acknowledgements, all rounds */
    atomic_int stop;
    atomic_int stale;            /* reads that saw another round's page */
    atomic_int first_stale_value;
    atomic_int pin_errors;
};

struct shootdown_reader {
    pthread_t thread;
    int cpu;
    struct shootdown *sd;
};

static void *shootdown_reader(void *arg)
{
    struct shootdown_reader *r = arg;
    struct shootdown *sd = r->sd;
    int seen = 0;

    if (!pin_self(r->cpu))
        atomic_fetch_add(&sd->pin_errors, 1);
    while (!atomic_load_explicit(&sd->stop, memory_order_relaxed)) {
        int round = atomic_load_explicit(&sd->round, memory_order_acquire);
        /* CPU 0 remaps only after every reader acknowledged `round`. */
        int value = *sd->page;

        if (round == seen)
            continue;
        if (value != round && atomic_fetch_add(&sd->stale, 1) == 0)
            atomic_store(&sd->first_stale_value, value);
        seen = round;
        atomic_fetch_add_explicit(&sd->acks, 1, memory_order_release);
    }
    return NULL;
}

static void check_remote_tlb_flush(int cpus)
{
    struct shootdown sd = { 0 };
    struct shootdown_reader readers[MAX_CPUS];
    int started = 0, round, lagging = 0, map_failed = 0;
    double deadline;

    if (cpus < 2 || cpus > MAX_CPUS) {
        printf("INFO: linux/remote-tlb-flush: needs 2..%d CPUs, have %d\n", MAX_CPUS, cpus);
        return;
    }
    if (!pin_self(0)) {
        fail("remote-tlb-flush", "cannot pin the main thread to CPU 0: %s", strerror(errno));
        return;
    }
    sd.page = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (sd.page == MAP_FAILED) {
        fail("remote-tlb-flush", "mmap: %s", strerror(errno));
        pin_self_all(cpus);
        return;
    }
    for (int cpu = 1; cpu < cpus; cpu++) {
        readers[started] = (struct shootdown_reader){ .cpu = cpu, .sd = &sd };
        if (pthread_create(&readers[started].thread, NULL, shootdown_reader, &readers[started]) == 0)
            started++;
    }
    deadline = seconds_now() + 20.0;
    for (round = 1; round <= SHOOTDOWN_ROUNDS; round++) {
        /*
         * The new page is allocated and written before the old one is freed,
         * so the allocator cannot hand the old frame back as the new page.
         */
        int *fresh = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

        if (fresh == MAP_FAILED) {
            map_failed = errno;
            break;
        }
        *fresh = round;
        if (mremap(fresh, 4096, 4096, MREMAP_MAYMOVE | MREMAP_FIXED, (void *)sd.page) !=
            (void *)sd.page) {
            map_failed = errno;
            break;
        }
        atomic_store_explicit(&sd.round, round, memory_order_release);
        while (atomic_load_explicit(&sd.acks, memory_order_acquire) < round * started &&
               !lagging) {
            lagging = seconds_now() > deadline;
            sched_yield();
        }
        if (lagging)
            break;
    }
    atomic_store(&sd.stop, 1);
    for (int i = 0; i < started; i++)
        pthread_join(readers[i].thread, NULL);
    munmap((void *)sd.page, 4096);
    pin_self_all(cpus);

    if (started != cpus - 1 || atomic_load(&sd.pin_errors))
        fail("remote-tlb-flush", "%d of %d reader threads started pinned",
             started - atomic_load(&sd.pin_errors), cpus - 1);
    else if (map_failed)
        fail("remote-tlb-flush", "mmap/mremap in round %d: %s", round, strerror(map_failed));
    else if (lagging)
        fail("remote-tlb-flush", "readers stopped acknowledging in round %d", round);
    else if (atomic_load(&sd.stale))
        fail("remote-tlb-flush", "%d reads on other harts saw a replaced page (first saw %d)",
             atomic_load(&sd.stale), atomic_load(&sd.first_stale_value));
    else
        pass("remote-tlb-flush");
}

static uint64_t read_time_csr(void)
{
    uint64_t t;

    __asm__ volatile("rdtime %0" : "=r"(t));
    return t;
}

/*
 * Reads the time CSR from U-mode in a child process, directly and through the
 * vDSO's clock_gettime.  It only works when the firmware set mcounteren.TM
 * and scounteren.TM (Linux 6.1 does not set scounteren itself); otherwise the
 * child dies of SIGILL, as any program calling clock_gettime would.
 */
static void check_user_time_csr(void)
{
    pid_t child = fork();
    int status;

    if (child == 0) {
        struct timespec ts;
        uint64_t first = read_time_csr();

        spin_workload(100000);
        if (read_time_csr() <= first || clock_gettime(CLOCK_MONOTONIC, &ts) != 0)
            _exit(1);
        _exit(0);
    }
    if (child < 0 || waitpid(child, &status, 0) != child) {
        fail("user-rdtime", "fork/waitpid: %s", strerror(errno));
        return;
    }
    if (WIFSIGNALED(status))
        fail("user-rdtime", "rdtime in U-mode killed the process with signal %d%s",
             WTERMSIG(status),
             WTERMSIG(status) == SIGILL ? " (firmware left mcounteren.TM or scounteren.TM clear)" : "");
    else if (WEXITSTATUS(status) != 0)
        fail("user-rdtime", "the time CSR did not advance or clock_gettime failed");
    else
        pass("user-rdtime");
}

static bool write_sysfs(const char *path, const char *value)
{
    FILE *f = fopen(path, "w");
    bool ok;

    if (!f)
        return false;
    ok = fputs(value, f) >= 0;
    ok = (fclose(f) == 0) && ok;
    return ok;
}

/*
 * Takes each secondary CPU offline and back online: the kernel stops the hart
 * with SBI HSM HART_STOP, polls HART_GET_STATUS until it is STOPPED, and
 * starts it again with HART_START.  Then a thread must run on it again.
 */
static void check_cpu_hotplug(int cpus)
{
    char path[96], online[128], name[64], why[128];

    for (int cpu = 1; cpu < cpus; cpu++) {
        const char *thread_result;
        int after_off, after_on;

        snprintf(name, sizeof(name), "cpu-hotplug-cpu%d", cpu);
        snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/online", cpu);
        if (!write_sysfs(path, "0")) {
            fail(name, "offlining: %s", strerror(errno));
            continue;
        }
        after_off = sysfs_online_cpus(online, sizeof(online));
        /*
         * Linux 6.1 lets the dying CPU report its death before it calls
         * HART_STOP and does not wait for STOPPED before HART_START, which
         * the firmware then rightly refuses (SBI HSM: start needs STOPPED).
         * Give the hart time to finish stopping.
         */
        usleep(100 * 1000);
        if (!write_sysfs(path, "1")) {
            fail(name, "onlining again: %s", strerror(errno));
            continue;
        }
        after_on = sysfs_online_cpus(online, sizeof(online));
        thread_result = run_thread_on(cpu, why, sizeof(why));
        if (after_off != cpus - 1 || after_on != cpus)
            fail(name, "online CPUs %d after offline, %d after online (expected %d, %d)",
                 after_off, after_on, cpus - 1, cpus);
        else if (*thread_result)
            fail(name, "thread after onlining: %s", thread_result);
        else
            pass(name);
    }
}

/*
 * The perf tool's boot starts Linux on its first CPU alone (maxcpus=1: why in
 * scripts/run-linux-test.sh) and brings the others up here, through SBI HSM
 * HART_START, before any check runs.
 */
static void online_secondary_cpus(int cpus)
{
    char path[96];

    for (int cpu = 1; cpu < cpus; cpu++) {
        snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/online", cpu);
        if (!write_sysfs(path, "1"))
            printf("INFO: linux/cpus: onlining CPU %d: %s\n", cpu, strerror(errno));
    }
}

/* Whether the kernel log says the firmware implements the SBI PMU extension. */
static bool firmware_has_pmu(void)
{
    int size = klogctl(10 /* SYSLOG_ACTION_SIZE_BUFFER */, NULL, 0);
    char *log;
    bool found;

    if (size <= 0)
        return false;
    log = malloc((size_t)size + 1);
    if (!log)
        return false;
    size = klogctl(3 /* SYSLOG_ACTION_READ_ALL */, log, size);
    log[size > 0 ? size : 0] = '\0';
    found = strstr(log, "SBI PMU extension is available") != NULL;
    free(log);
    return found;
}

/*
 * Linux 6.1's riscv_pmu_sbi driver takes a PERF_TYPE_RAW config with bit 63
 * set as an SBI firmware event (event_idx type 15) whose code is the low bits;
 * it refuses codes past the standard ones (21).
 */
#define PERF_SBI_FW_EVENT(code) ((1ull << 63) | (code))
#define SBI_PMU_FW_SET_TIMER 5
#define SBI_PMU_FW_IPI_SENT 6

/*
 * Opens a counting event, disabled, for task `pid` on any CPU (cpu -1) or for
 * everything on `cpu` (pid -1).  exclude_hv only where the PMU filters modes
 * (pmu.mode_filter): elsewhere any exclude flag is refused.  Returns the fd,
 * or -1 with errno set.
 */
static int perf_open_format(uint32_t type, uint64_t config, bool user_only, pid_t pid, int cpu,
                            uint64_t read_format)
{
    struct perf_event_attr attr = {
        .type = type,
        .size = sizeof(attr),
        .config = config,
        .read_format = read_format,
        .disabled = 1,
        .exclude_kernel = user_only,
        .exclude_hv = pmu.mode_filter,
    };

    return (int)syscall(SYS_perf_event_open, &attr, pid, cpu, -1, 0);
}

static int perf_open(uint32_t type, uint64_t config, bool user_only, pid_t pid, int cpu)
{
    return perf_open_format(type, config, user_only, pid, cpu, 0);
}

static int perf_enable(int fd)
{
    if (ioctl(fd, PERF_EVENT_IOC_RESET, 0) || ioctl(fd, PERF_EVENT_IOC_ENABLE, 0))
        return errno;
    return 0;
}

/* Disables the event and reads its count; 0 or an errno value. */
static int perf_disable_read(int fd, uint64_t *count)
{
    if (ioctl(fd, PERF_EVENT_IOC_DISABLE, 0))
        return errno;
    if (read(fd, count, sizeof(*count)) != (ssize_t)sizeof(*count))
        return errno ? errno : EIO;
    return 0;
}

/* Why perf_event_open failed, with the kernel's view of the firmware. */
static const char *open_problem(int err, char *why, size_t size)
{
    snprintf(why, size, "perf_event_open: %s%s", strerror(err),
             firmware_has_pmu() ? "" : " (the kernel found no SBI PMU extension)");
    return why;
}

/*
 * Upper bound of any plausible cycle or instruction count over `seconds`:
 * no hart counts more than 100 per nanosecond.  Catches a counter that was
 * not loaded with the value Linux started it from (a count near 2^63).
 */
static uint64_t max_plausible_count(double seconds)
{
    return (uint64_t)(seconds * 1e11) + 1;
}

struct task_count {
    uint64_t count;
    double seconds;
};

/*
 * Counts a hardware event of this task over `workload(arg)`: in user mode
 * only where the PMU filters modes, else in every mode.  Returns 0 or an
 * errno value.
 */
static int count_own_event(uint64_t config, void (*workload)(uint64_t), uint64_t arg,
                           struct task_count *result)
{
    int fd = perf_open(PERF_TYPE_HARDWARE, config, pmu.mode_filter, 0, -1);
    int err;
    double start;

    if (fd < 0)
        return errno;
    start = seconds_now();
    err = perf_enable(fd);
    workload(arg);
    if (!err)
        err = perf_disable_read(fd, &result->count);
    result->seconds = seconds_now() - start;
    close(fd);
    return err;
}

static void spin(uint64_t iterations)
{
    spin_workload(iterations);
}

static void sleep_ms(uint64_t ms)
{
    usleep((useconds_t)(ms * 1000));
}

/*
 * cycles and instructions of this task over a user-mode loop: both non-zero
 * and below max_plausible_count(); the loop retires more than one
 * instruction per step.  (QEMU without -icount feeds both counters from the
 * host's clock, so nothing tighter holds there.)
 */
static bool check_perf_hw_event(const char *check, uint64_t config, uint64_t minimum,
                                uint64_t iterations, struct task_count *loop)
{
    char why[128];
    int err = count_own_event(config, spin, iterations, loop);

    if (err) {
        fail(check, "%s", open_problem(err, why, sizeof(why)));
        return false;
    }
    printf("INFO: linux/%s: %llu over %llu loop steps in %.1f ms (%s)\n", check,
           (unsigned long long)loop->count, (unsigned long long)iterations, loop->seconds * 1e3,
           pmu.mode_filter ? "user mode" : "user and kernel mode");
    if (loop->count < minimum || loop->count > max_plausible_count(loop->seconds)) {
        fail(check, "%llu counted over %llu loop steps in %.1f ms, expected %llu..%llu",
             (unsigned long long)loop->count, (unsigned long long)iterations,
             loop->seconds * 1e3, (unsigned long long)minimum,
             (unsigned long long)max_plausible_count(loop->seconds));
        return false;
    }
    pass(check);
    return true;
}

/*
 * A task's cycle count must not grow while the task sleeps: Linux stops the
 * counter through SBI when the task is switched out and restarts it with
 * the saved value when it comes back.  Over a sleep the count must stay well
 * below what the counter's rate (measured on the loop) gives for that time.
 */
static void check_perf_cycles_asleep(const struct task_count *loop)
{
    const char *check = "perf-cycles-stop-while-asleep";
    struct task_count asleep;
    double rate = (double)loop->count / loop->seconds;
    int err = count_own_event(PERF_COUNT_HW_CPU_CYCLES, sleep_ms, 100, &asleep);

    if (err) {
        fail(check, "perf_event_open/read: %s", strerror(err));
        return;
    }
    printf("INFO: linux/%s: %llu over a %.1f ms sleep (%.0f per ms while running)\n", check,
           (unsigned long long)asleep.count, asleep.seconds * 1e3, rate / 1e3);
    if ((double)asleep.count > 0.2 * rate * asleep.seconds)
        fail(check, "%llu cycles over a %.1f ms sleep: the counter ran while the task slept",
             (unsigned long long)asleep.count, asleep.seconds * 1e3);
    else
        pass(check);
}

/*
 * Without Sscofpmf (pmu.mode_filter false) the kernel must refuse a
 * user-only event with EINVAL rather than count kernel mode too.
 */
static void check_perf_mode_filter_refused(void)
{
    const char *check = "perf-mode-filter-refused";
    int fd = perf_open(PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, true, 0, -1);

    if (fd >= 0) {
        close(fd);
        fail(check, "perf_event_open accepted exclude_kernel on a PMU without Sscofpmf");
    } else if (errno != EINVAL) {
        fail(check, "perf_event_open(exclude_kernel): %s, expected EINVAL (PERF_PMU_CAP_NO_EXCLUDE)",
             strerror(errno));
    } else {
        pass(check);
    }
}

/* A read with PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING. */
struct timed_count {
    uint64_t value;
    uint64_t time_enabled;
    uint64_t time_running;
};

/*
 * Without hardware counters (pmu.hw_counters false) the kernel accepts a
 * hardware event, but when it is enabled the driver's counter_config_matching
 * call gets NOT_SUPPORTED (docs/PMU.md: no counter can count it), so the
 * event is enabled yet never runs: count 0, time_running 0, time_enabled > 0.
 */
static void check_perf_hw_event_unscheduled(const char *check, uint64_t config)
{
    struct timed_count c = { 0 };
    int fd = perf_open_format(PERF_TYPE_HARDWARE, config, false, 0, -1,
                              PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING);
    int err;

    if (fd < 0) {
        fail(check, "perf_event_open: %s, expected the kernel to accept the event",
             strerror(errno));
        return;
    }
    err = perf_enable(fd);
    spin_workload(200000);
    if (!err && ioctl(fd, PERF_EVENT_IOC_DISABLE, 0))
        err = errno;
    if (!err && read(fd, &c, sizeof(c)) != (ssize_t)sizeof(c))
        err = errno ? errno : EIO;
    close(fd);
    printf("INFO: linux/%s: count %llu, enabled %llu ns, running %llu ns\n", check,
           (unsigned long long)c.value, (unsigned long long)c.time_enabled,
           (unsigned long long)c.time_running);
    if (err)
        fail(check, "enable/disable/read: %s", strerror(err));
    else if (c.value != 0 || c.time_running != 0)
        fail(check, "the event ran (%llu counted, %llu ns running) on a firmware with firmware "
             "counters only", (unsigned long long)c.value, (unsigned long long)c.time_running);
    else if (c.time_enabled == 0)
        fail(check, "the event was never enabled");
    else
        pass(check);
}

static void check_perf_hw_events(void)
{
    const uint64_t iterations = 1000000;
    struct task_count cycles, instructions;

    if (!pmu.mode_filter)
        check_perf_mode_filter_refused();
    if (!pmu.hw_counters) {
        check_perf_hw_event_unscheduled("perf-cycles-no-counter", PERF_COUNT_HW_CPU_CYCLES);
        check_perf_hw_event_unscheduled("perf-instructions-no-counter",
                                        PERF_COUNT_HW_INSTRUCTIONS);
        return;
    }
    if (check_perf_hw_event("perf-cycles", PERF_COUNT_HW_CPU_CYCLES, 1, iterations, &cycles))
        check_perf_cycles_asleep(&cycles);
    check_perf_hw_event("perf-instructions", PERF_COUNT_HW_INSTRUCTIONS, iterations,
                        iterations, &instructions);
}

/* One counting event per CPU, each counting everything that CPU does. */
struct cpu_events {
    int cpus;
    int fd[MAX_CPUS];
    uint64_t count[MAX_CPUS];
};

/* Opens and enables the event on CPUs 0..cpus-1; "" or why not. */
static const char *cpu_events_start(struct cpu_events *ev, uint64_t config, int cpus,
                                    char *why, size_t size)
{
    ev->cpus = cpus;
    for (int cpu = 0; cpu < cpus; cpu++)
        ev->fd[cpu] = -1;
    for (int cpu = 0; cpu < cpus; cpu++) {
        char open_why[128];

        ev->fd[cpu] = perf_open(PERF_TYPE_RAW, config, false, -1, cpu);
        if (ev->fd[cpu] < 0) {
            snprintf(why, size, "CPU %d: %s", cpu, open_problem(errno, open_why, sizeof(open_why)));
            return why;
        }
    }
    for (int cpu = 0; cpu < cpus; cpu++) {
        int err = perf_enable(ev->fd[cpu]);

        if (err) {
            snprintf(why, size, "CPU %d: enable: %s", cpu, strerror(err));
            return why;
        }
    }
    return "";
}

/*
 * Disables and reads every event that was opened, then closes them; "" or
 * why not (only when `why` is not NULL).
 */
static const char *cpu_events_stop(struct cpu_events *ev, char *why, size_t size)
{
    const char *problem = "";

    for (int cpu = 0; cpu < ev->cpus; cpu++) {
        int err;

        ev->count[cpu] = 0;
        if (ev->fd[cpu] < 0)
            continue;
        err = perf_disable_read(ev->fd[cpu], &ev->count[cpu]);
        if (err && !*problem && why) {
            snprintf(why, size, "CPU %d: disable/read: %s", cpu, strerror(err));
            problem = why;
        }
        close(ev->fd[cpu]);
    }
    return problem;
}

/*
 * The kernel's interrupts over a counting window: `outer` from before the
 * events were enabled to after they were disabled, `inner` from after the
 * enable to before the disable (enable and disable reach every CPU before
 * they return), so every interrupt in `inner` was handled while counting.
 */
struct interrupt_window {
    struct interrupt_counts outer;
    struct interrupt_counts inner;
};

static void interrupt_delta(int cpus, const struct interrupt_counts *before,
                            const struct interrupt_counts *after, struct interrupt_counts *delta)
{
    for (int cpu = 0; cpu < cpus; cpu++) {
        delta->timer[cpu] = after->timer[cpu] - before->timer[cpu];
        delta->ipi[cpu] = after->ipi[cpu] - before->ipi[cpu];
    }
}

/*
 * Counts a firmware event on every CPU over `workload`, with the kernel's
 * interrupt counts around it (struct interrupt_window).  "" or why it
 * could not.
 */
static const char *count_fw_event_per_cpu(uint64_t code, int cpus, void (*workload)(int),
                                          struct cpu_events *ev, struct interrupt_window *irqs,
                                          char *why, size_t size)
{
    struct interrupt_counts before, started, finished, after;
    const char *problem, *stop_problem;

    if (!read_interrupt_counts(cpus, &before, false))
        return "cannot read /proc/interrupts";
    problem = cpu_events_start(ev, PERF_SBI_FW_EVENT(code), cpus, why, size);
    if (!*problem && !read_interrupt_counts(cpus, &started, false))
        problem = "cannot read /proc/interrupts";
    if (!*problem) {
        workload(cpus);
        if (!read_interrupt_counts(cpus, &finished, false))
            problem = "cannot read /proc/interrupts";
    }
    /* After a failed start, stop only closes: keep the start's reason. */
    stop_problem = cpu_events_stop(ev, *problem ? NULL : why, *problem ? 0 : size);
    if (*problem || *stop_problem)
        return *problem ? problem : stop_problem;
    if (!read_interrupt_counts(cpus, &after, false))
        return "cannot read /proc/interrupts";
    interrupt_delta(cpus, &before, &after, &irqs->outer);
    interrupt_delta(cpus, &started, &finished, &irqs->inner);
    return "";
}

static void idle_workload(int cpus)
{
    (void)cpus;
    sleep_ms(200);
}

/*
 * SBI_PMU_FW_SET_TIMER over 200 ms of idle, on every CPU.  This kernel ticks
 * periodically (HZ_PERIODIC, no high-resolution timers) on a one-shot
 * clockevent: each tick interrupt programs the next tick with exactly one
 * sbi_set_timer (tick_handle_periodic skips, without a call, the ticks a
 * late interrupt already missed), and nothing else programs the timer.  So
 * with the timer through SBI (Sstc off) a CPU's count lies between its
 * timer interrupts inside the counting window and those around it
 * (struct interrupt_window), and is not 0; with Sstc the kernel writes
 * stimecmp itself and the count is 0.  (The window matters on a loaded
 * host: QEMU's timer interrupts then come late and few, a handful in the
 * 200 ms.)
 */
static void check_perf_fw_set_timer(int cpus, bool timer_via_sbi)
{
    const char *check = "perf-fw-set-timer";
    struct cpu_events ev;
    struct interrupt_window irqs;
    char why[160], counts[64 * 4] = "";
    const char *problem = count_fw_event_per_cpu(SBI_PMU_FW_SET_TIMER, cpus, idle_workload,
                                                 &ev, &irqs, why, sizeof(why));
    int bad = -1;

    if (*problem) {
        fail(check, "%s", problem);
        return;
    }
    for (int cpu = 0; cpu < cpus; cpu++) {
        uint64_t inside = irqs.inner.timer[cpu], around = irqs.outer.timer[cpu];
        bool plausible = timer_via_sbi ? ev.count[cpu] > 0 && ev.count[cpu] >= inside &&
                                             ev.count[cpu] <= around
                                       : ev.count[cpu] == 0 && around > 0;

        snprintf(counts + strlen(counts), sizeof(counts) - strlen(counts),
                 " cpu%d=%llu(%llu..%llu ticks)", cpu, (unsigned long long)ev.count[cpu],
                 (unsigned long long)inside, (unsigned long long)around);
        if (!plausible && bad < 0)
            bad = cpu;
    }
    printf("INFO: linux/%s: timer %s, set_timer calls:%s\n", check,
           timer_via_sbi ? "through SBI" : "through Sstc", counts);
    if (bad < 0)
        pass(check);
    else if (timer_via_sbi)
        fail(check, "CPU %d: %llu set_timer calls, expected %lu..%lu (timer interrupts inside "
             "and around the counting window), at least 1", bad,
             (unsigned long long)ev.count[bad], irqs.inner.timer[bad], irqs.outer.timer[bad]);
    else
        fail(check, "CPU %d: %llu set_timer calls over %lu timer interrupts with Sstc, "
             "expected 0 calls and some interrupts", bad, (unsigned long long)ev.count[bad],
             irqs.outer.timer[bad]);
}

/* Two pipes between the main thread on CPU 0 and a thread pinned elsewhere. */
struct ping_pong {
    pthread_t thread;
    int cpu;
    int rounds;
    int to_thread[2];
    int to_main[2];
    bool pinned;
};

/* Echoes every byte: each read blocks, so its CPU idles until woken by an IPI. */
static void *pong(void *arg)
{
    struct ping_pong *pp = arg;
    char byte;

    pp->pinned = pin_self(pp->cpu);
    for (int i = 0; i < pp->rounds; i++) {
        if (read(pp->to_thread[0], &byte, 1) != 1 || write(pp->to_main[1], &byte, 1) != 1)
            break;
    }
    return NULL;
}

#define PING_PONG_ROUNDS 50

/*
 * Round trips between CPU 0 and each other CPU.  A wake-up of a task
 * blocked on an idle CPU is an IPI from the waking CPU, so every CPU sends
 * IPIs.
 */
static void ping_pong_workload(int cpus)
{
    struct ping_pong pps[MAX_CPUS];
    int threads = 0;
    char byte = 'x';

    pin_self(0);
    for (int cpu = 1; cpu < cpus; cpu++) {
        struct ping_pong *pp = &pps[threads];

        *pp = (struct ping_pong){ .cpu = cpu, .rounds = PING_PONG_ROUNDS };
        if (pipe(pp->to_thread) || pipe(pp->to_main))
            break;
        if (pthread_create(&pp->thread, NULL, pong, pp) == 0)
            threads++;
    }
    for (int round = 0; round < PING_PONG_ROUNDS; round++) {
        for (int i = 0; i < threads; i++) {
            if (write(pps[i].to_thread[1], &byte, 1) != 1 || read(pps[i].to_main[0], &byte, 1) != 1)
                printf("INFO: linux/perf-fw-ipi-sent: pipe to CPU %d: %s\n", pps[i].cpu,
                       strerror(errno));
        }
    }
    for (int i = 0; i < threads; i++) {
        pthread_join(pps[i].thread, NULL);
        if (!pps[i].pinned)
            printf("INFO: linux/perf-fw-ipi-sent: the thread for CPU %d could not be pinned\n",
                   pps[i].cpu);
        close(pps[i].to_thread[0]);
        close(pps[i].to_thread[1]);
        close(pps[i].to_main[0]);
        close(pps[i].to_main[1]);
    }
    pin_self_all(cpus);
}

/*
 * SBI_PMU_FW_IPI_SENT over the ping-pong, on every CPU: every CPU sent some.
 * The firmware counts one per target hart of each sbi_send_ipi; the kernel
 * counts each IPI it handles, per receiving CPU, in /proc/interrupts.  Two
 * IPIs of the same kind sent to a CPU before it handles them are handled
 * once, so the kernel's total can be lower than the firmware's, not higher
 * (up to IPIs sent just outside the counting window); both must agree
 * within a factor of two.
 */
static void check_perf_fw_ipi_sent(int cpus)
{
    const char *check = "perf-fw-ipi-sent";
    struct cpu_events ev;
    struct interrupt_window irqs;
    char why[160], counts[48 * 4] = "";
    const char *problem;
    uint64_t sent = 0, handled = 0;
    int silent = -1;

    if (cpus < 2) {
        fail(check, "needs 2 or more CPUs, have %d", cpus);
        return;
    }
    problem = count_fw_event_per_cpu(SBI_PMU_FW_IPI_SENT, cpus, ping_pong_workload, &ev,
                                     &irqs, why, sizeof(why));
    if (*problem) {
        fail(check, "%s", problem);
        return;
    }
    for (int cpu = 0; cpu < cpus; cpu++) {
        sent += ev.count[cpu];
        handled += irqs.outer.ipi[cpu];
        snprintf(counts + strlen(counts), sizeof(counts) - strlen(counts), " cpu%d=%llu", cpu,
                 (unsigned long long)ev.count[cpu]);
        if (ev.count[cpu] == 0 && silent < 0)
            silent = cpu;
    }
    printf("INFO: linux/%s: %d round trips per CPU pair, IPIs sent:%s, total %llu; "
           "the kernel handled %llu\n", check, PING_PONG_ROUNDS, counts,
           (unsigned long long)sent, (unsigned long long)handled);
    if (silent >= 0)
        fail(check, "CPU %d sent no IPI according to the firmware", silent);
    else if (sent * 2 < handled || sent > 2 * handled)
        fail(check, "the firmware counted %llu IPIs sent, the kernel handled %llu",
             (unsigned long long)sent, (unsigned long long)handled);
    else
        pass(check);
}

/* tracesbi.timer=sbi on the command line: the kernel's timer goes through SBI. */
static bool timer_via_sbi(void)
{
    return cmdline_has("tracesbi.timer=sbi");
}

static void check_perf(int cpus)
{
    if (cpus > MAX_CPUS)
        cpus = MAX_CPUS;
    check_perf_hw_events();
    check_perf_fw_set_timer(cpus, timer_via_sbi());
    check_perf_fw_ipi_sent(cpus);
}

int main(void)
{
    int expected;

    setvbuf(stdout, NULL, _IOLBF, 0);
    printf("tracesbi-init: started\n");
    mount_or_report("proc", "/proc", "proc");
    mount_or_report("sysfs", "/sys", "sysfs");
    mount_or_report("devtmpfs", "/dev", "devtmpfs");

    expected = expected_cpus();
    if (expected <= 0) {
        fail("cmdline", "no tracesbi.cpus=N on the kernel command line");
        expected = 1;
    }
    if (cmdline_has("tracesbi.checks=none")) {
        /* A traced boot (tests/trace/linux-run.py): user space reached is
         * all it needs, and it ends at once.  The instructions this hart
         * retired since reset (all modes: instret is minstret's shadow,
         * exact under -icount): how much a traced boot ran (make
         * bench-trace-linux counts the same at the reset that follows,
         * from the firmware's minstret line); the kernel's SBI PMU
         * driver lets U-mode read it (scounteren). */
        unsigned long long instret;

        __asm__ volatile("rdinstret %0" : "=r"(instret));
        printf("tracesbi-init: instret %llu\n", instret);
        goto done;
    }
    if (cmdline_has("tracesbi.checks=trace-perf")) {
        char list[64];

        if (!cmdline_value("tracesbi.traceperf", list, sizeof(list)))
            strcpy(list, "u");
        check_trace_perf(list);
        goto done;
    }
    if (cmdline_has("tracesbi.checks=trace-bench")) {
        char list[64];

        if (!cmdline_value("tracesbi.tracebench", list, sizeof(list)))
            strcpy(list, "program,switch");
        check_trace_bench(list);
        goto done;
    }
    if (cmdline_has("tracesbi.perftool=check") || cmdline_has("tracesbi.perftool=info")) {
        /* The perf tool's own boot (under -icount): that alone. */
        if (cmdline_has("maxcpus=1"))
            online_secondary_cpus(expected);
        check_online_cpus(expected);
        check_perf_tool(expected);
        goto done;
    }
    check_user_time_csr();
    check_online_cpus(expected);
    check_cpuinfo(expected);
    check_thread_per_cpu(expected);
    check_interrupts(expected);
    check_remote_tlb_flush(expected);
    check_cpu_hotplug(expected);
    pmu.mode_filter = cmdline_int("tracesbi.sscofpmf", 1) != 0;
    pmu.hw_counters = cmdline_int("tracesbi.hwcounters", 1) != 0;
    check_perf(expected);
    check_perf_tool_tlb();
    if (cmdline_has("tracesbi.tracemodule=nodev"))
        check_trace_module_nodev();

done:
    printf("tracesbi-init: done checks=%d failed=%d\n", checks_run, checks_failed);
    fflush(stdout);
    sync();
    /* A board without a power-off device (sifive_u) ends with a reboot,
     * which QEMU's -no-reboot turns into an exit. */
    if (cmdline_has("tracesbi.end=reboot")) {
        reboot(RB_AUTOBOOT);
        printf("FAIL: linux/reboot: reboot(RB_AUTOBOOT) returned: %s\n", strerror(errno));
    } else {
        reboot(RB_POWER_OFF);
        printf("FAIL: linux/poweroff: reboot(RB_POWER_OFF) returned: %s\n", strerror(errno));
    }
    for (;;)
        pause();
}
