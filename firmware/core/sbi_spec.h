/* SPDX-License-Identifier: BSD-2-Clause */
/* Constants from the RISC-V SBI specification (v3.0), with the spec's names. */
#ifndef FIRMWARE_SBI_SPEC_H
#define FIRMWARE_SBI_SPEC_H

#define SBI_SPEC_VERSION_MAJOR 3
#define SBI_SPEC_VERSION_MINOR 0
#define SBI_SPEC_VERSION ((SBI_SPEC_VERSION_MAJOR << 24) | SBI_SPEC_VERSION_MINOR)

/* Binary encoding: Standard SBI Errors */
#define SBI_SUCCESS                0
#define SBI_ERR_FAILED            (-1)
#define SBI_ERR_NOT_SUPPORTED     (-2)
#define SBI_ERR_INVALID_PARAM     (-3)
#define SBI_ERR_DENIED            (-4)
#define SBI_ERR_INVALID_ADDRESS   (-5)
#define SBI_ERR_ALREADY_AVAILABLE (-6)
#define SBI_ERR_ALREADY_STARTED   (-7)
#define SBI_ERR_ALREADY_STOPPED   (-8)
#define SBI_ERR_NO_SHMEM          (-9)
#define SBI_ERR_INVALID_STATE     (-10)
#define SBI_ERR_BAD_RANGE         (-11)
#define SBI_ERR_TIMEOUT           (-12)
#define SBI_ERR_IO                (-13)
#define SBI_ERR_DENIED_LOCKED     (-14)

/* Extension IDs */
#define SBI_EXT_LEGACY_SET_TIMER        0x00
#define SBI_EXT_LEGACY_CONSOLE_PUTCHAR  0x01
#define SBI_EXT_LEGACY_CONSOLE_GETCHAR  0x02
#define SBI_EXT_LEGACY_CLEAR_IPI        0x03
#define SBI_EXT_LEGACY_SEND_IPI         0x04
#define SBI_EXT_LEGACY_REMOTE_FENCE_I   0x05
#define SBI_EXT_LEGACY_REMOTE_SFENCE_VMA      0x06
#define SBI_EXT_LEGACY_REMOTE_SFENCE_VMA_ASID 0x07
#define SBI_EXT_LEGACY_SHUTDOWN         0x08
#define SBI_EXT_BASE    0x10
#define SBI_EXT_TIME    0x54494D45
#define SBI_EXT_IPI     0x735049
#define SBI_EXT_RFENCE  0x52464E43
#define SBI_EXT_HSM     0x48534D
#define SBI_EXT_SRST    0x53525354
#define SBI_EXT_PMU     0x504D55
#define SBI_EXT_DBCN    0x4442434E
#define SBI_EXT_SUSP    0x53555350
#define SBI_EXT_FWFT    0x46574654
#define SBI_EXT_DBTR    0x44425452
#define SBI_EXT_SSE     0x535345

/* BASE functions */
#define SBI_BASE_GET_SPEC_VERSION  0
#define SBI_BASE_GET_IMPL_ID       1
#define SBI_BASE_GET_IMPL_VERSION  2
#define SBI_BASE_PROBE_EXTENSION   3
#define SBI_BASE_GET_MVENDORID     4
#define SBI_BASE_GET_MARCHID       5
#define SBI_BASE_GET_MIMPID        6

/* TIME, IPI */
#define SBI_TIME_SET_TIMER 0
#define SBI_IPI_SEND_IPI   0

/* RFENCE functions */
#define SBI_RFENCE_REMOTE_FENCE_I             0
#define SBI_RFENCE_REMOTE_SFENCE_VMA          1
#define SBI_RFENCE_REMOTE_SFENCE_VMA_ASID     2
#define SBI_RFENCE_REMOTE_HFENCE_GVMA_VMID    3
#define SBI_RFENCE_REMOTE_HFENCE_GVMA         4
#define SBI_RFENCE_REMOTE_HFENCE_VVMA_ASID    5
#define SBI_RFENCE_REMOTE_HFENCE_VVMA         6

