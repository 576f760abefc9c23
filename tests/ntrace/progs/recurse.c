// SPDX-License-Identifier: BSD-2-Clause
/* Corpus: deep and wide recursion (Fibonacci, Ackermann, towers of Hanoi):
 * many nested calls and returns, exercising the return-address stack. */
#include "../common/rt.h"

static __attribute__((noinline)) unsigned fib(unsigned n)
{
    return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

static __attribute__((noinline)) unsigned ack(unsigned m, unsigned n)
{
    if (m == 0)
        return n + 1;
    if (n == 0)
        return ack(m - 1, 1);
    return ack(m - 1, ack(m, n - 1));
}

static unsigned moves;
static unsigned pegs[3];

static __attribute__((noinline)) void hanoi(unsigned n, int from, int to,
                                            int via)
{
    if (n == 0)
        return;
    hanoi(n - 1, from, via, to);
    pegs[from]--;
    pegs[to]++;
    moves++;
    hanoi(n - 1, via, to, from);
}

int main(void)
{
    if (fib(16) != 987)
        return 1;
    if (ack(2, 3) != 9)
        return 2;
    pegs[0] = 10;
    hanoi(10, 0, 2, 1);
    if (moves != 1023 || pegs[2] != 10 || pegs[0] != 0)
        return 3;
    return 0;
}
