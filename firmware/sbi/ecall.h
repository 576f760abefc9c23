/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * SBI extensions are data: each firmware/sbi/ecall_<ext>.c defines one
 * struct sbi_extension and registers it with SBI_EXTENSION(); the linker
 * collects them (section .sbi_ext) and sbi_ecall_init() builds the hashed
 * EID table that sbi_ecall_handle() dispatches through.
 */
#ifndef FIRMWARE_SBI_ECALL_H
#define FIRMWARE_SBI_ECALL_H

#include "firmware/core/sbi_spec.h"
#include "firmware/core/sbiret.h"

/*
 * The EID table trap.S probes: EID_SLOTS entries of { eid, handler }, an EID
 * at home in slot EID_HASH(eid) unless that was taken.  The shift is chosen
 * so that every standard EID (and those of the SBI 3.0 extensions still to
 * come) has a home of its own: one probe, three instructions of hashing.
 */
#define EID_SLOTS      64
#define EID_HASH_SHIFT 5
#define EID_HASH(eid)  ((((eid) >> EID_HASH_SHIFT) ^ (eid)) & (EID_SLOTS - 1))

#ifndef __ASSEMBLER__
#include <stdbool.h>
#include <stdint.h>

struct hart;

typedef struct sbiret (*sbi_ext_handler)(unsigned long a0, unsigned long a1,
					 unsigned long a2, unsigned long a3,
					 unsigned long a4, unsigned long a5,
					 unsigned long fid, struct hart *self);

struct sbi_extension {
	const char *name;                   /* in the banner; NULL: named by another
					     * descriptor (the legacy EIDs: LEGACY) */
	unsigned long eid_first, eid_last;  /* a small range (legacy) or one EID */
	bool (*available)(void);            /* NULL: always */
	sbi_ext_handler handle;
};

#define SBI_EXTENSION(ext) \
	static const struct sbi_extension *const sbi_ext_ptr_##ext \
	__attribute__((used, section(".sbi_ext"))) = &ext


struct eid_slot {
	unsigned long eid;
	sbi_ext_handler handle;
};
extern struct eid_slot eid_table[EID_SLOTS];

void sbi_ecall_init(void);
bool sbi_extension_lookup(unsigned long eid);

static inline bool sbi_extension_available(unsigned long eid)
{
	const struct eid_slot *home = &eid_table[EID_HASH(eid)];

	if (home->eid == eid && home->handle)
		return true;
	return sbi_extension_lookup(eid);
}
/* Names of the available extensions, for the banner. */
void sbi_ecall_print_extensions(void);

/* What the extension files share with the legacy calls (sbi/ecall_legacy.c),
 * which do the same with other argument conventions. */
struct fence_request;
/* sbi/ecall_ipi.c: raise SSIP on target (self: the calling hart); a hart_mask_fn. */
long sbi_ipi_send_ssip(struct hart *target, void *self);
/* sbi/ecall_rfence.c: the ASID/VMID and address-range checks of a fence request. */
long sbi_rfence_check(const struct fence_request *req, const struct hart *self);

#endif /* __ASSEMBLER__ */

#define SBI_IMPL_ID       0x7ace      /* "tracesbi"; not in the spec's table */
/* tracesbi's version: the banner, the README and base.get_impl_version
 * (major << 16 | minor, as the README documents) all come from here. */
#define TRACESBI_VERSION_MAJOR 0
#define TRACESBI_VERSION_MINOR 1
#define SBI_IMPL_VERSION  (TRACESBI_VERSION_MAJOR << 16 | TRACESBI_VERSION_MINOR)

/* tracesbi's firmware-specific extension (SBI "Firmware Specific Extension
 * Space", EIDs 0x0A000000-0x0AFFFFFF, meaningful only with SBI_IMPL_ID):
 * read-only introspection for tests and debugging, docs/PMU.md.
 * ext-firmware.adoc: "The lower 24 bits of the firmware EID must match the
 * lower 24 bits of the SBI implementation ID". */
#define SBI_EXT_TRACESBI          (0x0A000000 | SBI_IMPL_ID)
#define SBI_TRACESBI_PMU_EVENT_CSR 0   /* a0 = counter_idx -> mhpmevent */
/* Fault-injection builds only (TRACESBI_FAULT_INJECT, tests): a0 = kind. */
#define SBI_TRACESBI_FAULT_INJECT  0x100
#define FAULT_INJECT_LOAD      0   /* load access fault, two calls deep */
#define FAULT_INJECT_ILLEGAL   1   /* illegal instruction */
#define FAULT_INJECT_CANARY    2   /* stack canary overwritten, call returns */
#define FAULT_INJECT_PANIC     3   /* panic() */

#endif