/* HSM functions and states */
#define SBI_HSM_HART_START      0
#define SBI_HSM_HART_STOP       1
#define SBI_HSM_HART_GET_STATUS 2
#define SBI_HSM_HART_SUSPEND    3
#define SBI_HSM_STATE_STARTED          0
#define SBI_HSM_STATE_STOPPED          1
#define SBI_HSM_STATE_START_PENDING    2
#define SBI_HSM_STATE_STOP_PENDING     3
#define SBI_HSM_STATE_SUSPENDED        4
#define SBI_HSM_STATE_SUSPEND_PENDING  5
#define SBI_HSM_STATE_RESUME_PENDING   6
#define SBI_HSM_SUSPEND_RET_DEFAULT     0x00000000u
#define SBI_HSM_SUSPEND_NON_RET_DEFAULT 0x80000000u
#define SBI_HSM_SUSPEND_NON_RET_BIT     0x80000000u

/* SRST */
#define SBI_SRST_SYSTEM_RESET 0
#define SBI_SRST_TYPE_SHUTDOWN    0
#define SBI_SRST_TYPE_COLD_REBOOT 1
#define SBI_SRST_TYPE_WARM_REBOOT 2
#define SBI_SRST_REASON_NONE      0
#define SBI_SRST_REASON_SYSFAIL   1

/* DBCN */
/* PMU */
#define SBI_PMU_NUM_COUNTERS            0
#define SBI_PMU_COUNTER_GET_INFO        1
#define SBI_PMU_COUNTER_CONFIG_MATCHING 2
#define SBI_PMU_COUNTER_START           3
#define SBI_PMU_COUNTER_STOP            4
#define SBI_PMU_COUNTER_FW_READ         5
#define SBI_PMU_COUNTER_FW_READ_HI      6
#define SBI_PMU_SNAPSHOT_SET_SHMEM      7
#define SBI_PMU_EVENT_GET_INFO          8

#define SBI_DBCN_CONSOLE_WRITE      0
#define SBI_DBCN_CONSOLE_READ       1
#define SBI_DBCN_CONSOLE_WRITE_BYTE 2

/* SUSP */
#define SBI_SUSP_SYSTEM_SUSPEND 0
#define SBI_SUSP_SLEEP_TYPE_SUSPEND_TO_RAM 0
#define SBI_SUSP_SLEEP_TYPE_PLATFORM_FIRST 0x80000000u

/* FWFT functions, features and flags */
#define SBI_FWFT_SET 0
#define SBI_FWFT_GET 1
#define SBI_FWFT_MISALIGNED_EXC_DELEG   0x0
#define SBI_FWFT_LANDING_PAD            0x1
#define SBI_FWFT_SHADOW_STACK           0x2
#define SBI_FWFT_DOUBLE_TRAP            0x3
#define SBI_FWFT_PTE_AD_HW_UPDATING     0x4
#define SBI_FWFT_POINTER_MASKING_PMLEN  0x5
#define SBI_FWFT_LOCAL_RESERVED_FIRST   0x6
#define SBI_FWFT_PLATFORM_LOCAL_FIRST   0x40000000u
#define SBI_FWFT_GLOBAL_RESERVED_FIRST  0x80000000u
#define SBI_FWFT_PLATFORM_GLOBAL_FIRST  0xc0000000u
#define SBI_FWFT_SET_FLAG_LOCK          0x1ul

