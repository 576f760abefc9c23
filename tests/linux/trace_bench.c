// SPDX-License-Identifier: BSD-2-Clause
/*
 * The program-tracing benchmark of the boot test's init
 * (tracesbi.checks=trace-bench; the host side is scripts/bench-trace-linux.py,
 * which boots QEMU with -icount shift=0,sleep=off and the perf trace
 * initramfs).  It loads the trace PMU module and measures, on CPU 0, with
 * the recorder on CPU 1 if there is one (the host boots two harts by
 * default, --smp 1 for one):
 *
 * program  /bin/tsbi-traced ROUNDS, untraced and recorded by tsbi-record
 *          user only (`-u -C 0`) and user+kernel (`-C 0` with the kernel's
 *          text and tsbi-traced's range as address filters, as the
 *          trace-perf checks: no module code is encoded, which no ELF on
 *          the host describes), REPS times each.  Init, pinned to CPU 0,
 *          ptrace()s the program (through the recorder's fork, the
 *          recorder itself let go at once) and reads the hart's instret
 *          (U-mode rdinstret: every mode, M included) at the program's
 *          syscall stop at the entry of its execve and when it has ended
 *          (waitpid): the instructions CPU 0 ran for its exec, its run and
 *          its exit, the encoder's every start (enable_on_exec) and stop
 *          (the last at its exit) included.  No other ptrace stop happens
 *          in that window (PTRACE_SEIZE, no exec or exit events).
 *          Over the same window it counts the firmware's emulated
 *          register accesses on CPU 0 (SBI PMU firmware events
 *          ACCESS_LOAD + ACCESS_STORE, per-CPU counting events, enabled
 *          and read outside the instret window).  Around that window init
 *          prints markers the host timestamps:
 *            TSBI-BENCH-MARK begin NAME / TSBI-BENCH-MARK end NAME
 *          then the result:
 *            TSBI-BENCH program name=NAME mode=MODE rep=R instret=N accesses=A output=LINE
 * switch   /bin/tsbi-pingpong (pp and self, SWITCHES round trips) untraced
 *          and recorded user only: the program measures itself and prints
 *            TSBI-BENCH switch name=NAME output=LINE
 * The recorder's summary follows each recording
 * (`TSBI-BENCH recorder name=NAME: ...`), and the program's recordings
 * (every repetition) are printed in base64 at the end, as trace-perf does
 * (TSBIREC-BEGIN name=NAME cpu=0 bytes=N ... TSBIREC-END name=NAME).
 *
 * Command line: tracesbi.tracebench=program,switch (the parts to run),
 * tracesbi.benchrounds=ROUNDS (default 20), tracesbi.benchswitches=N
 * (default 200), tracesbi.benchreps=REPS (default 3),
 * tracesbi.tracektext=START/SIZE (for the user+kernel filters).
 * Never busy-waits: under -icount the harts run in turn.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/perf_event.h>
#include <sys/ioctl.h>
#include <sys/ptrace.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#include "init.h"

#define RECORDER      "/bin/tsbi-record"
#define TRACED        "/bin/tsbi-traced"
#define PINGPONG      "/bin/tsbi-pingpong"
#define TRACED_RANGE  "0x2000000000/0x1000000"   /* tsbi-traced's link range */
#define MEASURED_CPU  "0"
#define OTHER_CPU     1
#define MAX_REPS      5
/* Linux 6.1's riscv_pmu_sbi: a raw config with bit 63 set is SBI firmware
 * event `config & 0xffff`: ACCESS_LOAD 2 and ACCESS_STORE 3 count the
 * emulated register accesses (access faults the firmware handled). */
#define SBI_FW_EVENT(code) ((1ull << 63) | (code))
#define SBI_FW_ACCESS_LOAD  2
#define SBI_FW_ACCESS_STORE 3

struct bench_mode {
    const char *name;      /* untraced, u, us */
    bool traced;
    bool user_only;
    bool filtered;         /* the kernel's text and tsbi-traced's range */
};

static const struct bench_mode program_modes[] = {
    { "untraced", false, false, false },
    { "u", true, true, false },
    { "us", true, false, true },
};

