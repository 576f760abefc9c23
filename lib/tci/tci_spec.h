/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Constants of the RISC-V Trace Control Interface 1.0 (ratified,
 * trace-control-interface-1.0.adoc), with the spec's names: component
 * types, register offsets and register fields of the trace encoder (trTe*,
 * trTs*), the RAM sink (trRam*) and the funnel (trFunnel*).
 *
 * Freestanding: included by the firmware, the TCI driver, the S-mode test
 * kernel and host tools.
 */
#ifndef TCI_SPEC_H
#define TCI_SPEC_H

/* "Trace Components": each is a 4 KiB block of 32-bit registers. */
#define TCI_COMPONENT_SIZE       0x1000u
#define TCI_IMPL_OFFSET          0x004u   /* tr??Impl of every component */

/* Component types (tr??Impl.tr??CompType, bits 11:8). */
#define TRCOMP_ENCODER    0x1u
#define TRCOMP_FUNNEL     0x8u
#define TRCOMP_RAMSINK    0x9u
#define TRCOMP_PIBSINK    0xAu
#define TRCOMP_ATBBRIDGE  0xEu

/* tr??Impl common fields ("Versioning of Components"). */
#define TCI_IMPL_VER_MAJOR(v)   ((v) & 0xFu)
#define TCI_IMPL_VER_MINOR(v)   (((v) >> 4) & 0xFu)
#define TCI_IMPL_COMP_TYPE(v)   (((v) >> 8) & 0xFu)

/* tr??Control common bits (Active, Enable, Empty are at the same place). */
#define TCI_CTRL_ACTIVE   (1u << 0)
#define TCI_CTRL_ENABLE   (1u << 1)
#define TCI_CTRL_EMPTY    (1u << 3)

/* Register map ranges ("Trace Component Register Map"). */
#define TCI_VENDOR_FIRST  0xE00u   /* implementation-specific 0xE00-0xFFF */

/* ---- Trace encoder ----------------------------------------------------- */
#define TRTE_CONTROL          0x000u
#define TRTE_IMPL             0x004u
#define TRTE_INST_FEATURES    0x008u
#define TRTE_INST_FILTERS     0x00Cu
#define TRTE_DATA_CONTROL     0x010u
#define TRTE_DATA_FILTERS     0x01Cu
#define TRTS_CONTROL          0x040u
#define TRTS_COUNTER_LOW      0x048u
#define TRTS_COUNTER_HIGH     0x04Cu
#define TRTE_TRIG_DBG_CONTROL 0x050u
#define TRTE_TRIG_EXT_IN_CONTROL  0x054u
#define TRTE_TRIG_EXT_OUT_CONTROL 0x058u
#define TRTE_FILTER_BASE      0x400u   /* trTeFilter<i>: 0x400 + 0x20 * i */
#define TRTE_FILTER_STRIDE    0x20u
#define TRTE_FILTER_END       0x600u
#define TRTE_COMP_BASE        0x600u   /* trTeComp<j>: 0x600 + 0x20 * j */
#define TRTE_COMP_STRIDE      0x20u
#define TRTE_COMP_END         0x800u

/* trTeFilter<i> registers (offset within the filter's 0x20 bytes). */
#define TRTE_FILTER_CONTROL        0x00u
#define TRTE_FILTER_MATCH_INST     0x04u
#define TRTE_FILTER_MATCH_ECAUSE_LOW  0x08u
#define TRTE_FILTER_MATCH_ECAUSE_HIGH 0x0Cu
#define TRTE_FILTER_MATCH_VALUE_IMPDEF 0x10u
#define TRTE_FILTER_MATCH_MASK_IMPDEF  0x14u
#define TRTE_FILTER_MATCH_DATA     0x18u

/* trTeComp<j> registers (offset within the comparator's 0x20 bytes). */
#define TRTE_COMP_CONTROL      0x00u
#define TRTE_COMP_PMATCH_LOW   0x10u
#define TRTE_COMP_PMATCH_HIGH  0x14u
#define TRTE_COMP_SMATCH_LOW   0x18u
#define TRTE_COMP_SMATCH_HIGH  0x1Cu

