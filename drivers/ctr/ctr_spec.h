/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Control Transfer Records: the constants of the ratified Smctr/Ssctr 1.0
 * (CSR numbers, xctrctl / sctrstatus / sctrdepth / entry fields) and of the
 * draft v0.1.4 layout (mctrcontrol / sctrcontrol / vsctrcontrol, DEPTH and
 * CLR in the control register), with the specs' names.  Sscsrind's
 * siselect/sireg* numbers are here too: CTR's entries live behind them.
 */
#ifndef DRIVERS_CTR_SPEC_H
#define DRIVERS_CTR_SPEC_H

/* ---- Ratified 1.0, "CSR Listing" ---------------------------------------- */
#define CSR_SCTRCTL     0x14E
#define CSR_SCTRSTATUS  0x14F
#define CSR_SCTRDEPTH   0x15F
#define CSR_VSCTRCTL    0x24E
#define CSR_MCTRCTL     0x34E

/* Sscsrind: the supervisor indirect registers. */
#define CSR_SISELECT    0x150
#define CSR_SIREG       0x151
#define CSR_SIREG2      0x152
#define CSR_SIREG3      0x153
#define CSR_SIREG4      0x155
#define CSR_SIREG5      0x156
#define CSR_SIREG6      0x157
#define CSR_VSISELECT   0x250
#define CSR_MISELECT    0x350

/* "Entry Registers": siselect 0x200..0x2FF are logical entries 0..255. */
#define CTR_ISELECT_FIRST 0x200UL
#define CTR_ISELECT_LAST  0x2FFUL

/* "Supervisor CTR Clear Instruction": SYSTEM, func12 0x104, rd = rs1 = 0. */
#define INSN_SCTRCLR    0x10400073u

/* xctrctl fields (ratified bit positions; also the model's own layout). */
#define CTRCTL_U          (1ULL << 0)
#define CTRCTL_S          (1ULL << 1)
#define CTRCTL_M          (1ULL << 2)
#define CTRCTL_RASEMU     (1ULL << 7)
#define CTRCTL_STE        (1ULL << 8)
#define CTRCTL_MTE        (1ULL << 9)
#define CTRCTL_BPFRZ      (1ULL << 11)
#define CTRCTL_LCOFIFRZ   (1ULL << 12)
#define CTRCTL_EXCINH     (1ULL << 33)
#define CTRCTL_INTRINH    (1ULL << 34)
#define CTRCTL_TRETINH    (1ULL << 35)
#define CTRCTL_NTBREN     (1ULL << 36)
#define CTRCTL_TKBRINH    (1ULL << 37)
#define CTRCTL_INDCALLINH (1ULL << 40)
#define CTRCTL_DIRCALLINH (1ULL << 41)
#define CTRCTL_INDJMPINH  (1ULL << 42)
#define CTRCTL_DIRJMPINH  (1ULL << 43)
#define CTRCTL_CORSWAPINH (1ULL << 44)
#define CTRCTL_RETINH     (1ULL << 45)
#define CTRCTL_INDLJMPINH (1ULL << 46)
#define CTRCTL_DIRLJMPINH (1ULL << 47)
/* The transfer-type filters: bit 32 + type (types 1..5, 8..15). */
#define CTRCTL_TYPE_FILTERS 0x0000FF3E00000000ULL
#define CTRCTL_CUSTOM       0xF000000000000000ULL

/* sctrdepth.DEPTH: depth = 16 << DEPTH; 11x reserved. */
#define SCTRDEPTH_DEPTH_MASK 0x7u

/* sctrstatus. */
#define SCTRSTATUS_WRPTR_MASK 0xFFu
#define SCTRSTATUS_FROZEN     (1u << 31)

/* ctrsource / ctrtarget / ctrdata. */
#define CTRSOURCE_V     1ULL
#define CTRTARGET_MISP  1ULL
#define CTRDATA_TYPE_MASK 0xFu
#define CTRDATA_CCV     (1u << 15)
#define CTRDATA_CC_SHIFT 16
#define CTRDATA_MASK    (0xFFFF0000u | CTRDATA_CCV | CTRDATA_TYPE_MASK)

/* "Control Transfer Type Definitions" (ctrdata.TYPE, filter bit 32+type). */
enum ctr_type {
	CTR_TYPE_NONE = 0,             /* not used by CTR: not a transfer */
	CTR_TYPE_EXCEPTION = 1,
	CTR_TYPE_INTERRUPT = 2,
	CTR_TYPE_TRAP_RETURN = 3,
	CTR_TYPE_NOT_TAKEN_BRANCH = 4,
	CTR_TYPE_TAKEN_BRANCH = 5,
	CTR_TYPE_INDIRECT_CALL = 8,
	CTR_TYPE_DIRECT_CALL = 9,
	CTR_TYPE_INDIRECT_JUMP = 10,
	CTR_TYPE_DIRECT_JUMP = 11,
	CTR_TYPE_CO_ROUTINE_SWAP = 12,
	CTR_TYPE_FUNCTION_RETURN = 13,
	CTR_TYPE_OTHER_INDIRECT_JUMP = 14,
	CTR_TYPE_OTHER_DIRECT_JUMP = 15,
};

/* State enable bits (mstateen0 / hstateen0). */
#define STATEEN0_CTR     (1ULL << 54)
#define STATEEN0_CSRIND  (1ULL << 60)
#define STATEEN0_SE0     (1ULL << 63)

/* ---- Draft v0.1.4, "CSR Listing" and field tables ----------------------- */
#define CSR_SCTRCONTROL  0x181
#define CSR_SCTRSTATUS_DRAFT 0x183
#define CSR_VSCTRCONTROL 0x281
#define CSR_MCTRCONTROL  0x381
#define CSR_MCTRSTATUS   0x383

#define DRAFT_CTL_M        (1ULL << 0)
#define DRAFT_CTL_S        (1ULL << 1)
#define DRAFT_CTL_U        (1ULL << 2)
#define DRAFT_CTL_CLR      (1ULL << 7)
#define DRAFT_CTL_MTE      (1ULL << 8)
#define DRAFT_CTL_STE      (1ULL << 9)
#define DRAFT_CTL_RASEMU   (1ULL << 10)
#define DRAFT_CTL_BPFRZ    (1ULL << 11)
#define DRAFT_CTL_LCOFIFRZ (1ULL << 12)
#define DRAFT_CTL_DEPTH_SHIFT 16
#define DRAFT_CTL_DEPTH_MASK  (0xFULL << DRAFT_CTL_DEPTH_SHIFT)
#define DRAFT_CTL_ETEN     (1ULL << 38)
/* The draft's type filters sit where the ratified ones do. */

#define DRAFT_STATUS_WRPTR_MASK 0xFFu
#define DRAFT_STATUS_WRAP   (1u << 14)
#define DRAFT_STATUS_FROZEN (1u << 15)

#define DRAFT_CSTATEEN0_CTR (1ULL << 55)   /* the draft's bit; 54 ratified */

#endif