/* What the ptrace loop saw of one run. */
struct window {
    pid_t top;             /* init's child: the program or the recorder */
    pid_t prog;            /* the program (the recorder's child when traced) */
    bool prog_seen, started, ended;
    unsigned long long start, end;
    long long accesses;    /* over the window, -1 when not counted */
    int prog_status, top_status;
};

/* Counting events of the firmware's ACCESS_LOAD and ACCESS_STORE on CPU 0. */
static int access_counters[2] = { -1, -1 };

static char filters[128];
static int rounds = 20, switches = 200, reps = 3;

static unsigned long long read_instret(void)
{
    unsigned long long v;

    __asm__ volatile("rdinstret %0" : "=r"(v));
    return v;
}

/* A marker the host timestamps; drained, so that the UART's work on it is
 * over before the window it marks opens. */
static void mark(const char *what, const char *name)
{
    printf("TSBI-BENCH-MARK %s %s\n", what, name);
    fflush(stdout);
    tcdrain(STDOUT_FILENO);
}

static void open_access_counters(void)
{
    static const unsigned codes[2] = { SBI_FW_ACCESS_LOAD, SBI_FW_ACCESS_STORE };

    for (int i = 0; i < 2; i++) {
        struct perf_event_attr attr;

        memset(&attr, 0, sizeof(attr));
        attr.size = sizeof(attr);
        attr.type = PERF_TYPE_RAW;
        attr.config = SBI_FW_EVENT(codes[i]);
        attr.disabled = 1;
        access_counters[i] = (int)syscall(SYS_perf_event_open, &attr, -1, 0, -1,
                                          PERF_FLAG_FD_CLOEXEC);
        if (access_counters[i] < 0)
            printf("INFO: linux/trace-bench: no access counter (%s)\n", strerror(errno));
    }
}

static void count_accesses(bool on)
{
    for (int i = 0; i < 2; i++) {
        if (access_counters[i] < 0)
            continue;
        if (on)
            ioctl(access_counters[i], PERF_EVENT_IOC_RESET, 0);
        ioctl(access_counters[i], on ? PERF_EVENT_IOC_ENABLE : PERF_EVENT_IOC_DISABLE, 0);
    }
}

/* The accesses counted since count_accesses(true), or -1. */
static long long accesses_counted(void)
{
    long long total = 0;

    for (int i = 0; i < 2; i++) {
        uint64_t v;

        if (access_counters[i] < 0 ||
            read(access_counters[i], &v, sizeof(v)) != (ssize_t)sizeof(v))
            return -1;
        total += (long long)v;
    }
    return total;
}

static int int_option(const char *key, int fallback, int lo, int hi)
{
    char buf[16], *end;
    long v;

    if (!cmdline_value(key, buf, sizeof(buf)))
        return fallback;
    v = strtol(buf, &end, 10);
    return end == buf || *end || v < lo || v > hi ? fallback : (int)v;
}

static void redirect(int fd, const char *path)
{
    int f = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);

    if (f >= 0 && f != fd) {
        dup2(f, fd);
        close(f);
    }
}

/* argv of the recorder for `mode`, ending with the program's. */
static void recorder_argv(const struct bench_mode *mode, const char *rec, char **prog, char **argv)
{
    int n = 0;

    argv[n++] = RECORDER;
    if (mode->user_only)
        argv[n++] = "-u";
    if (mode->filtered) {
        argv[n++] = "-f";
        argv[n++] = filters;
    }
    argv[n++] = "-C";
    argv[n++] = MEASURED_CPU;
    argv[n++] = "-o";
    argv[n++] = (char *)rec;
    argv[n++] = "--";
    while (*prog)
        argv[n++] = *prog++;
    argv[n] = NULL;
}

/* Starts the run: the program (or the recorder on it) with stdout and
 * stderr in files.  The recorder runs on the other CPU if there is one,
 * the program on this one.  With `gate`, the child waits for a byte on it (so that the
 * parent can attach first), and a program without the recorder stops
 * itself then, for the parent's first syscall stop. */
