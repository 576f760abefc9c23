// SPDX-License-Identifier: BSD-2-Clause
/*
 * Where an ecall goes: trap.S (fast path) hashes the EID in a7 into
 * eid_table, built at boot from the registered extension descriptors, and
 * calls the extension's handler with the caller's a0..a5 and FID (a6); the
 * handler decodes the FID.  When the home slot does not hold the EID (a
 * collision or an unknown EID), trap.S calls sbi_ecall_handle, which probes
 * on or answers SBI_ERR_NOT_SUPPORTED.
 */
#include <stddef.h>
#include "firmware/sbi/ecall.h"
#include "firmware/core/hart.h"
#include "firmware/core/console.h"
#include "firmware/service/panic.h"

/* Read by trap.S; its layout (16 bytes a slot) is fixed there too. */
struct eid_slot eid_table[EID_SLOTS];
_Static_assert(sizeof(struct eid_slot) == 16, "trap.S indexes eid_table by 16");

extern const struct sbi_extension *const __sbi_ext_start[], *const __sbi_ext_end[];

/* The descriptors the linker gathered between the two symbols (counted
 * from their addresses: C does not compare pointers into different
 * objects). */
static size_t ext_count(void)
{
	return ((uintptr_t)__sbi_ext_end - (uintptr_t)__sbi_ext_start) /
	       sizeof(const struct sbi_extension *);
}

static inline unsigned int eid_hash(unsigned long eid)
{
	return (unsigned int)EID_HASH(eid);
}

static void eid_insert(unsigned long eid, sbi_ext_handler handle)
{
	unsigned int i = eid_hash(eid), n;

	for (n = 0; n < EID_SLOTS; n++, i = (i + 1) & (EID_SLOTS - 1)) {
		if (!eid_table[i].handle) {
			eid_table[i] = (struct eid_slot){ eid, handle };
			return;
		}
	}
	panic("EID table full: raise EID_SLOTS\n");
}

static bool ext_available(const struct sbi_extension *ext)
{
	return !ext->available || ext->available();
}

void sbi_ecall_init(void)
{
	for (size_t i = 0; i < ext_count(); i++) {
		const struct sbi_extension *ext = __sbi_ext_start[i];
		unsigned long eid;

		if (!ext_available(ext))
			continue;
		for (eid = ext->eid_first; eid <= ext->eid_last; eid++)
			eid_insert(eid, ext->handle);
	}
}

static sbi_ext_handler eid_lookup(unsigned long eid)
{
	unsigned int i = eid_hash(eid), n;

	for (n = 0; n < EID_SLOTS && eid_table[i].handle; n++, i = (i + 1) & (EID_SLOTS - 1))
		if (eid_table[i].eid == eid)
			return eid_table[i].handle;
	return NULL;
}

bool sbi_extension_lookup(unsigned long eid)
{
	return eid_lookup(eid) != NULL;
}

void sbi_ecall_print_extensions(void)
{
	for (size_t i = 0; i < ext_count(); i++)
		if (ext_available(__sbi_ext_start[i]) && __sbi_ext_start[i]->name)
			printf(" %s", __sbi_ext_start[i]->name);
}

struct sbiret sbi_ecall_handle(unsigned long a0, unsigned long a1, unsigned long a2,
			       unsigned long a3, unsigned long a4, unsigned long a5,
			       unsigned long fid, unsigned long eid)
{
	sbi_ext_handler handle = eid_lookup(eid);

	/* Legacy EIDs (0x00-0x0F) must preserve a1, even when unimplemented. */
	if (!handle)
		return SBI_RET(SBI_ERR_NOT_SUPPORTED, eid <= 0x0F ? (long)a1 : 0);
	return handle(a0, a1, a2, a3, a4, a5, fid, hart_self());
}
