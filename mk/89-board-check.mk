# SPDX-License-Identifier: BSD-2-Clause
# board-check (tools/board-check): whether the firmware, linked where it
# is, can serve a board's DTB; `make fit-image` runs it first, and
# suite-fit checks that it refuses the boards the firmware cannot serve.
BOARD_CHECK_SRCS := tools/board-check/board_check.c platform/cpu_smode.c $(FDT_SRCS)

ALL_TARGETS += $(BUILD)/tools/board-check

$(BUILD)/tools/board-check: $(BOARD_CHECK_SRCS) $(FDT_HEADERS) firmware/core/platform.h platform/dt_memory.h
	@mkdir -p $(dir $@)
	$(call quiet,HOSTCC)$(HOSTCC) $(HOST_CFLAGS) -I. -Ilib/fdt -o $@ $(BOARD_CHECK_SRCS)