static pid_t start_run(const struct bench_mode *mode, const char *name, char **prog, int *gate)
{
    char out[64], err[64], rec[64], c;
    char *argv[16];
    int fds[2] = { -1, -1 };
    pid_t pid;

    snprintf(out, sizeof(out), "/tmp/%s.out", name);
    snprintf(err, sizeof(err), "/tmp/%s.err", name);
    snprintf(rec, sizeof(rec), "/tmp/%s.rec", name);
    if (mode->traced)
        recorder_argv(mode, rec, prog, argv);
    if (gate && pipe2(fds, O_CLOEXEC))
        return -1;
    fflush(stdout);
    pid = fork();
    if (pid != 0) {
        if (gate) {
            close(fds[0]);
            *gate = fds[1];
        }
        return pid;
    }
    redirect(STDOUT_FILENO, out);
    redirect(STDERR_FILENO, err);
    if (mode->traced && sysconf(_SC_NPROCESSORS_ONLN) > OTHER_CPU && !pin_self(OTHER_CPU))
        _exit(126);
    if (gate && (read(fds[0], &c, 1) != 1 || (!mode->traced && raise(SIGSTOP))))
        _exit(126);
    execv(mode->traced ? argv[0] : prog[0], mode->traced ? argv : prog);
    _exit(127);
}

/* Syscall stops of the program until the window opens, then none. */
static void resume(const struct window *w, pid_t pid, int sig)
{
    ptrace(pid == w->prog && !w->started ? PTRACE_SYSCALL : PTRACE_CONT, pid, NULL,
           (void *)(long)sig);
}

static bool at_execve_entry(pid_t pid)
{
    struct __ptrace_syscall_info info;

    return ptrace(PTRACE_GET_SYSCALL_INFO, pid, (void *)sizeof(info), &info) > 0 &&
           info.op == PTRACE_SYSCALL_INFO_ENTRY && info.entry.nr == SYS_execve;
}

/* A stop of the program: its first (set the options), a syscall stop
 * (the window opens at the entry of its execve), or a signal to pass on
 * (not the SIGSTOP it stopped itself with). */
static void program_stopped(struct window *w, int status, const char *name)
{
    int sig = WSTOPSIG(status);

    if (!w->prog_seen) {
        w->prog_seen = true;
        ptrace(PTRACE_SETOPTIONS, w->prog, NULL,
               (void *)(long)(PTRACE_O_TRACESYSGOOD | PTRACE_O_EXITKILL));
        sig = 0;
    } else if (sig == (SIGTRAP | 0x80)) {
        if (!w->started && at_execve_entry(w->prog)) {
            mark("begin", name);
            w->started = true;
            count_accesses(true);
            w->start = read_instret();
        }
        sig = 0;
    } else if (status >> 16 || sig == SIGSTOP) {
        sig = 0;
    }
    resume(w, w->prog, sig);
}

/* The window closes when the program has ended, exit and all (the
 * encoder's last stop included): the first thing this CPU runs after. */
static void program_ended(struct window *w, int status, const char *name)
{
    if (w->started) {
        w->end = read_instret();
        count_accesses(false);
        w->accesses = accesses_counted();
        w->ended = true;
        mark("end", name);
    }
    w->prog_status = status;
}

/* A stop of the recorder: at its fork, its child is the program (attached
 * by PTRACE_O_TRACEFORK) and the recorder is let go. */
static void recorder_stopped(struct window *w, int status)
{
    int sig = WSTOPSIG(status);

    if (status >> 16 == PTRACE_EVENT_FORK) {
        unsigned long child = 0;

        ptrace(PTRACE_GETEVENTMSG, w->top, NULL, &child);
        w->prog = (pid_t)child;
        ptrace(PTRACE_DETACH, w->top, NULL, NULL);
        return;
    }
    resume(w, w->top, status >> 16 ? 0 : sig);
}

/* Attaches to the run's first process, lets it go and follows its
 * processes until every one has ended. */
