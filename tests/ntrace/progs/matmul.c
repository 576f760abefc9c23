// SPDX-License-Identifier: BSD-2-Clause
/* Corpus: integer matrix multiply (naive and transposed) with a checksum;
 * long regular loop nests. */
#include "../common/rt.h"

#define DIM 14

static int32_t ma[DIM][DIM], mb[DIM][DIM], mc[DIM][DIM], mt[DIM][DIM];

static __attribute__((noinline)) void matmul(int32_t c[DIM][DIM],
                                             int32_t a[DIM][DIM],
                                             int32_t b[DIM][DIM])
{
    for (int i = 0; i < DIM; i++)
        for (int j = 0; j < DIM; j++) {
            int32_t s = 0;

            for (int k = 0; k < DIM; k++)
                s += a[i][k] * b[k][j];
            c[i][j] = s;
        }
}

static __attribute__((noinline)) int32_t dot_transposed(int i, int j)
{
    int32_t s = 0;

    for (int k = 0; k < DIM; k++)
        s += ma[i][k] * mt[j][k];
    return s;
}

int main(void)
{
    uint32_t seed = 7;

    for (int i = 0; i < DIM; i++)
        for (int j = 0; j < DIM; j++) {
            ma[i][j] = (int32_t)(rt_rand(&seed) % 19u) - 9;
            mb[i][j] = (int32_t)(rt_rand(&seed) % 19u) - 9;
        }
    for (int i = 0; i < DIM; i++)
        for (int j = 0; j < DIM; j++)
            mt[j][i] = mb[i][j];
    matmul(mc, ma, mb);
    for (int i = 0; i < DIM; i++)
        for (int j = 0; j < DIM; j++)
            if (mc[i][j] != dot_transposed(i, j))
                return 1;
    return 0;
}
