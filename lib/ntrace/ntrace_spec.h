/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Constants of the RISC-V N-Trace specification 1.0 (rc7 text), with the
 * spec's names.  Section and table numbers refer to
 * ntrace-spec-1.0.0-rc7.txt.
 */
#ifndef NTRACE_SPEC_H
#define NTRACE_SPEC_H

/* Chapter 3: one byte = MDO[5:0] (bits 7..2) + MSEO[1:0] (bits 1..0). */
#define NTRACE_MDO_BITS        6
#define NTRACE_MDO_MASK        0x3Fu
#define NTRACE_MSEO_MASK       0x03u
#define NTRACE_MSEO_NORMAL     0x0u /* message start / transmission (00)   */
#define NTRACE_MSEO_END_FIELD  0x1u /* last byte of a variable field (01)  */
#define NTRACE_MSEO_RESERVED   0x2u /* reserved (10)                       */
#define NTRACE_MSEO_END_MSG    0x3u /* last byte of a message / idle (11)  */
#define NTRACE_IDLE_BYTE       0xFFu
/* Chapter 3 table: worst-case message (IndirectBranchHistSync) is 38 bytes. */
#define NTRACE_MAX_MSG_BYTES   38

/* Table 10: maximum field sizes (bits). */
#define NTRACE_MAX_SRC         12
#define NTRACE_MAX_ICNT        22
#define NTRACE_MAX_ADDR        63
#define NTRACE_MAX_HIST        32
#define NTRACE_MAX_REPEAT_BITS 18 /* B-CNT, HREPEAT (ratified Table 10) */
#define NTRACE_MAX_REPEAT      ((1u << NTRACE_MAX_REPEAT_BITS) - 1)
#define NTRACE_MAX_TSTAMP      64

/* Table 8: TCODE values. */
#define NTRACE_TCODE_OWNERSHIP               2
#define NTRACE_TCODE_DIRECT_BRANCH           3
#define NTRACE_TCODE_INDIRECT_BRANCH         4
#define NTRACE_TCODE_ERROR                   8
#define NTRACE_TCODE_PROG_TRACE_SYNC         9
#define NTRACE_TCODE_DIRECT_BRANCH_SYNC      11
#define NTRACE_TCODE_INDIRECT_BRANCH_SYNC    12
#define NTRACE_TCODE_RESOURCE_FULL           27
#define NTRACE_TCODE_INDIRECT_BRANCH_HIST    28
#define NTRACE_TCODE_INDIRECT_BRANCH_HIST_SYNC 29
#define NTRACE_TCODE_REPEAT_BRANCH           30
#define NTRACE_TCODE_PROG_TRACE_CORRELATION  33
#define NTRACE_TCODE_VENDOR_FIRST            56
#define NTRACE_TCODE_VENDOR_LAST             62
#define NTRACE_TCODE_BITS                    6

/* Table 9: B-TYPE. */
#define NTRACE_BTYPE_INDIRECT   0 /* indirect jump, call or return          */
#define NTRACE_BTYPE_TRAP       1 /* exception or interrupt (undistinguished) */
#define NTRACE_BTYPE_EXCEPTION  2
#define NTRACE_BTYPE_INTERRUPT  3
#define NTRACE_BTYPE_BITS       2

/* Table 25: SYNC field values. */
#define NTRACE_SYNC_EXT_TRIGGER   0
#define NTRACE_SYNC_RESET         1
#define NTRACE_SYNC_PERIODIC      2
#define NTRACE_SYNC_DEBUG_EXIT    3
#define NTRACE_SYNC_ICNT          4 /* Sequential Instruction Counter        */
#define NTRACE_SYNC_TRACE_ENABLE  5
#define NTRACE_SYNC_TRACE_EVENT   6
#define NTRACE_SYNC_FIFO_OVERRUN  7
#define NTRACE_SYNC_POWER_UP      9
#define NTRACE_SYNC_BITS          4

/* Table 15: Error message. */
#define NTRACE_ETYPE_QUEUE_OVERRUN    0
#define NTRACE_ETYPE_BITS             4
#define NTRACE_ECODE_UNKNOWN          0x00
#define NTRACE_ECODE_PROGRAM_LOST     0x04
#define NTRACE_ECODE_OWNERSHIP_LOST   0x08
#define NTRACE_ECODE_VENDOR_LOST      0x80

/* Table 19: ResourceFull RCODE. */
#define NTRACE_RCODE_ICNT        0 /* RDATA = I-CNT                        */
#define NTRACE_RCODE_HIST        1 /* RDATA = HIST                         */
#define NTRACE_RCODE_HIST_REPEAT 2 /* RDATA = HIST, RDATA[1] = HREPEAT     */
#define NTRACE_RCODE_BITS        4

/* Table 23: ProgTraceCorrelation EVCODE and CDF. */
#define NTRACE_EVCODE_DEBUG_ENTRY     0
#define NTRACE_EVCODE_LOW_POWER       1
#define NTRACE_EVCODE_TRACE_DISABLED  4
#define NTRACE_EVCODE_BITS            4
#define NTRACE_CDF_ICNT_ONLY          0 /* BTM                              */
#define NTRACE_CDF_ICNT_HIST          1 /* HTM                              */
#define NTRACE_CDF_BITS               2

/* Table 12: PROCESS = {CONTEXT, V, PRV[1:0], FORMAT[1:0]}. */
#define NTRACE_PROCESS_FORMAT_PRIV      0 /* V or PRV change               */
#define NTRACE_PROCESS_FORMAT_RESERVED  1
#define NTRACE_PROCESS_FORMAT_SCONTEXT  2 /* sync or scontext change       */
#define NTRACE_PROCESS_FORMAT_HCONTEXT  3 /* sync or hcontext change       */
#define NTRACE_PRV_U 0
#define NTRACE_PRV_S 1
#define NTRACE_PRV_M 3
#define NTRACE_PRV_V 4 /* V above PRV[1:0], as in struct ntrace_retired.priv */

/* Table 7 / Trace Control Interface: trTeInstMode values for N-Trace. */
#define NTRACE_INST_MODE_AUTO 0 /* decoder: BTM or HTM as the messages tell */
#define NTRACE_INST_MODE_BTM 3
#define NTRACE_INST_MODE_HTM 6

/* trTeInstSyncMode (Trace Control Interface, trTeControl[17:16]). */
#define NTRACE_SYNC_MODE_OFF       0
#define NTRACE_SYNC_MODE_MESSAGES  1
#define NTRACE_SYNC_MODE_CYCLES    2
#define NTRACE_SYNC_MODE_HALFWORDS 3

/* trTeInstImplicitReturnMode (trTeInstFeatures[7:6]). */
#define NTRACE_IMPLICIT_RETURN_COUNT   1
#define NTRACE_IMPLICIT_RETURN_PARTIAL 2
#define NTRACE_IMPLICIT_RETURN_FULL    3
/* 9.2: "should never implement call stack deeper than 32 levels". */
#define NTRACE_MAX_CALL_STACK 32

#endif /* NTRACE_SPEC_H */
