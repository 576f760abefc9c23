/* SPDX-License-Identifier: BSD-2-Clause */
/* CSR numbers and bit fields from the RISC-V privileged architecture. */
#ifndef FIRMWARE_RISCV_CSR_H
#define FIRMWARE_RISCV_CSR_H

#ifdef __ASSEMBLER__
#define _UL(x) x
#else
#define _UL(x) x##UL
#endif

#define MSTATUS_SIE      (_UL(1) << 1)
#define MSTATUS_MIE      (_UL(1) << 3)
#define MSTATUS_SPIE     (_UL(1) << 5)
#define MSTATUS_MPIE     (_UL(1) << 7)
#define MSTATUS_SPP      (_UL(1) << 8)
#define MSTATUS_VS       (_UL(3) << 9)
#define MSTATUS_VS_INITIAL (_UL(1) << 9)
#define MSTATUS_MPP      (_UL(3) << 11)
#define MSTATUS_MPP_SHIFT 11
#define MSTATUS_FS       (_UL(3) << 13)
#define MSTATUS_FS_INITIAL (_UL(1) << 13)
#define MSTATUS_MPRV     (_UL(1) << 17)
#define MSTATUS_SUM      (_UL(1) << 18)
#define MSTATUS_MXR      (_UL(1) << 19)
#define MSTATUS_TVM      (_UL(1) << 20)
#define MSTATUS_TW       (_UL(1) << 21)
#define MSTATUS_TSR      (_UL(1) << 22)
#define MSTATUS_GVA      (_UL(1) << 38)
#define MSTATUS_MPV      (_UL(1) << 39)

#define PRV_U _UL(0)
#define PRV_S _UL(1)
#define PRV_M _UL(3)

#define MIP_SSIP   (_UL(1) << 1)
#define MIP_MSIP   (_UL(1) << 3)
#define MIP_STIP   (_UL(1) << 5)
#define MIP_MTIP   (_UL(1) << 7)
#define MIP_SEIP   (_UL(1) << 9)
#define MIP_MEIP   (_UL(1) << 11)
#define MIP_LCOFIP (_UL(1) << 13)
#define MIP_S_ALL  (MIP_SSIP | MIP_STIP | MIP_SEIP | MIP_LCOFIP)

#define MCAUSE_INTR (_UL(1) << 63)
#define IRQ_S_SOFT   1
#define IRQ_M_SOFT   3
#define IRQ_S_TIMER  5
#define IRQ_M_TIMER  7
#define IRQ_S_EXT    9
#define IRQ_M_EXT    11
#define IRQ_LCOF     13

#define CAUSE_MISALIGNED_FETCH   0
#define CAUSE_FETCH_ACCESS       1
#define CAUSE_ILLEGAL_INSN       2
#define CAUSE_BREAKPOINT         3
#define CAUSE_MISALIGNED_LOAD    4
#define CAUSE_LOAD_ACCESS        5
#define CAUSE_MISALIGNED_STORE   6
#define CAUSE_STORE_ACCESS       7
#define CAUSE_USER_ECALL         8
#define CAUSE_SUPERVISOR_ECALL   9
#define CAUSE_VS_ECALL          10
#define CAUSE_MACHINE_ECALL     11
#define CAUSE_FETCH_PAGE_FAULT  12
#define CAUSE_LOAD_PAGE_FAULT   13
#define CAUSE_STORE_PAGE_FAULT  15
#define CAUSE_FETCH_GUEST_PAGE_FAULT 20
#define CAUSE_LOAD_GUEST_PAGE_FAULT  21
#define CAUSE_VIRTUAL_INSN           22
#define CAUSE_STORE_GUEST_PAGE_FAULT 23

#define MENVCFG_FIOM  (_UL(1) << 0)
#define MENVCFG_CBIE_FLUSH (_UL(1) << 4)
#define MENVCFG_CBCFE (_UL(1) << 6)
#define MENVCFG_CBZE  (_UL(1) << 7)
#define MENVCFG_PBMTE (_UL(1) << 62)
#define MENVCFG_STCE  (_UL(1) << 63)
/* menvcfg bits the SBI FWFT features control (Zicfilp, Zicfiss, Ssnpm,
 * Ssdbltrp, Svadu). */
#define MENVCFG_LPE   (_UL(1) << 2)
#define MENVCFG_SSE   (_UL(1) << 3)
#define MENVCFG_PMM_SHIFT 32
#define MENVCFG_PMM   (_UL(3) << MENVCFG_PMM_SHIFT)
#define MENVCFG_DTE   (_UL(1) << 59)
#define MENVCFG_ADUE  (_UL(1) << 61)

#define MCOUNTEREN_CY (_UL(1) << 0)
#define MCOUNTEREN_TM (_UL(1) << 1)
#define MCOUNTEREN_IR (_UL(1) << 2)

