# SPDX-License-Identifier: BSD-2-Clause
# `make test-ctr-trace` (suite ctr-trace of `make test`, about 45 s): the
# emulated CTR's records against QEMU's execution log of the same run
# (docs/CTR.md, "Tests").  The traced-program payload runs its programs
# with `notrace ctr` (CTR records each program, no N-Trace) under
# tests/trace/trace-run.py, which makes the ground truth; then
# tests/trace/ctr-compare.py checks each program's last 64 records.
CTR_TRACE_PROGS := recurse,u-syscalls,interp,u-pagefault,strings,u-illegal,s-illegal,sbi-irq,lrsc,u-lrsc
CTR_TRACE_DIR   := $(BUILD)/ctr-trace

.PHONY: suite-ctr-trace
TEST_SUITES += ctr-trace
suite-ctr-trace: $(BUILD)/tracesbi.elf $(PAYLOAD_DIR)/trace-prog.elf
	@rm -rf $(CTR_TRACE_DIR); mkdir -p $(CTR_TRACE_DIR)
	@if python3 tests/trace/trace-run.py --fw $(BUILD)/tracesbi.elf \
		--payload $(PAYLOAD_DIR)/trace-prog.elf --name ctr --outdir $(CTR_TRACE_DIR) \
		--append "notrace ctr tick=3000 only=$(CTR_TRACE_PROGS)" --timeout 600 \
		>$(CTR_TRACE_DIR)/run.log 2>&1; then \
		python3 tests/trace/ctr-compare.py --payload $(PAYLOAD_DIR)/trace-prog.elf \
			--out $(CTR_TRACE_DIR)/ctr.out --pcs $(CTR_TRACE_DIR)/ctr.gt.hart0.pcs; \
	else \
		echo "FAIL: ctr-compare: the recorded run failed (log: $(CTR_TRACE_DIR)/run.log)"; \
		tail -n 3 $(CTR_TRACE_DIR)/run.log; exit 1; \
	fi
