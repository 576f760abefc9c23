// SPDX-License-Identifier: BSD-2-Clause
/* Corpus: quicksort (recursive) and mergesort (bottom-up) of pseudo-random
 * arrays; data-dependent conditional branches and calls/returns. */
#include "../common/rt.h"

#define N 300

static uint32_t a[N], b[N], tmp[N];

static void swap(uint32_t *x, uint32_t *y)
{
    uint32_t t = *x;

    *x = *y;
    *y = t;
}

static __attribute__((noinline)) void quicksort(uint32_t *v, int lo, int hi)
{
    while (lo < hi) {
        uint32_t pivot = v[lo + (hi - lo) / 2];
        int i = lo, j = hi;

        while (i <= j) {
            while (v[i] < pivot)
                i++;
            while (v[j] > pivot)
                j--;
            if (i <= j)
                swap(&v[i++], &v[j--]);
        }
        /* Recurse into the smaller part to bound the stack depth. */
        if (j - lo < hi - i) {
            quicksort(v, lo, j);
            lo = i;
        } else {
            quicksort(v, i, hi);
            hi = j;
        }
    }
}

static __attribute__((noinline)) void merge(uint32_t *v, uint32_t *out,
                                            int lo, int mid, int hi)
{
    int i = lo, j = mid, k = lo;

    while (i < mid && j < hi)
        out[k++] = v[i] <= v[j] ? v[i++] : v[j++];
    while (i < mid)
        out[k++] = v[i++];
    while (j < hi)
        out[k++] = v[j++];
}

static void mergesort(uint32_t *v, int n)
{
    for (int width = 1; width < n; width *= 2) {
        for (int lo = 0; lo < n; lo += 2 * width) {
            int mid = lo + width < n ? lo + width : n;
            int hi = lo + 2 * width < n ? lo + 2 * width : n;

            merge(v, tmp, lo, mid, hi);
        }
        memcpy(v, tmp, (size_t)n * sizeof(*v));
    }
}

static int is_sorted(const uint32_t *v, int n)
{
    for (int i = 1; i < n; i++)
        if (v[i - 1] > v[i])
            return 0;
    return 1;
}

int main(void)
{
    uint32_t seed = 0x1234567u;

    for (int i = 0; i < N; i++)
        a[i] = b[i] = rt_rand(&seed) % 1000u;
    quicksort(a, 0, N - 1);
    mergesort(b, N);
    if (!is_sorted(a, N))
        return 1;
    for (int i = 0; i < N; i++)
        if (a[i] != b[i])
            return 2;
    return 0;
}
