/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Sdtrig triggers (debug spec, "Trigger Module Registers", "Match Control
 * Type 2" and "Type 6"): the tdata1 fields the firmware uses, for S-mode's
 * triggers (SBI DBTR, dbtr.c) and its own execute triggers (block
 * stepping and TV mode, trace/).
 */
#ifndef FIRMWARE_CORE_TRIGGER_H
#define FIRMWARE_CORE_TRIGGER_H

#include <stdbool.h>
#include "firmware/core/hart.h"

#define TDATA1_TYPE_SHIFT      60
#define TDATA1_DMODE           (1UL << 59)
#define TRIGGER_TYPE_MCONTROL  2
#define TRIGGER_TYPE_ICOUNT    3
#define TRIGGER_TYPE_MCONTROL6 6

/* mcontrol / mcontrol6 (the same places but for the V bits and hit) */
#define MCONTROL_EXECUTE       (1UL << 2)
#define MCONTROL_U             (1UL << 3)
#define MCONTROL_S             (1UL << 4)
#define MCONTROL_M             (1UL << 6)
#define MCONTROL_CHAIN         (1UL << 11)
#define MCONTROL_ACTION_SHIFT  12
#define MCONTROL_ACTION_MASK   0xfUL
#define MCONTROL_HIT           (1UL << 20)
#define MCONTROL6_VU           (1UL << 23)
#define MCONTROL6_VS           (1UL << 24)
#define MCONTROL6_HIT          ((1UL << 22) | (1UL << 25))

/* The match control type of the firmware's execute triggers: mcontrol6
 * where the hart has it (only it matches in VS/VU), else mcontrol. */
static inline unsigned int trigger_exec_type(const struct hart_features *f)
{
	return f->trigger_types & (1u << TRIGGER_TYPE_MCONTROL6) ? TRIGGER_TYPE_MCONTROL6
								  : TRIGGER_TYPE_MCONTROL;
}

/* Execute, in S and U (and VS/VU with mcontrol6, when `virt`), action 0
 * (breakpoint exception), match 0 (equal), timing before: fires before
 * the instruction at tdata2 executes.  (mcontrol has no VS/VU bits and
 * never fires with V=1.) */
static inline unsigned long trigger_exec_on(unsigned int type, bool virt)
{
	unsigned long t = (unsigned long)type << TDATA1_TYPE_SHIFT | MCONTROL_EXECUTE |
			  MCONTROL_S | MCONTROL_U;

	if (type == TRIGGER_TYPE_MCONTROL6 && virt)
		t |= MCONTROL6_VS | MCONTROL6_VU;
	return t;
}

/* Off: QEMU 7.2 ignores a write of 0 to tdata1 (the trigger stays armed),
 * so a match control with no mode bits, which never fires. */
static inline unsigned long trigger_exec_off(unsigned int type)
{
	return (unsigned long)type << TDATA1_TYPE_SHIFT;
}

#endif