static bool follow(struct window *w, int gate, const char *name)
{
    long options = w->prog ? PTRACE_O_TRACESYSGOOD | PTRACE_O_EXITKILL
                           : PTRACE_O_TRACEFORK | PTRACE_O_EXITKILL;
    bool top_done = false, prog_done = false;
    bool ok = ptrace(PTRACE_SEIZE, w->top, NULL, (void *)options) == 0;

    if (write(gate, "g", 1) != 1)
        ok = false;
    close(gate);
    while (!top_done || !prog_done) {
        int status;
        pid_t pid = waitpid(-1, &status, __WALL);

        if (pid < 0) {
            if (errno == EINTR)
                continue;
            return false;
        }
        /* The program's first stop may come before the recorder's fork
         * event: the only other process of the run is the program. */
        if (pid != w->top && !w->prog)
            w->prog = pid;
        if (WIFEXITED(status) || WIFSIGNALED(status)) {
            if (pid == w->prog) {
                program_ended(w, status, name);
                prog_done = true;
            }
            if (pid == w->top) {
                w->top_status = status;
                top_done = true;
            }
        } else if (WIFSTOPPED(status) && pid == w->prog) {
            program_stopped(w, status, name);
        } else if (WIFSTOPPED(status) && pid == w->top) {
            recorder_stopped(w, status);
        }
    }
    return ok;
}

static void print_file_line(const char *prefix, const char *path)
{
    char buf[LINE_MAX_LEN];
    long n = read_file(path, buf, sizeof(buf));

    if (n < 0)
        buf[0] = '\0';
    buf[strcspn(buf, "\n")] = '\0';
    printf("%s%s\n", prefix, buf);
}

/* The recorder's summary (its stderr's last line). */
static void print_recorder_summary(const char *name)
{
    char path[64], buf[2048], *last;
    long n;

    snprintf(path, sizeof(path), "/tmp/%s.err", name);
    n = read_file(path, buf, sizeof(buf));
    if (n <= 0)
        return;
    while (n > 0 && buf[n - 1] == '\n')
        buf[--n] = '\0';
    last = strrchr(buf, '\n');
    printf("TSBI-BENCH recorder name=%s: %s\n", name, last ? last + 1 : buf);
}

