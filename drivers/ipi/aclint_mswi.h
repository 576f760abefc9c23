/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef DRIVERS_IPI_ACLINT_MSWI_H
#define DRIVERS_IPI_ACLINT_MSWI_H

#include <stdint.h>

/* A CLINT the DTB does not describe: context n is hartid n. */
void clint_mswi_at(uint64_t base);

#endif