/* trTeControl fields. */
#define TRTE_ACTIVE                 (1u << 0)
#define TRTE_ENABLE                 (1u << 1)
#define TRTE_INST_TRACING           (1u << 2)
#define TRTE_EMPTY                  (1u << 3)
#define TRTE_INST_MODE_SHIFT        4
#define TRTE_INST_MODE_MASK         (7u << 4)
#define TRTE_CONTEXT                (1u << 9)
#define TRTE_INST_TRIG_ENABLE       (1u << 11)
#define TRTE_INST_STALL_OR_OVERFLOW (1u << 12)
#define TRTE_INST_STALL_ENA         (1u << 13)
#define TRTE_INHIBIT_SRC            (1u << 15)
#define TRTE_INST_SYNC_MODE_SHIFT   16
#define TRTE_INST_SYNC_MODE_MASK    (3u << 16)
#define TRTE_INST_SYNC_MAX_SHIFT    20
#define TRTE_INST_SYNC_MAX_MASK     (0xFu << 20)
#define TRTE_FORMAT_SHIFT           24
#define TRTE_FORMAT_MASK            (7u << 24)
#define TRTE_FORMAT_ETRACE          0u
#define TRTE_FORMAT_NTRACE          1u
/* trTeInstMode values ("0: disabled, 3: baseline, 6: optimized"). */
#define TRTE_INST_MODE_OFF          0u
#define TRTE_INST_MODE_BASELINE     3u
#define TRTE_INST_MODE_OPTIMIZED    6u

/* trTeImpl fields. */
#define TRTE_IMPL_PROTOCOL_MAJOR_SHIFT 16
#define TRTE_IMPL_PROTOCOL_MINOR_SHIFT 20

/* trTeInstFeatures fields. */
#define TRTE_INST_NO_ADDR_DIFF         (1u << 0)
#define TRTE_INST_NO_TRAP_ADDR         (1u << 1)
#define TRTE_INST_EN_SEQUENTIAL_JUMP   (1u << 2)
#define TRTE_INST_EN_IMPLICIT_RETURN   (1u << 3)
#define TRTE_INST_EN_BRANCH_PREDICTION (1u << 4)
#define TRTE_INST_EN_JUMP_TARGET_CACHE (1u << 5)
#define TRTE_INST_IMPLICIT_RETURN_MODE_SHIFT 6
#define TRTE_INST_IMPLICIT_RETURN_MODE_MASK  (3u << 6)
#define TRTE_INST_EN_REPEATED_HISTORY  (1u << 8)
#define TRTE_INST_EN_ALL_JUMPS         (1u << 9)
#define TRTE_INST_EXTEND_ADDR_MSB      (1u << 10)
#define TRTE_SRC_ID_SHIFT              16
#define TRTE_SRC_ID_MASK               (0xFFFu << 16)
#define TRTE_SRC_BITS_SHIFT            28
#define TRTE_SRC_BITS_MASK             (0xFu << 28)

/* trTsControl fields. */
#define TRTS_ACTIVE          (1u << 0)
#define TRTS_COUNT           (1u << 1)
#define TRTS_RESET           (1u << 2)
#define TRTS_RUN_IN_DEBUG    (1u << 3)
#define TRTS_MODE_SHIFT      4
#define TRTS_MODE_MASK       (7u << 4)
#define TRTS_MODE_NONE       0u
#define TRTS_MODE_EXTERNAL   1u
#define TRTS_MODE_INTERNAL_SYSTEM 2u
#define TRTS_MODE_INTERNAL_CORE   3u
#define TRTS_MODE_SHARED     4u
#define TRTS_PRESCALE_SHIFT  8
#define TRTS_PRESCALE_MASK   (3u << 8)
#define TRTS_ENABLE          (1u << 15)
#define TRTS_WIDTH_SHIFT     24
#define TRTS_WIDTH_MASK      (0x3Fu << 24)

/* trTeFilter<i>Control fields. */
#define TRTE_FILTER_ENABLE            (1u << 0)
#define TRTE_FILTER_MATCH_PRIVILEGE   (1u << 1)
#define TRTE_FILTER_MATCH_ECAUSE      (1u << 2)
#define TRTE_FILTER_MATCH_INTERRUPT   (1u << 3)
#define TRTE_FILTER_MATCH_COMP1       (1u << 4)
#define TRTE_FILTER_COMP1_SHIFT       5
#define TRTE_FILTER_MATCH_COMP2       (1u << 8)
#define TRTE_FILTER_COMP2_SHIFT       9
#define TRTE_FILTER_MATCH_COMP3       (1u << 12)
#define TRTE_FILTER_COMP3_SHIFT       13
#define TRTE_FILTER_COMP_MASK         7u
#define TRTE_FILTER_MATCH_IMPDEF      (1u << 16)
#define TRTE_FILTER_MATCH_DTYPE       (1u << 24)
#define TRTE_FILTER_MATCH_DSIZE       (1u << 25)
/* trTeFilter<i>MatchInst fields. */
#define TRTE_FILTER_MATCH_CHOICE_PRIVILEGE_MASK 0xFFu
#define TRTE_FILTER_MATCH_VALUE_INTERRUPT (1u << 8)

