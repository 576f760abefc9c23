/*
 * init of the tracesbi Linux boot test: the only program of the initramfs.
 *
 * It prints what the kernel sees of the machine the firmware handed over
 * (online CPUs, harts, interrupts, PMU), checks it, and powers off through
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
#include <linux/perf_event.h>
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/klog.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/syscall.h>
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

static void check_online_cpus(int expected)
{
    char online[128];
    int from_sysfs = -1;
    long from_sysconf = sysconf(_SC_NPROCESSORS_ONLN);

    if (read_file("/sys/devices/system/cpu/online", online, sizeof(online)) > 0)
        from_sysfs = count_cpu_list(online);
    else
        strcpy(online, "(unreadable)\n");
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

static void check_thread_per_cpu(int cpus)
{
    struct pinned_thread threads[MAX_CPUS];
    uint64_t reference = spin_workload(2000000);
    char name[64];

    if (cpus > MAX_CPUS)
        cpus = MAX_CPUS;
    for (int cpu = 0; cpu < cpus; cpu++) {
        threads[cpu] = (struct pinned_thread){ .cpu = cpu, .cpu_at_start = -1, .cpu_at_end = -1 };
        if (pthread_create(&threads[cpu].thread, NULL, run_pinned, &threads[cpu]) != 0)
            threads[cpu].affinity_error = -1;
    }
    for (int cpu = 0; cpu < cpus; cpu++) {
        struct pinned_thread *t = &threads[cpu];

        snprintf(name, sizeof(name), "thread-runs-on-cpu%d", cpu);
        if (t->affinity_error == -1) {
            fail(name, "pthread_create failed");
            continue;
        }
        pthread_join(t->thread, NULL);
        if (t->affinity_error)
            fail(name, "sched_setaffinity: %s", strerror(t->affinity_error));
        else if (t->cpu_at_start != cpu || t->cpu_at_end != cpu)
            fail(name, "ran on CPU %d then %d", t->cpu_at_start, t->cpu_at_end);
        else if (t->result != reference)
            fail(name, "workload result 0x%llx differs from CPU-0 result 0x%llx",
                 (unsigned long long)t->result, (unsigned long long)reference);
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
    check_online_cpus(expected);
    check_cpuinfo(expected);
    check_thread_per_cpu(expected);
    check_interrupts(expected);
    check_perf();

    printf("tracesbi-init: done checks=%d failed=%d\n", checks_run, checks_failed);
    fflush(stdout);
    sync();
    reboot(RB_POWER_OFF);
    printf("FAIL: linux/poweroff: reboot(RB_POWER_OFF) returned: %s\n", strerror(errno));
    for (;;)
        pause();
}
