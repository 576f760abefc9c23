// SPDX-License-Identifier: BSD-2-Clause
/*
 * The workload of the perf tool checks (perf_tool.c): a user-mode loop of
 * N iterations, so that perf's samples have one obvious home.
 *
 *   tsbi-spin N          on whatever CPU the scheduler gives
 *   tsbi-spin N CPU      pinned to CPU first
 *   tsbi-spin N all      one pinned copy per online CPU, all at once
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static void pin(int cpu)
{
    cpu_set_t set;

    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    if (sched_setaffinity(0, sizeof(set), &set)) {
        perror("tsbi-spin: sched_setaffinity");
        exit(2);
    }
}

static void __attribute__((noinline)) spin(unsigned long n)
{
    volatile unsigned long sum = 0;

    for (unsigned long i = 0; i < n; i++)
        sum += i;
}

static int spin_on_every_cpu(unsigned long n)
{
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    int status, rc = 0;

    for (long cpu = 0; cpu < cpus; cpu++) {
        pid_t pid = fork();

        if (pid < 0) {
            perror("tsbi-spin: fork");
            return 2;
        }
        if (pid == 0) {
            pin((int)cpu);
            spin(n);
            _exit(0);
        }
    }
    while (wait(&status) > 0)
        if (!WIFEXITED(status) || WEXITSTATUS(status))
            rc = 1;
    return rc;
}

int main(int argc, char **argv)
{
    unsigned long n;

    if (argc < 2 || argc > 3) {
        fprintf(stderr, "usage: tsbi-spin ITERATIONS [CPU|all]\n");
        return 2;
    }
    n = strtoul(argv[1], NULL, 0);
    if (argc == 3 && !strcmp(argv[2], "all"))
        return spin_on_every_cpu(n);
    if (argc == 3)
        pin(atoi(argv[2]));
    spin(n);
    return 0;
}
