/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef FIRMWARE_EMU_FPREG_H
#define FIRMWARE_EMU_FPREG_H

#include <stdint.h>

/* Floating-point register file access for FP load/store emulation.
 * `width` is 4 or 8; a 4-byte write NaN-boxes. */
uint64_t fpreg_read(unsigned int reg, unsigned int width);
void fpreg_write(unsigned int reg, unsigned int width, uint64_t val);

#endif