/* trTeComp<j>Control fields. */
#define TRTE_COMP_P_INPUT_SHIFT     0
#define TRTE_COMP_S_INPUT_SHIFT     2
#define TRTE_COMP_INPUT_MASK        3u
#define TRTE_COMP_INPUT_IADDR       0u
#define TRTE_COMP_INPUT_CONTEXT     1u
#define TRTE_COMP_INPUT_TVAL        2u
#define TRTE_COMP_INPUT_DADDR       3u
#define TRTE_COMP_P_FUNCTION_SHIFT  4
#define TRTE_COMP_S_FUNCTION_SHIFT  8
#define TRTE_COMP_FUNCTION_MASK     7u
#define TRTE_COMP_FN_EQ             0u
#define TRTE_COMP_FN_NE             1u
#define TRTE_COMP_FN_LT             2u
#define TRTE_COMP_FN_LE             3u
#define TRTE_COMP_FN_GT             4u
#define TRTE_COMP_FN_GE             5u
#define TRTE_COMP_FN_6              6u  /* P: false (primes latch); S: mask */
#define TRTE_COMP_FN_TRUE           7u
#define TRTE_COMP_MATCH_MODE_SHIFT  12
#define TRTE_COMP_MATCH_MODE_MASK   3u
#define TRTE_COMP_MODE_P            0u  /* primary result true           */
#define TRTE_COMP_MODE_P_AND_S      1u  /* P && S                        */
#define TRTE_COMP_MODE_NOT_P_AND_S  2u  /* !(P && S)                     */
#define TRTE_COMP_MODE_LATCH        3u  /* set on P, until the instruction after S */
#define TRTE_COMP_P_NOTIFY          (1u << 14)
#define TRTE_COMP_S_NOTIFY          (1u << 15)

/* ---- RAM sink ---------------------------------------------------------- */
#define TRRAM_CONTROL     0x000u
#define TRRAM_IMPL        0x004u
#define TRRAM_START_LOW   0x010u
#define TRRAM_START_HIGH  0x014u
#define TRRAM_LIMIT_LOW   0x018u
#define TRRAM_LIMIT_HIGH  0x01Cu
#define TRRAM_WP_LOW      0x020u
#define TRRAM_WP_HIGH     0x024u
#define TRRAM_RP_LOW      0x028u
#define TRRAM_RP_HIGH     0x02Cu
#define TRRAM_DATA        0x040u

/* trRamControl fields. */
#define TRRAM_ACTIVE          (1u << 0)
#define TRRAM_ENABLE          (1u << 1)
#define TRRAM_EMPTY           (1u << 3)
#define TRRAM_MODE_SMEM       (1u << 4)   /* trRamMode: 0 SRAM, 1 SMEM */
#define TRRAM_STOP_ON_WRAP    (1u << 8)
#define TRRAM_MEM_FORMAT_SHIFT 9
#define TRRAM_MEM_FORMAT_MASK (3u << 9)
#define TRRAM_ASYNC_FREQ_SHIFT 12
#define TRRAM_ASYNC_FREQ_MASK (7u << 12)
/* trRamImpl fields. */
#define TRRAM_HAS_SRAM        (1u << 12)
#define TRRAM_HAS_SMEM        (1u << 13)
/* trRamWPLow: bit 0 is trRamWrap. */
#define TRRAM_WP_WRAP         (1u << 0)
/* Start, Limit, WP and RP are byte addresses of 32-bit trace words. */
#define TRRAM_ADDR_ALIGN      4u

/* ---- Funnel ------------------------------------------------------------ */
#define TRFUNNEL_CONTROL    0x000u
#define TRFUNNEL_IMPL       0x004u
#define TRFUNNEL_DIS_INPUT  0x008u

#endif /* TCI_SPEC_H */
