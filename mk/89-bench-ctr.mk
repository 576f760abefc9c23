# SPDX-License-Identifier: BSD-2-Clause
# `make bench-ctr` (part of `make bench`): guest instructions of the
# emulated CTR accesses, and of recording (per transfer, slowdown), under
# -icount shift=0 on one hart (docs/CTR.md); figures only, in
# build/results/bench-ctr.md.
$(PAYLOAD_DIR)/bench-ctr.elf: $(TARGET_RT_OBJS) $(TARGET_OBJDIR)/bench_ctr.o $(TARGET_DIR)/link.ld
	$(call quiet,CC)$(CC_RV) $(TARGET_LDFLAGS) -o $@ $(TARGET_RT_OBJS) $(TARGET_OBJDIR)/bench_ctr.o $(RV_LIBS)

ALL_TARGETS += $(PAYLOAD_DIR)/bench-ctr.elf
BENCH_TARGETS += bench-ctr

.PHONY: bench-ctr
bench-ctr: $(PAYLOAD_DIR)/bench-ctr.elf $(BUILD)/tracesbi.elf
	@mkdir -p $(BUILD)/logs/bench $(BUILD)/results
	@scripts/qemu-run.sh --bios $(BUILD)/tracesbi.elf --kernel $(PAYLOAD_DIR)/bench-ctr.elf \
		--smp 1 --icount --timeout 120 2>&1 | tr -d '\r' > $(BUILD)/logs/bench/bench-ctr.log
	@grep -aqx 'DONE: bench' $(BUILD)/logs/bench/bench-ctr.log || \
		{ echo "bench-ctr: the run did not finish (log: $(BUILD)/logs/bench/bench-ctr.log)"; exit 1; }
	@{ echo "| access (emulated CTR) | guest instructions |"; echo "|---|---:|"; \
	  sed -n 's/^BENCH: \(ctr[^:]*\): \([0-9.]*\) instructions per access.*/| \1 | \2 |/p' \
		$(BUILD)/logs/bench/bench-ctr.log; echo; \
	  echo "| recording (a loop of calls, returns, taken branches) | figure |"; \
	  echo "|---|---:|"; \
	  sed -n -e 's/^BENCH: ctr\.recording_\(o[nf]*\): \([0-9]*\) instructions for \([0-9]*\).*/| guest instructions, recording \1 (\3 transfers) | \2 |/p' \
		-e 's/^BENCH: ctr\.record: \([0-9.]*\).*/| guest instructions per recorded transfer | \1 |/p' \
		-e 's/^BENCH: ctr\.slowdown: \([0-9.]*\).*/| slowdown, recording on vs off | \1x |/p' \
		$(BUILD)/logs/bench/bench-ctr.log; } | tee $(BUILD)/results/bench-ctr.md
