/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef DRIVERS_SERIAL_NS16550_H
#define DRIVERS_SERIAL_NS16550_H

#include <stdint.h>

/* The board's UART before the DTB is read (errors of an unreadable DTB). */
void ns16550_init_early(uintptr_t base, unsigned int reg_shift);

#endif
