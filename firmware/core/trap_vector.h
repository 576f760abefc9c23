/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef FIRMWARE_CORE_TRAP_VECTOR_H
#define FIRMWARE_CORE_TRAP_VECTOR_H

#include "firmware/core/hart.h"

/* The trap entries, one per combination of a hart's trap flags. */
struct trap_vectors {
	unsigned long plain;           /* neither counted nor traced */
	unsigned long counted;         /* PMU events 256..258 counted */
	unsigned long traced;          /* the trace engine steps the hart */
	unsigned long traced_counted;
	unsigned long traced_fast;     /* traced, fast visit (trap_fast) */
	unsigned long traced_fast_full;  /* its full path (hart.trap_fast_full) */
};

/* At cold boot, before any hart sets its vector. */
void trap_vectors_register(const struct trap_vectors *v);
/* mtvec: the trap entry the hart's flags ask for (plain, counting PMU
 * events 256..258, traced, or both). */
void trap_set_vector(struct hart *h);

#endif
