/* SPDX-License-Identifier: BSD-2-Clause */
/* What init.c shares with the other parts of the boot test's init. */
#ifndef TRACESBI_LINUX_INIT_H
#define TRACESBI_LINUX_INIT_H

#include <stdbool.h>
#include <stddef.h>

#define LINE_MAX_LEN 512

/* One result line, "PASS: linux/<check>" or "FAIL: linux/<check>: why". */
void pass(const char *check);
void fail(const char *check, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

long read_file(const char *path, char *buf, size_t size);
/* The calling thread on that CPU only (sched_setaffinity); false if refused. */
bool pin_self(int cpu);
bool cmdline_has(const char *key_value);
bool cmdline_value(const char *key, char *buf, size_t size);

/* Linux's perf tool on the SBI PMU (perf_tool.c): only with tracesbi.perftool=. */
void check_perf_tool(int cpus);
void check_perf_tool_tlb(void);

/* The perf trace PMU (trace_perf.c): only with tracesbi.checks=trace-perf;
 * list is tracesbi.traceperf=. */
void check_trace_perf(const char *list);
/* The module where the DT has no trace components (tracesbi.tracemodule=nodev,
 * under a firmware that adds none): refused with ENODEV, no PMU. */
void check_trace_module_nodev(void);
/* Shared with trace_bench.c: the module's load (a PASS or FAIL line as
 * `check`), a recording in base64 on the console. */
bool load_module(const char *check, const char *params);
void print_base64(const unsigned char *p, size_t len);

/* The program-tracing benchmark (trace_bench.c): only with
 * tracesbi.checks=trace-bench; list is tracesbi.tracebench=. */
void check_trace_bench(const char *list);

#endif
