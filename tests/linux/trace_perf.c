// SPDX-License-Identifier: BSD-2-Clause
/*
 * The perf trace checks of the boot test's init (tracesbi.checks=trace-perf;
 * the host side is tests/linux/trace-perf-test.py): load the trace PMU
 * module (linux-trace/driver) from the second initramfs, record
 * /bin/tsbi-traced with /bin/tsbi-record (linux-trace/recorder) as the
 * kernel command line's tracesbi.traceperf=LIST asks, and print each
 * recording on the console in base64 between
 *   TSBIREC-BEGIN name=NAME cpu=C bytes=N
 *   TSBIREC-END name=NAME
 * for the host to decode and compare with QEMU's execution log.  LIST
 * items (run in this order; each program pinned to the CPU it names, and
 * but for `full` its recorder too, `full`'s on the other CPU):
 *   busy  a second per-CPU event on a CPU that has one is refused (EBUSY)
 *   u     user space only, CPU 0
 *   us    user and kernel, CPU 0, with two address filters: the kernel's
 *         text (tracesbi.tracektext=START/SIZE) and tsbi-traced's range,
 *         so that code QEMU's log leaves out (modules) is not traced
 *   two   two recordings at once, user only, on CPU 0 and CPU 1
 *   full  the module reloaded with a 4 KiB sink: a recording whose sink
 *         fills (the AUX record is flagged truncated), user only, CPU 0
 * With tracesbi.tracelog=host the host turns QEMU's execution log on for
 * the recordings but `full` (which the host checks against `u`) and off
 * before the module's reload and the dumps: init prints
 *   TSBI-HOST-SYNC log-on | log-off
 * and waits until the host answers with a line on the console.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <linux/perf_event.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/klog.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "init.h"

#define MODULE_PATH "/lib/tracesbi_trace.ko"
#define PMU_TYPE    "/sys/bus/event_source/devices/tracesbi_trace/type"
#define RECORDER    "/bin/tsbi-record"
#define TRACED      "/bin/tsbi-traced"
/* tsbi-traced's rounds: 138,066 user instructions for 20.  `us` takes
 * fewer: with the kernel's text in QEMU's log its run is the test's
 * longest (still about 580,000 kernel instructions). */
#define TRACED_ROUNDS    "20"
#define TRACED_ROUNDS_US "5"
#define TRACED_RANGE  "0x2000000000/0x1000000"   /* tsbi-traced's link range */
#define FULL_SINK_KB  "sink_kb=4"
#define KLOG_CONSOLE_LEVEL 8   /* syslog(2): SYSLOG_ACTION_CONSOLE_LEVEL (no uapi header) */

struct recording {
    const char *name;
    const char *cpu;      /* -C */
    int recorder_cpu;     /* where the recorder runs (pin_to_cpu) */
    bool realtime;        /* SCHED_FIFO, the program too (it inherits it) */
    bool user_only;
    const char *rounds;   /* tsbi-traced's argument */
    const char *filters;  /* -f, or NULL */
    pid_t pid;
    bool ok;              /* the recorder ran and exited 0 */
};

bool load_module(const char *check, const char *params)
{
    int fd = open(MODULE_PATH, O_RDONLY | O_CLOEXEC);
    long rc;

    if (fd < 0) {
        fail(check, "open %s: %s", MODULE_PATH, strerror(errno));
        return false;
    }
    rc = syscall(SYS_finit_module, fd, params, 0);
    close(fd);
    if (rc) {
        fail(check, "finit_module %s %s: %s", MODULE_PATH, params, strerror(errno));
        return false;
    }
    pass(check);
    return true;
}

/* The module loaded where the DT describes no trace component: its init
 * finds no CPU with an encoder and a RAM sink and refuses (ENODEV), and
 * no PMU is left behind. */
void check_trace_module_nodev(void)
{
    const char *check = "trace-perf/module-nodev";
    int fd = open(MODULE_PATH, O_RDONLY | O_CLOEXEC);
    struct stat st;
    long rc;
    int err;

    if (fd < 0) {
        fail(check, "open %s: %s (is the trace initramfs given with -initrd?)", MODULE_PATH,
             strerror(errno));
        return;
    }
    rc = syscall(SYS_finit_module, fd, "", 0);
    err = errno;
    close(fd);
    if (rc == 0) {
        fail(check, "the module loaded without trace components in the DT");
        syscall(SYS_delete_module, "tracesbi_trace", O_NONBLOCK);
    } else if (err != ENODEV) {
        fail(check, "finit_module: %s, expected ENODEV", strerror(err));
    } else if (stat(PMU_TYPE, &st) == 0) {
        fail(check, "ENODEV, but %s exists", PMU_TYPE);
    } else {
        pass(check);
    }
}

static bool unload_module(const char *check)
{
    if (syscall(SYS_delete_module, "tracesbi_trace", O_NONBLOCK) == 0)
        return true;
    fail(check, "delete_module tracesbi_trace: %s", strerror(errno));
    return false;
}