#define PMP_R     0x01
#define PMP_W     0x02
#define PMP_X     0x04
#define PMP_A_NAPOT 0x18
#define PMP_L     0x80

#define SATP_MODE_SHIFT 60
#define SATP_ASID_SHIFT 44
#define SATP_ASID_MASK  _UL(0xFFFF)
#define HGATP_VMID_SHIFT 44
#define HGATP_VMID_MASK  _UL(0x3FFF)

/* CSR numbers not known to older assemblers, and the first of the numbered
 * ones (pmpaddrN, mhpmcounterN) that are reached by number (guard.h). */
#define CSR_STIMECMP   0x14D
#define CSR_SCOUNTOVF  0xDA0
#define CSR_MENVCFG    0x30A
#define CSR_MSTATEEN0  0x30C
#define CSR_MCOUNTINHIBIT 0x320
#define CSR_TIME       0xC01
#define CSR_PMPCFG0    0x3A0
#define CSR_PMPADDR0   0x3B0
#define CSR_MHPMCOUNTER0 0xB00
#define CSR_TSELECT    0x7A0
#define CSR_TDATA1     0x7A1
#define CSR_TDATA2     0x7A2
#define CSR_TDATA3     0x7A3

/* Hypervisor extension CSRs and hstatus bits. */
#define CSR_VSSTATUS   0x200
#define CSR_VSTVEC     0x205
#define CSR_VSEPC      0x241
#define CSR_VSCAUSE    0x242
#define CSR_VSTVAL     0x243
#define CSR_HSTATUS    0x600
#define CSR_HEDELEG    0x602
#define CSR_HTVAL      0x643
#define CSR_HTINST     0x64A
#define CSR_MTINST     0x34A
#define CSR_MTVAL2     0x34B
#define CSR_HGATP      0x680
#define HSTATUS_GVA    (_UL(1) << 6)
#define HSTATUS_SPV    (_UL(1) << 7)
#define HSTATUS_SPVP   (_UL(1) << 8)
#define HSTATUS_VTSR   (_UL(1) << 22)

#ifndef __ASSEMBLER__
#if defined(__CPPCHECK__) || defined(TSBI_HOST_CSR)
/* cppcheck (make lint), which cannot parse the statement expressions
 * below, and host tests of firmware code (tests/host/test_stepper.c: the
 * test's model of the hart's CSRs, by name or number as written at the
 * call). */
enum host_csr_op { HOST_CSR_WRITE, HOST_CSR_SET, HOST_CSR_CLEAR };
unsigned long host_csr_read(const char *csr);
unsigned long host_csr_update(const char *csr, enum host_csr_op op, unsigned long val);
#define __csr_read(csr)       host_csr_read(#csr)
#define __csr_write(csr, val) host_csr_update(#csr, HOST_CSR_WRITE, (unsigned long)(val))
#define __csr_set(csr, val)   host_csr_update(#csr, HOST_CSR_SET, (unsigned long)(val))
#define __csr_clear(csr, val) host_csr_update(#csr, HOST_CSR_CLEAR, (unsigned long)(val))
#define __csr_swap(csr, val)  host_csr_update(#csr, HOST_CSR_WRITE, (unsigned long)(val))
#else
#define __csr_read(csr) ({ unsigned long __v; \
	__asm__ __volatile__("csrr %0, " #csr : "=r"(__v) :: "memory"); __v; })
#define __csr_write(csr, val) ({ unsigned long __v = (unsigned long)(val); \
	__asm__ __volatile__("csrw " #csr ", %0" :: "rK"(__v) : "memory"); })
#define __csr_set(csr, val) ({ unsigned long __v = (unsigned long)(val); \
	__asm__ __volatile__("csrs " #csr ", %0" :: "rK"(__v) : "memory"); })
#define __csr_clear(csr, val) ({ unsigned long __v = (unsigned long)(val); \
	__asm__ __volatile__("csrc " #csr ", %0" :: "rK"(__v) : "memory"); })
#define __csr_swap(csr, val) ({ unsigned long __v = (unsigned long)(val); \
	__asm__ __volatile__("csrrw %0, " #csr ", %1" : "=r"(__v) : "rK"(__v) : "memory"); __v; })
#endif

/* The wrappers expand a macro CSR name (CSR_STIMECMP) before it is stringified. */
#define csr_read(csr)       __csr_read(csr)
#define csr_write(csr, val) __csr_write(csr, val)
#define csr_set(csr, val)   __csr_set(csr, val)
#define csr_clear(csr, val) __csr_clear(csr, val)
#define csr_swap(csr, val)  __csr_swap(csr, val)

static inline void wfi(void) { __asm__ __volatile__("wfi" ::: "memory"); }
static inline void fence_i(void) { __asm__ __volatile__("fence.i" ::: "memory"); }
static inline void sfence_vma_all(void) { __asm__ __volatile__("sfence.vma" ::: "memory"); }
#endif

#endif
