/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef DRIVERS_SERIAL_HTIF_H
#define DRIVERS_SERIAL_HTIF_H

#include <stdint.h>
#include "lib/fdt/fdt.h"

/* htif_attach only finds the device (for power-off), htif_exit ends the
 * machine with an exit code. */
int htif_attach(const struct fdt *fdt, int node);
void htif_exit(uint32_t code);

#endif
