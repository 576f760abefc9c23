// SPDX-License-Identifier: BSD-2-Clause
/*
 * DBCN extension.  The buffer S-mode names is checked before anything
 * touches it (binary encoding, "Shared memory physical address range
 * parameter"): the upper address half must be zero on RV64, and the whole
 * range must lie in RAM and outside firmware memory, which is all PMP keeps
 * from S-mode here.  A failing check is SBI_ERR_INVALID_PARAM, as the DBCN
 * error tables say.  Accesses are physical (MMU off in M-mode, no MPRV), so
 * a checked range cannot fault, and no lock is held over a faulting access.
 */
#include "firmware/sbi/ecall.h"
#include "firmware/core/console.h"
#include "firmware/core/platform.h"
#include "firmware/core/hart.h"

/* Non-blocking calls "may do partial writes": bound the time one call can
 * keep the hart in M-mode. */
#define DBCN_MAX_CHUNK 4096

static bool buffer_ok(unsigned long num, unsigned long lo, unsigned long hi)
{
	return hi == 0 && platform_smode_range_ok(lo, num);
}

static struct sbiret dbcn_handle(unsigned long a0, unsigned long a1, unsigned long a2,
				 unsigned long a3, unsigned long a4, unsigned long a5,
				 unsigned long fid, struct hart *self)
{
	unsigned long n = a0 > DBCN_MAX_CHUNK ? DBCN_MAX_CHUNK : a0;

	(void)a3, (void)a4, (void)a5;
	switch (fid) {
	case SBI_DBCN_CONSOLE_WRITE:
		if (!buffer_ok(a0, a1, a2))
			return SBI_ERR(SBI_ERR_INVALID_PARAM);
		n = console_write((const char *)a1, n);
		self->smode_console_bytes += n;
		return SBI_RET(SBI_SUCCESS, n);
	case SBI_DBCN_CONSOLE_READ:
		if (!buffer_ok(a0, a1, a2))
			return SBI_ERR(SBI_ERR_INVALID_PARAM);
		return SBI_RET(SBI_SUCCESS, console_read((char *)a1, n));
	case SBI_DBCN_CONSOLE_WRITE_BYTE:
		console_putc((char)(a0 & 0xff));
		self->smode_console_bytes++;
		return SBI_RET(SBI_SUCCESS, 0);
	default:
		return SBI_ERR(SBI_ERR_NOT_SUPPORTED);
	}
}

static bool dbcn_available(void)
{
	return console_present();
}

static const struct sbi_extension sbi_dbcn = {
	.name = "DBCN",
	.eid_first = SBI_EXT_DBCN,
	.eid_last = SBI_EXT_DBCN,
	.available = dbcn_available,
	.handle = dbcn_handle,
};
SBI_EXTENSION(sbi_dbcn);
