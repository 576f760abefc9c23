// SPDX-License-Identifier: BSD-2-Clause
/* DBTR extension (ext-debug-triggers.adoc): unpacks the arguments for
 * dbtr.c. */
#include "firmware/sbi/ecall.h"
#include "firmware/service/dbtr.h"

static struct sbiret dbtr_handle(unsigned long a0, unsigned long a1, unsigned long a2,
				 unsigned long a3, unsigned long a4, unsigned long a5,
				 unsigned long fid, struct hart *self)
{
	(void)a3, (void)a4, (void)a5;
	switch (fid) {
	case SBI_DBTR_NUM_TRIGGERS:
		return SBI_RET(SBI_SUCCESS, dbtr_num_triggers(self, a0));
	case SBI_DBTR_SET_SHMEM:
		return SBI_ERR(dbtr_set_shmem(self, a0, a1, a2));
	case SBI_DBTR_READ_TRIGGERS:
		return SBI_ERR(dbtr_read_triggers(self, a0, a1));
	case SBI_DBTR_INSTALL_TRIGGERS:
		return dbtr_install_triggers(self, a0);
	case SBI_DBTR_UPDATE_TRIGGERS:
		return dbtr_update_triggers(self, a0);
	case SBI_DBTR_UNINSTALL_TRIGGERS:
		return SBI_ERR(dbtr_uninstall_triggers(self, a0, a1));
	case SBI_DBTR_ENABLE_TRIGGERS:
		return SBI_ERR(dbtr_enable_triggers(self, a0, a1, true));
	case SBI_DBTR_DISABLE_TRIGGERS:
		return SBI_ERR(dbtr_enable_triggers(self, a0, a1, false));
	default:
		return SBI_ERR(SBI_ERR_NOT_SUPPORTED);
	}
}

static const struct sbi_extension sbi_dbtr = {
	.name = "DBTR",
	.eid_first = SBI_EXT_DBTR,
	.eid_last = SBI_EXT_DBTR,
	.handle = dbtr_handle,
};
SBI_EXTENSION(sbi_dbtr);
