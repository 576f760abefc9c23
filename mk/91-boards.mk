# Board runs (scripts/run-board-tests.sh): the S-mode test kernel under
# tracesbi on QEMU's sifive_u (an E51 without S-mode, sifive,uart0,
# gpio-restart) and spike (HTIF console and power-off).
TEST_SUITES += boards

.PHONY: test-boards
test-boards: $(PAYLOAD_DIR)/target-tests.elf $(BUILD)/tracesbi.elf
	@scripts/run-board-tests.sh $(BUILD)/tracesbi.elf $(PAYLOAD_DIR)/target-tests.elf