/* DBTR functions and the trig_state fields */
#define SBI_DBTR_NUM_TRIGGERS      0
#define SBI_DBTR_SET_SHMEM         1
#define SBI_DBTR_READ_TRIGGERS     2
#define SBI_DBTR_INSTALL_TRIGGERS  3
#define SBI_DBTR_UPDATE_TRIGGERS   4
#define SBI_DBTR_UNINSTALL_TRIGGERS 5
#define SBI_DBTR_ENABLE_TRIGGERS   6
#define SBI_DBTR_DISABLE_TRIGGERS  7
#define SBI_DBTR_STATE_MAPPED       (1ul << 0)
#define SBI_DBTR_STATE_U            (1ul << 1)
#define SBI_DBTR_STATE_S            (1ul << 2)
#define SBI_DBTR_STATE_VU           (1ul << 3)
#define SBI_DBTR_STATE_VS           (1ul << 4)
#define SBI_DBTR_STATE_HAVE_HW_TRIG (1ul << 5)
#define SBI_DBTR_STATE_HW_IDX_SHIFT 8

/* SSE functions, event IDs, attributes, states (ext-sse.adoc) */
#define SBI_SSE_READ_ATTRS    0
#define SBI_SSE_WRITE_ATTRS   1
#define SBI_SSE_REGISTER      2
#define SBI_SSE_UNREGISTER    3
#define SBI_SSE_ENABLE        4
#define SBI_SSE_DISABLE       5
#define SBI_SSE_COMPLETE      6
#define SBI_SSE_INJECT        7
#define SBI_SSE_HART_UNMASK   8
#define SBI_SSE_HART_MASK     9
#define SBI_SSE_EVENT_LOCAL_HIGH_PRIO_RAS    0x00000000u
#define SBI_SSE_EVENT_LOCAL_DOUBLE_TRAP      0x00000001u
#define SBI_SSE_EVENT_GLOBAL_HIGH_PRIO_RAS   0x00008000u
#define SBI_SSE_EVENT_LOCAL_PMU_OVERFLOW     0x00010000u
#define SBI_SSE_EVENT_LOCAL_LOW_PRIO_RAS     0x00100000u
#define SBI_SSE_EVENT_GLOBAL_LOW_PRIO_RAS    0x00108000u
#define SBI_SSE_EVENT_LOCAL_SOFTWARE         0xffff0000u
#define SBI_SSE_EVENT_GLOBAL_SOFTWARE        0xffff8000u
#define SBI_SSE_EVENT_GLOBAL_BIT             (1u << 15)
#define SBI_SSE_ATTR_STATUS            0
#define SBI_SSE_ATTR_PRIORITY          1
#define SBI_SSE_ATTR_CONFIG            2
#define SBI_SSE_ATTR_PREFERRED_HART    3
#define SBI_SSE_ATTR_ENTRY_PC          4
#define SBI_SSE_ATTR_ENTRY_ARG         5
#define SBI_SSE_ATTR_INTERRUPTED_SEPC  6
#define SBI_SSE_ATTR_INTERRUPTED_FLAGS 7
#define SBI_SSE_ATTR_INTERRUPTED_A6    8
#define SBI_SSE_ATTR_INTERRUPTED_A7    9
#define SBI_SSE_ATTR_COUNT             10
#define SBI_SSE_STATE_UNUSED      0
#define SBI_SSE_STATE_REGISTERED  1
#define SBI_SSE_STATE_ENABLED     2
#define SBI_SSE_STATE_RUNNING     3
#define SBI_SSE_STATUS_PENDING         (1ul << 2)
#define SBI_SSE_STATUS_INJECTABLE      (1ul << 3)
#define SBI_SSE_CONFIG_ONESHOT         (1ul << 0)
#define SBI_SSE_FLAGS_SPP              (1ul << 0)
#define SBI_SSE_FLAGS_SPIE             (1ul << 1)
#define SBI_SSE_FLAGS_HSTATUS_SPV      (1ul << 2)
#define SBI_SSE_FLAGS_HSTATUS_SPVP     (1ul << 3)
#define SBI_SSE_FLAGS_SPELP            (1ul << 4)
#define SBI_SSE_FLAGS_SDT              (1ul << 5)

#endif
