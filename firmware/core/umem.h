/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Access to memory as the interrupted S/U-mode context sees it (virtual
 * addresses translated with that context's satp, permissions of its
 * privilege; mstatus.MPRV), under a trap guard: a fault is returned in
 * `fault` (cause and tval as S-mode must see them), never taken by M-mode.
 *
 * `mstatus` is the interrupted context's mstatus (its MPP/MPV select the
 * privilege the access is made with).
 * Return 0 on success, -1 when the access faulted.
 */
#ifndef FIRMWARE_UMEM_H
#define FIRMWARE_UMEM_H

#include <stdbool.h>
#include <stdint.h>
#include "firmware/core/trap_regs.h"

int umem_load_u8(unsigned long mstatus, unsigned long addr, uint8_t *val,
		 struct trap_info *fault);
int umem_store_u8(unsigned long mstatus, unsigned long addr, uint8_t val,
		  struct trap_info *fault);
/* Fetch the (possibly 16-bit) instruction at addr, as an instruction fetch
 * (execute permission, MXR semantics); 16-bit instructions are returned
 * zero-extended. */
int umem_fetch_insn(unsigned long mstatus, unsigned long addr, uint32_t *insn,
		    struct trap_info *fault);
/* The 8 bytes at addr (8-byte aligned) with the permissions of a fetch: a
 * decoder's read-ahead.  A fault says only that some of the 8 bytes cannot
 * be fetched: umem_fetch_insn() tells which. */
int umem_fetch_u64(unsigned long mstatus, unsigned long addr, uint64_t *val,
		   struct trap_info *fault);

/* The physical address of the context's access to va (its page tables
 * walked; va itself without translation): false when it has none. */
bool umem_phys_addr(unsigned long mstatus, unsigned long va, uint64_t *pa);
/* ... and the level of the leaf PTE that maps it (0: a 4 KiB page), or: */
#define UMEM_BARE    (-1)   /* va is not translated */
#define UMEM_NO_LEAF (-2)   /* no leaf (or V=1: not walked) */
int umem_leaf(unsigned long mstatus, unsigned long va, uint64_t *pa);


#endif