static bool exited_zero(int status)
{
    return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

static void run_program(const struct bench_mode *mode, int rep)
{
    char name[32], check[64], arg[12], out[64], prefix[192];
    char *prog[] = { TRACED, arg, NULL };
    struct window w = { 0 };
    int gate = -1;

    snprintf(name, sizeof(name), "prog-%s-%d", mode->name, rep);
    snprintf(check, sizeof(check), "trace-bench/%s", name);
    snprintf(arg, sizeof(arg), "%d", rounds);
    w.top = start_run(mode, name, prog, &gate);
    if (w.top < 0) {
        fail(check, "fork: %s", strerror(errno));
        return;
    }
    w.prog = mode->traced ? 0 : w.top;
    if (!follow(&w, gate, name)) {
        fail(check, "ptrace or waitpid: %s", strerror(errno));
        return;
    }
    if (!w.ended || !exited_zero(w.prog_status) || !exited_zero(w.top_status)) {
        fail(check, "no execve seen (%d), or exit status 0x%x (program) 0x%x (first process)",
             w.started, w.prog_status, w.top_status);
        return;
    }
    snprintf(out, sizeof(out), "/tmp/%s.out", name);
    snprintf(prefix, sizeof(prefix),
             "TSBI-BENCH program name=%s mode=%s rep=%d instret=%llu accesses=%lld output=", name,
             mode->name, rep, w.end - w.start, w.accesses);
    print_file_line(prefix, out);
    if (mode->traced)
        print_recorder_summary(name);
    pass(check);
}

static void run_pingpong(const char *how, bool traced)
{
    static const struct bench_mode untraced = { "untraced", false, false, false };
    static const struct bench_mode user = { "u", true, true, false };
    char name[32], check[64], arg[12], out[64], prefix[64];
    char *prog[] = { PINGPONG, (char *)how, arg, NULL };
    int status;
    pid_t pid;

    snprintf(name, sizeof(name), "switch-%s-%s", how, traced ? "u" : "untraced");
    snprintf(check, sizeof(check), "trace-bench/%s", name);
    snprintf(arg, sizeof(arg), "%d", switches);
    pid = start_run(traced ? &user : &untraced, name, prog, NULL);
    if (pid < 0 || waitpid(pid, &status, 0) != pid || !exited_zero(status)) {
        fail(check, "the run failed (status 0x%x)", pid < 0 ? -1 : status);
        return;
    }
    snprintf(out, sizeof(out), "/tmp/%s.out", name);
    snprintf(prefix, sizeof(prefix), "TSBI-BENCH switch name=%s output=", name);
    print_file_line(prefix, out);
    if (traced)
        print_recorder_summary(name);
    pass(check);
}

/* Prints a recording as trace-perf does, for the host to decode. */
static void dump_recording(const char *name)
{
    char path[64];
    struct stat st;
    unsigned char *data;
    FILE *f;
    bool ok;

    snprintf(path, sizeof(path), "/tmp/%s.rec", name);
    f = fopen(path, "rb");
    if (!f || fstat(fileno(f), &st) || st.st_size <= 0) {
        fail("trace-bench/dump", "%s: no recording at %s", name, path);
        if (f)
            fclose(f);
        return;
    }
    data = malloc((size_t)st.st_size);
    ok = data && fread(data, 1, (size_t)st.st_size, f) == (size_t)st.st_size;
    fclose(f);
    if (ok) {
        printf("TSBIREC-BEGIN name=%s cpu=%s bytes=%lld\n", name, MEASURED_CPU,
               (long long)st.st_size);
        print_base64(data, (size_t)st.st_size);
        printf("TSBIREC-END name=%s\n", name);
        fflush(stdout);
    } else {
        fail("trace-bench/dump", "%s: cannot read %s", name, path);
    }
    free(data);
}

static bool read_filters(void)
{
    char ktext[48];

    if (!cmdline_value("tracesbi.tracektext", ktext, sizeof(ktext))) {
        fail("trace-bench/us", "no tracesbi.tracektext=START/SIZE on the command line");
        return false;
    }
    snprintf(filters, sizeof(filters), "filter %s,filter " TRACED_RANGE, ktext);
    return true;
}

static void bench_programs(void)
{
    bool us = read_filters();

    open_access_counters();
    /* The modes in turn, each repetition: a drift over the boot would
     * touch them alike. */
    for (int rep = 1; rep <= reps; rep++)
        for (size_t i = 0; i < sizeof(program_modes) / sizeof(program_modes[0]); i++)
            if (!program_modes[i].filtered || us)
                run_program(&program_modes[i], rep);
}

/* Every traced run's recording: the host picks the least disturbed. */
static void dump_programs(void)
{
    char name[32];

    for (int rep = 1; rep <= reps; rep++)
        for (size_t i = 0; i < sizeof(program_modes) / sizeof(program_modes[0]); i++) {
            if (!program_modes[i].traced || (program_modes[i].filtered && !filters[0]))
                continue;
            snprintf(name, sizeof(name), "prog-%s-%d", program_modes[i].name, rep);
            dump_recording(name);
        }
}

static void bench_switches(void)
{
    run_pingpong("pp", false);
    run_pingpong("pp", true);
    run_pingpong("self", false);
    run_pingpong("self", true);
}

void check_trace_bench(const char *list)
{
    bool programs = strstr(list, "program") != NULL, switching = strstr(list, "switch") != NULL;

    rounds = int_option("tracesbi.benchrounds", rounds, 1, 1000);
    switches = int_option("tracesbi.benchswitches", switches, 1, 60000);
    reps = int_option("tracesbi.benchreps", reps, 1, MAX_REPS);
    if (!load_module("trace-bench/module", ""))
        return;
    /* Init measures CPU 0: it waits there, the recorders run on CPU 1. */
    if (!pin_self(0)) {
        fail("trace-bench/pin", "sched_setaffinity CPU 0: %s", strerror(errno));
        return;
    }
    printf("INFO: linux/trace-bench: rounds=%d switches=%d reps=%d\n", rounds, switches, reps);
    if (programs)
        bench_programs();
    if (switching)
        bench_switches();
    if (programs)
        dump_programs();
}
