# SPDX-License-Identifier: BSD-2-Clause
# `make PAYLOAD=path/to/Image`: build/tracesbi-payload.bin, the firmware
# with its next stage 2 MiB above it in one image (OpenSBI's fw_payload;
# scripts/fw-payload.sh).  `qemu-system-riscv64 -M virt -bios
# build/tracesbi-payload.bin` (no -kernel) boots it; a board loads it at
# the firmware's address.  suite-boot checks one with the demo kernel.
PAYLOAD ?=
# FW_DEFAULT_NEXT - _fw_start (firmware/boot/init.c)
FW_PAYLOAD_OFFSET := 0x200000
FW_PAYLOAD_BIN    := $(BUILD)/tracesbi-payload.bin

ifneq ($(PAYLOAD),)
ALL_TARGETS += $(FW_PAYLOAD_BIN)
endif

.PHONY: $(FW_PAYLOAD_BIN)
$(FW_PAYLOAD_BIN): $(BUILD)/tracesbi.bin
	@[ -n "$(PAYLOAD)" ] || { echo "make PAYLOAD=<raw image>: no PAYLOAD given" >&2; exit 1; }
	$(call quiet,PAYLOAD)scripts/fw-payload.sh $@ $< $(PAYLOAD) $(FW_PAYLOAD_OFFSET)

# The demo kernel as a raw image, for the boot suite's payload boot.
$(PAYLOAD_DIR)/demo.bin: $(PAYLOAD_DIR)/demo.elf
	$(call quiet,OBJCOPY)$(OBJCOPY_RV) -O binary $< $@

$(BUILD)/boot/tracesbi-demo-payload.bin: $(BUILD)/tracesbi.bin $(PAYLOAD_DIR)/demo.bin scripts/fw-payload.sh
	$(call quiet,PAYLOAD)scripts/fw-payload.sh $@ $< $(PAYLOAD_DIR)/demo.bin $(FW_PAYLOAD_OFFSET)
