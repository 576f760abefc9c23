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
	@rc=0; \
	$(call ctr_trace_run,ctr,1,0,notrace ctr tick=3000 only=$(CTR_TRACE_PROGS),) || rc=1; \
	$(call ctr_trace_run,ctr-contend,2,1,hammer notrace ctr tick=3000 only=lrsc-contend,\
		--unlogged __hammer_start$(comma)__hammer_end) || rc=1; \
	exit $$rc

# $(call ctr_trace_run,NAME,SMP,TRACED HART,BOOTARGS,MORE trace-run.py OPTIONS):
# one recorded run and its comparison (PASS/FAIL lines).  ctr-contend: the
# LR/SC loops an untraced hart contends for (tests/target/trace/kernel.c,
# prog_lrsc_contend), CTR recording them on hart 1.
comma := ,
define ctr_trace_run
if python3 tests/trace/trace-run.py --fw $(BUILD)/tracesbi.elf \
	--payload $(PAYLOAD_DIR)/trace-prog.elf --name $(1) --outdir $(CTR_TRACE_DIR) \
	--smp $(2) --append "$(4)" --timeout 600 $(5) >$(CTR_TRACE_DIR)/$(1).log 2>&1; then \
	python3 tests/trace/ctr-compare.py --payload $(PAYLOAD_DIR)/trace-prog.elf \
		--out $(CTR_TRACE_DIR)/$(1).out --pcs $(CTR_TRACE_DIR)/$(1).gt.hart$(3).pcs; \
else \
	echo "FAIL: ctr-compare: the recorded run $(1) failed (log: $(CTR_TRACE_DIR)/$(1).log)"; \
	tail -n 3 $(CTR_TRACE_DIR)/$(1).log; false; \
fi
endef
