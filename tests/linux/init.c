/*
 * init of the tracesbi Linux boot test: the only program of the initramfs.
 *
 * It prints what the kernel sees of the machine the firmware handed over
 * (online CPUs, harts, interrupts, PMU), checks it, exercises the firmware
 * through the kernel (threads on every hart, remote TLB shootdowns through
 * SBI RFENCE, CPU offline/online through SBI HSM), and powers off through
 * reboot(RB_POWER_OFF), which the kernel turns into an SBI SRST call.
 *
 * Output contract with scripts/run-linux-test.sh:
 *   "PASS: linux/<check>" or "FAIL: linux/<check>: <reason>" per check,
 *   "INFO: linux/<what>: ..." for facts that are not checks,
 *   "tracesbi-init: started" first and "tracesbi-init: done checks=N failed=M"
 *   last, so the script can tell a complete run from a truncated one.
 * The expected number of CPUs comes from the kernel command line
 * (tracesbi.cpus=N), since only the test script knows what QEMU was given.
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

#define MAX_CPUS 64
#define LINE_MAX_LEN 512

static int checks_run;
static int checks_failed;

static void pass(const char *check)
{
    checks_run++;
    printf("PASS: linux/%s\n", check);
}

static void __attribute__((format(printf, 2, 3))) fail(const char *check, const char *fmt, ...)
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
static long read_file(const char *path, char *buf, size_t size)
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

/* tracesbi.cpus=N from /proc/cmdline, or -1 when absent. */
static int expected_cpus(void)
{
    char cmdline[LINE_MAX_LEN];
    const char *p;

    if (read_file("/proc/cmdline", cmdline, sizeof(cmdline)) < 0)
        return -1;
    p = strstr(cmdline, "tracesbi.cpus=");
    return p ? atoi(p + strlen("tracesbi.cpus=")) : -1;
}

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

static void *run_pinned(void *arg)
{
    struct pinned_thread *t = arg;
    cpu_set_t set;

    CPU_ZERO(&set);
    CPU_SET(t->cpu, &set);
    /* Pinning the running thread migrates it before the call returns. */
    t->affinity_error = sched_setaffinity(0, sizeof(set), &set) ? errno : 0;
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
 * /proc/interrupts: a header of CPUn columns, then one row per interrupt
 * ("5: c0 c1 c2 c3 RISC-V INTC 5 Edge riscv-timer", "IPI0: c0 .. Rescheduling
 * interrupts").  Sums, per CPU, the timer row and all IPI rows.
 */
static void check_interrupts(int cpus)
{
    FILE *f = fopen("/proc/interrupts", "r");
    char line[LINE_MAX_LEN];
    unsigned long timer[MAX_CPUS] = { 0 }, ipi[MAX_CPUS] = { 0 };
    bool timer_row = false;
    int ipi_rows = 0;

    if (!f) {
        fail("interrupts-timer", "cannot open /proc/interrupts: %s", strerror(errno));
        fail("interrupts-ipi", "cannot open /proc/interrupts");
        return;
    }
    if (cpus > MAX_CPUS)
        cpus = MAX_CPUS;
    while (fgets(line, sizeof(line), f)) {
        char *p = strchr(line, ':');
        unsigned long counts[MAX_CPUS];
        bool is_ipi = strncmp(line + strspn(line, " "), "IPI", 3) == 0;
        bool is_timer = strstr(line, "riscv-timer") != NULL;
        int n = 0;

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
                timer[cpu] += counts[cpu];
            else
                ipi[cpu] += counts[cpu];
        }
        timer_row |= is_timer;
        ipi_rows += is_ipi;
    }
    fclose(f);

    int cpu;
    for (cpu = 0; cpu < cpus && timer[cpu] > 0; cpu++)
        ;
    if (!timer_row)
        fail("interrupts-timer", "no riscv-timer row with %d CPU columns", cpus);
    else if (cpu < cpus)
        fail("interrupts-timer", "CPU %d took no timer interrupt", cpu);
    else
        pass("interrupts-timer");

    for (cpu = 0; cpu < cpus && ipi[cpu] > 0; cpu++)
        ;
    if (ipi_rows == 0)
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

static bool pin_self(int cpu)
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
 * Counts one hardware event over a user-mode loop of `iterations` steps.
 * Returns 0 and the count, or an errno value.
 */
static int count_hw_event(uint64_t config, uint64_t iterations, uint64_t *count)
{
    struct perf_event_attr attr = {
        .type = PERF_TYPE_HARDWARE,
        .size = sizeof(attr),
        .config = config,
        .disabled = 1,
        .exclude_kernel = 1,
        .exclude_hv = 1,
    };
    int fd = (int)syscall(SYS_perf_event_open, &attr, 0, -1, -1, 0);
    int err = 0;

    if (fd < 0)
        return errno;
    if (ioctl(fd, PERF_EVENT_IOC_RESET, 0) || ioctl(fd, PERF_EVENT_IOC_ENABLE, 0))
        err = errno;
    spin_workload(iterations);
    if (!err && ioctl(fd, PERF_EVENT_IOC_DISABLE, 0))
        err = errno;
    if (!err && read(fd, count, sizeof(*count)) != (ssize_t)sizeof(*count))
        err = errno ? errno : EIO;
    close(fd);
    return err;
}

static void check_perf(void)
{
    const uint64_t iterations = 1000000;
    static const struct {
        const char *check;
        uint64_t config;
        uint64_t minimum; /* each loop step retires several instructions */
    } events[] = {
        { "perf-cycles", PERF_COUNT_HW_CPU_CYCLES, 1 },
        { "perf-instructions", PERF_COUNT_HW_INSTRUCTIONS, 1000000 },
    };
    bool has_pmu = firmware_has_pmu();

    for (size_t i = 0; i < sizeof(events) / sizeof(events[0]); i++) {
        uint64_t count = 0;
        int err = count_hw_event(events[i].config, iterations, &count);

        if (!has_pmu) {
            printf("INFO: linux/%s: firmware has no SBI PMU extension (PMU comes in a "
                   "later issue): perf_event_open %s, count %llu\n", events[i].check,
                   err ? strerror(err) : "worked", (unsigned long long)count);
        } else if (err) {
            fail(events[i].check, "perf_event_open/read: %s", strerror(err));
        } else if (count < events[i].minimum) {
            fail(events[i].check, "%llu counted over %llu loop steps, expected at least %llu",
                 (unsigned long long)count, (unsigned long long)iterations,
                 (unsigned long long)events[i].minimum);
        } else {
            printf("INFO: linux/%s: %llu over %llu loop steps\n", events[i].check,
                   (unsigned long long)count, (unsigned long long)iterations);
            pass(events[i].check);
        }
    }
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
    check_user_time_csr();
    check_online_cpus(expected);
    check_cpuinfo(expected);
    check_thread_per_cpu(expected);
    check_interrupts(expected);
    check_remote_tlb_flush(expected);
    check_cpu_hotplug(expected);
    check_perf();

    printf("tracesbi-init: done checks=%d failed=%d\n", checks_run, checks_failed);
    fflush(stdout);
    sync();
    reboot(RB_POWER_OFF);
    printf("FAIL: linux/poweroff: reboot(RB_POWER_OFF) returned: %s\n", strerror(errno));
    for (;;)
        pause();
}
