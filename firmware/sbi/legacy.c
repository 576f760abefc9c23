// SPDX-License-Identifier: BSD-2-Clause
/*
 * Legacy console putchar / getchar (EIDs 0x01, 0x02), kept for
 * `earlycon=sbi`.  Legacy calling convention: a6 is ignored, only a0 is
 * returned and every other register — a1 included — must be preserved, so
 * the handlers hand a1 back unchanged as the "value" half.  The other legacy
 * EIDs are not provided (SBI_ERR_NOT_SUPPORTED).
 */
#include "sbi_ecall.h"
#include "console.h"
#include "hart.h"

static struct sbiret legacy_putchar(unsigned long a0, unsigned long a1, unsigned long a2,
				    unsigned long a3, unsigned long a4, unsigned long a5,
				    unsigned long fid, struct hart *self)
{
	(void)a2, (void)a3, (void)a4, (void)a5, (void)fid;
	console_putc((char)a0);
	self->smode_console_bytes++;
	return SBI_RET(0, a1);
}

static struct sbiret legacy_getchar(unsigned long a0, unsigned long a1, unsigned long a2,
				    unsigned long a3, unsigned long a4, unsigned long a5,
				    unsigned long fid, struct hart *self)
{
	(void)self;
	(void)a0, (void)a2, (void)a3, (void)a4, (void)a5, (void)fid;
	return SBI_RET(console_getc(), a1);
}

static const struct sbi_extension sbi_legacy_putchar = {
	.name = "LEGACY_PUTCHAR",
	.eid_first = SBI_EXT_LEGACY_CONSOLE_PUTCHAR,
	.eid_last = SBI_EXT_LEGACY_CONSOLE_PUTCHAR,
	.handle = legacy_putchar,
};
SBI_EXTENSION(sbi_legacy_putchar);

static const struct sbi_extension sbi_legacy_getchar = {
	.name = "LEGACY_GETCHAR",
	.eid_first = SBI_EXT_LEGACY_CONSOLE_GETCHAR,
	.eid_last = SBI_EXT_LEGACY_CONSOLE_GETCHAR,
	.handle = legacy_getchar,
};
SBI_EXTENSION(sbi_legacy_getchar);
