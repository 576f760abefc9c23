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
 * items (run in this order, each pinned to the CPU it names):
 *   u     user space only, CPU 0
 *   us    user and kernel, CPU 0
 *   two   two recordings at once, user only, on CPU 0 and CPU 1
 *   busy  a second per-CPU event on a CPU that has one is refused (EBUSY)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "init.h"

#define MODULE_PATH "/lib/tracesbi_trace.ko"
#define PMU_TYPE    "/sys/bus/event_source/devices/tracesbi_trace/type"
#define RECORDER    "/bin/tsbi-record"
#define TRACED      "/bin/tsbi-traced"
#define TRACED_ROUNDS "20"

struct recording {
    const char *name;
    const char *cpu;      /* -C */
    bool user_only;
    pid_t pid;
};

static bool load_module(void)
{
    int fd = open(MODULE_PATH, O_RDONLY | O_CLOEXEC);
    long rc;

    if (fd < 0) {
        fail("trace-perf/module", "open %s: %s", MODULE_PATH, strerror(errno));
        return false;
    }
    rc = syscall(SYS_finit_module, fd, "", 0);
    close(fd);
    if (rc) {
        fail("trace-perf/module", "finit_module %s: %s", MODULE_PATH, strerror(errno));
        return false;
    }
    pass("trace-perf/module");
    return true;
}

static int pmu_type(void)
{
    char buf[32];

    if (read_file(PMU_TYPE, buf, sizeof(buf)) <= 0)
        return -1;
    return atoi(buf);
}

/* Starts the recorder on r; its pid, or -1. */
static pid_t start_recording(struct recording *r)
{
    char out[64];
    char *argv[12];
    int n = 0;

    snprintf(out, sizeof(out), "/tmp/%s.rec", r->name);
    argv[n++] = RECORDER;
    if (r->user_only)
        argv[n++] = "-u";
    argv[n++] = "-C";
    argv[n++] = (char *)r->cpu;
    argv[n++] = "-o";
    argv[n++] = out;
    argv[n++] = "--";
    argv[n++] = TRACED;
    argv[n++] = TRACED_ROUNDS;
    argv[n] = NULL;
    r->pid = fork();
    if (r->pid == 0) {
        execv(argv[0], argv);
        fprintf(stderr, "execv %s: %s\n", argv[0], strerror(errno));
        _exit(127);
    }
    return r->pid;
}

static const char b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/* Prints `len` bytes in base64, 76 characters a line. */
static void print_base64(const unsigned char *p, size_t len)
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

/* Waits for the recorders and dumps what each wrote. */
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
        if (dump_recording(&r[i]))
            pass(check);
    }
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

void check_trace_perf(const char *list)
{
    int type;

    if (!load_module())
        return;
    type = pmu_type();
    if (type < 0) {
        fail("trace-perf/pmu", "no %s", PMU_TYPE);
        return;
    }
    printf("INFO: linux/trace-perf/pmu: tracesbi_trace is perf type %d\n", type);
    if (listed(list, "u")) {
        struct recording r = { "u", "0", true, -1 };

        start_recording(&r);
        finish(&r, 1);
    }
    if (listed(list, "us")) {
        struct recording r = { "us", "0", false, -1 };

        start_recording(&r);
        finish(&r, 1);
    }
    if (listed(list, "two")) {
        struct recording r[2] = { { "two0", "0", true, -1 }, { "two1", "1", true, -1 } };

        start_recording(&r[0]);
        start_recording(&r[1]);
        finish(r, 2);
    }
    if (listed(list, "busy"))
        check_busy(type);
}
