# SPDX-License-Identifier: BSD-2-Clause
# The real boards' DTBs (Debian's linux-source-6.1, scripts/board-dtbs.sh)
# through the firmware's platform code on the host: platform/generic.c with
# the drivers and lib/fdt, compiled as they are for the firmware; only the
# console registration and the linker's firmware extent are the test's
# (platform/pmu_event.c reads the running hart: firmware only).
BOARD_DTB_DIR := $(BUILD)/host/boards
BOARD_DTB_LIST := $(BOARD_DTB_DIR)/boards.list

$(BOARD_DTB_LIST): scripts/board-dtbs.sh $(wildcard tests/data/boards/*.dts)
	$(call quiet,DTC)scripts/board-dtbs.sh $(BOARD_DTB_DIR)

BOARD_HOST_SRCS = $(MOD_BOARD_SRCS)

# -iquote: the repository root is the include root of "..." includes only,
# so no name of ours hides a host C library header.
$(BUILD)/host/test_board_dtbs: tests/host/test_board_dtbs.c $(BOARD_HOST_SRCS) \
		$(wildcard firmware/*/*.h drivers/*/*.h) $(FDT_HEADERS) $(BOARD_DTB_LIST) $(HOST_HOOKS_LD)
	@mkdir -p $(@D)
	$(call quiet,HOSTCC)$(HOSTCC) $(HOST_CFLAGS) $(HOST_SAN) -iquote . -iquote lib/fdt \
		-DBOARD_DTB_DIR='"$(abspath $(BOARD_DTB_DIR))"' -o $@ \
		tests/host/test_board_dtbs.c $(BOARD_HOST_SRCS) $(HOST_HOOKS_LDFLAGS) $(CMOCKA_LIBS)

HOST_TESTS += $(BUILD)/host/test_board_dtbs
