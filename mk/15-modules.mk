# SPDX-License-Identifier: BSD-2-Clause
# The firmware's parts that host tests and fuzz targets build on the host,
# each defined once: what a part is made of (its sources), for every rule
# that builds it.  (Recursively expanded: FDT_SRCS, RVINSN_SRCS come from
# later fragments.)  The firmware itself takes every source
# (mk/80-firmware.mk).

# PMU: the counters (against pmu_hw.h's fake) and the "riscv,pmu" DT map.
MOD_PMU_MAP_SRCS    = drivers/pmu/pmu_map.c
MOD_PMU_SRCS        = firmware/pmu/pmu.c $(MOD_PMU_MAP_SRCS)
# The emulated trace components' register models.
MOD_TCI_FILTER_SRCS = lib/tci/tci_filter.c
MOD_TCI_ENC_SRCS    = firmware/trace/tci_encoder.c $(MOD_TCI_FILTER_SRCS)
MOD_TCI_SINK_SRCS   = firmware/trace/tci_ramsink.c
# TV mode's decoding of an instruction; LR/SC sequences.
MOD_TV_DECODE_SRCS  = firmware/trace/tv_decode.c $(RVINSN_SRCS)
MOD_LRSC_SRCS       = firmware/trace/lrsc.c $(RVINSN_SRCS)
# The CTR model, and its ingress from the trace engine's records.
MOD_CTR_SRCS        = firmware/ctr/ctr_model.c firmware/ctr/ctr_record.c \
                      firmware/ctr/ctr_classify.c firmware/ctr/ctr_csr.c $(RVINSN_SRCS)
MOD_CTR_INGRESS_SRCS = firmware/ctr/ctr_ingress.c $(MOD_CTR_SRCS)
MOD_CTR_HW_SRCS     = drivers/ctr/ctr_hw.c
# Load/store decoding and the misaligned access emulation.
MOD_MEMACCESS_SRCS  = firmware/emu/memaccess.c
MOD_MISALIGNED_SRCS = firmware/emu/misaligned.c $(MOD_MEMACCESS_SRCS)
# The platform code over a board's DT, with the drivers and the core parts
# it fills (the harts, the machine's description).
MOD_CPU_SMODE_SRCS  = platform/cpu_smode.c
MOD_BOARD_SRCS      = $(filter-out platform/pmu_event.c,$(wildcard platform/*.c)) \
                      firmware/core/hart.c firmware/core/platform.c firmware/core/fdt_irq.c \
                      $(wildcard drivers/serial/*.c drivers/timer/*.c drivers/ipi/*.c \
                                 drivers/reset/*.c drivers/gpio/*.c) $(FDT_SRCS)
# Block stepping on the host (tests/host/test_stepper.c: the test models the
# hart's CSRs, memory and the engine; riscv_csr.h's TSBI_HOST_CSR).
MOD_STEPPER_SRCS    = $(wildcard firmware/trace/stepper.c firmware/trace/step_*.c) $(MOD_LRSC_SRCS) $(NTRACE_SRCS) \
                      $(NTRACE_INGRESS_SRCS)