/* Prints the request and waits for the host's line on the console. */
static void host_sync(const char *what)
{
    char line[16];

    printf("TSBI-HOST-SYNC %s\n", what);
    fflush(stdout);
    if (!fgets(line, sizeof(line), stdin))
        fail("trace-perf/host-sync", "%s: no answer on the console", what);
}

static int pmu_type(void)
{
    char buf[32];

    if (read_file(PMU_TYPE, buf, sizeof(buf)) <= 0)
        return -1;
    return atoi(buf);
}

/* While QEMU logs, a recorder runs on the CPU its program runs on: its
 * perf calls on the traced task (perf_install_in_context, ...) are then
 * local, not IPIs the calling CPU waits for spinning (which under
 * -icount's round-robin takes the spinner's whole time slice, and fills
 * QEMU's log). */
static void pin_to_cpu(int cpu)
{
    if (!pin_self(cpu))
        fprintf(stderr, "sched_setaffinity CPU %d: %s\n", cpu, strerror(errno));
}

/* SCHED_FIFO: no CFS task (a kernel thread every few ticks) preempts the
 * program, whose time slice then lasts until the sink fills. */
static void make_realtime(void)
{
    struct sched_param param = { .sched_priority = 1 };

    if (sched_setscheduler(0, SCHED_FIFO, &param))
        fprintf(stderr, "sched_setscheduler SCHED_FIFO: %s\n", strerror(errno));
}

/* Starts the recorder on r; its pid, or -1. */
static pid_t start_recording(struct recording *r)
{
    char out[64];
    char *argv[14];
    int n = 0;

    snprintf(out, sizeof(out), "/tmp/%s.rec", r->name);
    argv[n++] = RECORDER;
    if (r->user_only)
        argv[n++] = "-u";
    if (r->filters) {
        argv[n++] = "-f";
        argv[n++] = (char *)r->filters;
    }
    argv[n++] = "-C";
    argv[n++] = (char *)r->cpu;
    argv[n++] = "-o";
    argv[n++] = out;
    argv[n++] = "--";
    argv[n++] = TRACED;
    argv[n++] = (char *)r->rounds;
    argv[n] = NULL;
    r->pid = fork();
    if (r->pid == 0) {
        pin_to_cpu(r->recorder_cpu);
        if (r->realtime)
            make_realtime();
        execv(argv[0], argv);
        fprintf(stderr, "execv %s: %s\n", argv[0], strerror(errno));
        _exit(127);
    }
    return r->pid;
}

static const char b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/* Prints `len` bytes in base64, 76 characters a line. */
void print_base64(const unsigned char *p, size_t len)
{
    char line[80];
    size_t i, n = 0;

    for (i = 0; i < len; i += 3) {
        uint32_t v = (uint32_t)p[i] << 16 | (i + 1 < len ? (uint32_t)p[i + 1] << 8 : 0) |
                     (i + 2 < len ? p[i + 2] : 0);

        line[n++] = b64[v >> 18 & 63];
        line[n++] = b64[v >> 12 & 63];
        line[n++] = i + 1 < len ? b64[v >> 6 & 63] : '=';
        line[n++] = i + 2 < len ? b64[v & 63] : '=';
        if (n == 76 || i + 3 >= len) {
            printf("%.*s\n", (int)n, line);
            n = 0;
        }
    }
}

static bool dump_recording(const struct recording *r)
{
    char path[64];
    struct stat st;
    unsigned char *data;
    FILE *f;
    bool ok;

    snprintf(path, sizeof(path), "/tmp/%s.rec", r->name);
    f = fopen(path, "rb");
    if (!f || fstat(fileno(f), &st) || st.st_size <= 0) {
        fail("trace-perf/record", "%s: no recording at %s", r->name, path);
        if (f)
            fclose(f);
        return false;
    }
    data = malloc((size_t)st.st_size);
    ok = data && fread(data, 1, (size_t)st.st_size, f) == (size_t)st.st_size;
    fclose(f);
    if (ok) {
        printf("TSBIREC-BEGIN name=%s cpu=%s bytes=%lld\n", r->name, r->cpu,
               (long long)st.st_size);
        print_base64(data, (size_t)st.st_size);
        printf("TSBIREC-END name=%s\n", r->name);
        fflush(stdout);
    }
    free(data);
    if (!ok)
        fail("trace-perf/record", "%s: cannot read %s", r->name, path);
    return ok;
}

/* Waits for the recorders (their recordings are dumped later: while
 * QEMU logs the kernel, printing them would cost millions of lines). */
static void finish(struct recording *r, int count)
{
    for (int i = 0; i < count; i++) {
        char check[64];
        int status;

        snprintf(check, sizeof(check), "trace-perf/record-%s", r[i].name);
        if (r[i].pid < 0 || waitpid(r[i].pid, &status, 0) != r[i].pid) {
            fail(check, "the recorder did not start or was lost");
            continue;
        }
        if (!WIFEXITED(status) || WEXITSTATUS(status)) {
            fail(check, "tsbi-record exited with status 0x%x", status);
            continue;
        }
        r[i].ok = true;
        pass(check);
    }
}

