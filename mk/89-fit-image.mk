# SPDX-License-Identifier: BSD-2-Clause
# `make fit-image BOARD=<board> [UBOOT=<u-boot-nodtb.bin>]`: a U-Boot SPL
# FIT image with tracesbi in OpenSBI's fw_dynamic slot and the board's DTB
# from linux-source-6.1 (mk/88-board-dtbs.mk; BOARD is a .dts name from
# build/host/boards/boards.list), checked with dumpimage
# (scripts/fit-image.sh).  README.md, "Putting tracesbi on a board".
BOARD ?= hifive-unmatched-a00
UBOOT ?=
FIT_DIR := $(BUILD)/fit

.PHONY: fit-image suite-fit
fit-image: $(BUILD)/tracesbi.bin $(BUILD)/tools/board-check $(BOARD_DTB_LIST)
	@grep -qx '$(BOARD).dtb' $(BOARD_DTB_LIST) || { echo "fit-image: no board '$(BOARD)'; the boards:" \
		$$(sed 's/\.dtb$$//' $(BOARD_DTB_LIST)) >&2; exit 1; }
	BOARD_CHECK=$(BUILD)/tools/board-check scripts/fit-image.sh $(FIT_DIR)/tracesbi-$(BOARD).itb $(BUILD)/tracesbi.bin \
		$(BOARD_DTB_DIR)/$(BOARD).dtb $(UBOOT)
	@echo "$(FIT_DIR)/tracesbi-$(BOARD).itb (listing: $(FIT_DIR)/tracesbi-$(BOARD).itb.txt)"

# The suite: one image for the Unmatched, with Debian's S-mode U-Boot
# (u-boot-qemu) in the U-Boot slot, and one for the Icicle kit without;
# then the boards it must refuse (scripts/fit-refusals.sh); about 2 s.
FIT_TEST_UBOOT := /usr/lib/u-boot/qemu-riscv64_smode/u-boot.bin
TEST_SUITES += fit
suite-fit: $(BUILD)/tracesbi.bin $(BUILD)/tools/board-check $(BOARD_DTB_LIST)
	@rc=0; export BOARD_CHECK=$(BUILD)/tools/board-check; \
	scripts/fit-image.sh $(FIT_DIR)/unmatched-uboot.itb $(BUILD)/tracesbi.bin \
		$(BOARD_DTB_DIR)/hifive-unmatched-a00.dtb $(FIT_TEST_UBOOT) || rc=1; \
	scripts/fit-image.sh $(FIT_DIR)/icicle.itb $(BUILD)/tracesbi.bin \
		$(BOARD_DTB_DIR)/mpfs-icicle-kit.dtb || rc=1; \
	BUILD=$(BUILD) BOARD_DTB_DIR=$(BOARD_DTB_DIR) scripts/fit-refusals.sh || rc=1; \
	exit $$rc
