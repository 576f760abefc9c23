// SPDX-License-Identifier: BSD-2-Clause
/*
 * Accesses made on behalf of the interrupted S/U-mode context: mstatus.MPRV
 * with MPP (and MPV) of that context, so its translation and permissions
 * apply, under a trap guard so a fault comes back as data.  Each sequence
 * sets mstatus, does one access and restores mstatus with 4-byte
 * instructions only (guard.h).
 */
#include <stdbool.h>
#include "firmware/core/umem.h"
#include "firmware/core/guard.h"
#include "firmware/core/riscv_csr.h"
#include "firmware/core/platform.h"

static unsigned long access_mstatus(unsigned long ctx_mstatus, bool exec)
{
	unsigned long m = csr_read(mstatus);

	m &= ~(MSTATUS_MPP | MSTATUS_MPV | MSTATUS_MXR | MSTATUS_SUM);
	m |= ctx_mstatus & (MSTATUS_MPP | MSTATUS_MPV | MSTATUS_SUM | MSTATUS_MXR);
	if (exec)
		m |= MSTATUS_MXR;   /* fetch permission: execute-only pages readable */
	return m | MSTATUS_MPRV;
}

#define GUARDED_ACCESS(insn, reg_constraint, value, addr, newm)                   \
	({                                                                        \
		register unsigned long __flag __asm__("t1");                      \
		register unsigned long __tval __asm__("t2");                      \
		unsigned long __old_tvec, __old_m;                                \
		__asm__ __volatile__(".option push\n.option norvc\n"              \
			"li t1, 0\n"                                              \
			"csrrw %[otv], mtvec, %[g]\n"                             \
			"csrrw %[om], mstatus, %[nm]\n"                           \
			insn "\n"                                                 \
			"csrw mstatus, %[om]\n"                                   \
			"csrw mtvec, %[otv]\n"                                    \
			".option pop\n"                                           \
			: [otv] "=&r"(__old_tvec), [om] "=&r"(__old_m),          \
			  "=&r"(__flag), "=&r"(__tval), reg_constraint(value)     \
			: [g] "r"(guard_trap_handler), [nm] "r"(newm),            \
			  [a] "r"(addr)                                           \
			: "memory");                                              \
		fault_info(__flag, __tval, fault);                                \
	})

static int fault_info(unsigned long flag, unsigned long tval, struct trap_info *fault)
{
	if (!flag)
		return 0;
	fault->cause = flag - 1;
	fault->tval = tval;
	return -1;
}

#define OUT(v) [v] "+&r"(v)

int umem_load_u8(unsigned long mstatus, unsigned long addr, uint8_t *val,
		 struct trap_info *fault)
{
	unsigned long v = 0;
	int ret = GUARDED_ACCESS("lbu %[v], 0(%[a])", OUT, v, addr,
				 access_mstatus(mstatus, false));
	*val = (uint8_t)v;
	return ret;
}

int umem_store_u8(unsigned long mstatus, unsigned long addr, uint8_t val,
		  struct trap_info *fault)
{
	unsigned long v = val;

	return GUARDED_ACCESS("sb %[v], 0(%[a])", OUT, v, addr, access_mstatus(mstatus, false));
}

static int fetch_u16(unsigned long mstatus, unsigned long addr, uint16_t *out,
		     struct trap_info *fault)
{
	unsigned long v = 0;
	int ret = GUARDED_ACCESS("lhu %[v], 0(%[a])", OUT, v, addr,
				 access_mstatus(mstatus, true));

	*out = (uint16_t)v;
	/* A fetch fault is reported as one: load causes become fetch causes. */
	if (ret && fault->cause == CAUSE_LOAD_PAGE_FAULT)
		fault->cause = CAUSE_FETCH_PAGE_FAULT;
	else if (ret && fault->cause == CAUSE_LOAD_ACCESS)
		fault->cause = CAUSE_FETCH_ACCESS;
	else if (ret && fault->cause == CAUSE_LOAD_GUEST_PAGE_FAULT)
		fault->cause = CAUSE_FETCH_GUEST_PAGE_FAULT;
	return ret;
}

int umem_fetch_insn(unsigned long mstatus, unsigned long addr, uint32_t *insn,
		    struct trap_info *fault)
{
	uint16_t lo, hi;

	/* Two halves: a 4-byte instruction may straddle a page boundary. */
	if (fetch_u16(mstatus, addr, &lo, fault))
		return -1;
	if ((lo & 3) != 3) {
		*insn = lo;
		return 0;
	}
	if (fetch_u16(mstatus, addr + 2, &hi, fault))
		return -1;
	*insn = (uint32_t)lo | ((uint32_t)hi << 16);
	return 0;
}

int umem_fetch_u64(unsigned long mstatus, unsigned long addr, uint64_t *val,
		   struct trap_info *fault)
{
	unsigned long v = 0;
	int ret = GUARDED_ACCESS("ld %[v], 0(%[a])", OUT, v, addr, access_mstatus(mstatus, true));

	*val = v;
	return ret;
}

/*
 * The leaf that translates the context's access to `va`: its satp's page
 * tables walked (privileged spec, "Virtual Address Translation Process"),
 * permissions not checked.  Page-table entries are read only where S-mode
 * may have memory (platform_smode_range_ok), so a table pointing
 * elsewhere (a device, the firmware) ends the walk, never reads there.
 * VS/VU-mode (two-stage translation) is not handled.  Returns the leaf's
 * level (0: a 4 KiB page) with *pa, UMEM_BARE (va untranslated, *pa = va)
 * or UMEM_NO_LEAF.
 */
int umem_leaf(unsigned long mstatus, unsigned long va, uint64_t *pa)
{
	unsigned long satp = csr_read(satp), mode = satp >> SATP_MODE_SHIFT;
	uint64_t table = (satp & ((1UL << 44) - 1)) << 12;
	int level;

	if (mstatus & MSTATUS_MPV)
		return UMEM_NO_LEAF;
	if (((mstatus & MSTATUS_MPP) >> 11) == 3 || mode == 0) {
		*pa = va;
		return UMEM_BARE;
	}
	if (mode < 8 || mode > 10)
		return UMEM_NO_LEAF;
	for (level = (int)mode - 6; level >= 0; level--) {      /* Sv39: 2..0 */
		unsigned int shift = 12 + 9 * (unsigned int)level;
		uint64_t at = table + ((va >> shift) & 0x1FF) * 8, pte, size;

		if (!platform_smode_range_ok(at, 8))
			return UMEM_NO_LEAF;
		pte = *(volatile uint64_t *)(uintptr_t)at;
		if (!(pte & 1) || ((pte & 6) == 4))                 /* !V, or W without R */
			return UMEM_NO_LEAF;
		table = ((pte >> 10) & ((1UL << 44) - 1)) << 12;
		if (pte & 0xA) {                                    /* R or X: a leaf */
			size = 1UL << shift;
			*pa = (table & ~(size - 1)) | (va & (size - 1));
			return level;
		}
	}
	return UMEM_NO_LEAF;
}

/* For an access that already translated and then faulted on PMP. */
bool umem_phys_addr(unsigned long mstatus, unsigned long va, uint64_t *pa)
{
	return umem_leaf(mstatus, va, pa) != UMEM_NO_LEAF;
}