static void record(struct recording *r, int count)
{
    for (int i = 0; i < count; i++)
        start_recording(&r[i]);
    finish(r, count);
}

static int open_cpu_event(int type, int cpu)
{
    struct perf_event_attr attr;

    memset(&attr, 0, sizeof(attr));
    attr.size = sizeof(attr);
    attr.type = (uint32_t)type;
    attr.disabled = 1;
    attr.exclude_kernel = 1;
    return (int)syscall(SYS_perf_event_open, &attr, -1, cpu, -1, PERF_FLAG_FD_CLOEXEC);
}

/* A second per-CPU event on CPU 0 while one is open: EBUSY. */
static void check_busy(int type)
{
    int first = open_cpu_event(type, 0), second, err;

    if (first < 0) {
        fail("trace-perf/busy", "the first event on CPU 0: %s", strerror(errno));
        return;
    }
    second = open_cpu_event(type, 0);
    err = errno;
    if (second >= 0) {
        fail("trace-perf/busy", "a second event on CPU 0 was accepted");
        close(second);
    } else if (err != EBUSY) {
        fail("trace-perf/busy", "a second event on CPU 0: %s, not EBUSY", strerror(err));
    } else {
        pass("trace-perf/busy");
    }
    close(first);
}

static bool listed(const char *list, const char *item)
{
    size_t n = strlen(item);

    for (const char *p = list; *p;) {
        size_t len = strcspn(p, ",");

        if (len == n && !strncmp(p, item, n))
            return true;
        p += len + (p[len] == ',');
    }
    return false;
}

/* The recordings of every item, in the order they run.  `full` is made
 * with QEMU's log off, its recorder on the other CPU and both SCHED_FIFO:
 * otherwise the program is preempted every ~8 ms (the recorder beside it,
 * where the scheduler also puts an unpinned one, or kernel threads), and
 * its time slices are too short to fill even a 4 KiB sink. */
static struct recording recordings[] = {
    { "u", "0", 0, false, true, TRACED_ROUNDS, NULL, -1, false },
    { "us", "0", 0, false, false, TRACED_ROUNDS_US, NULL, -1, false },
    { "two0", "0", 0, false, true, TRACED_ROUNDS, NULL, -1, false },
    { "two1", "1", 1, false, true, TRACED_ROUNDS, NULL, -1, false },
    { "full", "0", 1, true, true, TRACED_ROUNDS, NULL, -1, false },
};

static struct recording *recording_named(const char *name)
{
    for (size_t i = 0; i < sizeof(recordings) / sizeof(recordings[0]); i++)
        if (!strcmp(recordings[i].name, name))
            return &recordings[i];
    return NULL;
}

/* "filter KTEXT,filter TRACED_RANGE"; false without tracesbi.tracektext=. */
static bool us_filters(char *buf, size_t size)
{
    char ktext[48];

    if (!cmdline_value("tracesbi.tracektext", ktext, sizeof(ktext))) {
        fail("trace-perf/record-us", "no tracesbi.tracektext=START/SIZE on the command line");
        return false;
    }
    snprintf(buf, size, "filter %s,filter " TRACED_RANGE, ktext);
    return true;
}

/* The sink of 4 KiB fills long before tsbi-traced ends. */
static void record_full(void)
{
    if (!unload_module("trace-perf/full-reload") ||
        !load_module("trace-perf/full-reload", FULL_SINK_KB))
        return;
    record(recording_named("full"), 1);
}

void check_trace_perf(const char *list)
{
    static char filters[128];
    bool host_log = cmdline_has("tracesbi.tracelog=host");
    int type;

    if (!load_module("trace-perf/module", ""))
        return;
    type = pmu_type();
    if (type < 0) {
        fail("trace-perf/pmu", "no %s", PMU_TYPE);
        return;
    }
    printf("INFO: linux/trace-perf/pmu: tracesbi_trace is perf type %d\n", type);
    if (listed(list, "busy"))
        check_busy(type);
    if (host_log)
        host_sync("log-on");
    if (listed(list, "u"))
        record(recording_named("u"), 1);
    if (listed(list, "us") && us_filters(filters, sizeof(filters))) {
        recording_named("us")->filters = filters;
        record(recording_named("us"), 1);
    }
    if (listed(list, "two"))
        record(recording_named("two0"), 2);
    if (host_log)
        host_sync("log-off");
    if (listed(list, "full"))
        record_full();
    /* Kernel messages (e.g. "random: crng init done") would land in the
     * middle of the base64: only emergencies on the console from here. */
    if (klogctl(KLOG_CONSOLE_LEVEL, NULL, 1))
        printf("INFO: linux/trace-perf: klogctl: %s\n", strerror(errno));
    for (size_t i = 0; i < sizeof(recordings) / sizeof(recordings[0]); i++)
        if (recordings[i].ok)
            dump_recording(&recordings[i]);
}
