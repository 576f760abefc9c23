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
#define SBI_EXT_BASE    0x10
#define SBI_EXT_TIME    0x54494D45
#define SBI_EXT_IPI     0x735049
#define SBI_EXT_RFENCE  0x52464E43
#define SBI_EXT_HSM     0x48534D
#define SBI_EXT_SRST    0x53525354
#define SBI_EXT_PMU     0x504D55
#define SBI_EXT_DBCN    0x4442434E

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

#endif
