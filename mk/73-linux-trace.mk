# SPDX-License-Identifier: BSD-2-Clause
# `make test-linux-trace` (also run by `make test-linux` under tracesbi,
# mk/50-linux.mk, which is how `make test` runs it): a program
# traced from Linux through the trace PMU (linux-trace/: the module and the
# recorder), decoded with `ntrace perf` and compared with QEMU's execution
# log of the same run (tests/linux/trace-perf-test.py).  The kernel build
# (mk/50-linux.mk) also makes the perf trace initramfs it boots with.
LINUX_TRACE_DIR  := $(BUILD)/linux-trace-tests
LINUX_TRACE_LIST ?= busy,u,us,two,full

.PHONY: suite-linux-trace test-linux-trace
test-linux-trace: deps-check
	@scripts/run-tests.sh --one linux-trace
suite-linux-trace: linux-kernel $(BUILD)/tracesbi.elf $(NTRACE_TOOL_BIN)
	@python3 tests/linux/trace-perf-test.py --fw $(BUILD)/tracesbi.elf \
		--kernel $(BUILD)/linux/Image --vmlinux $(BUILD)/linux/vmlinux \
		--initrd $(BUILD)/linux/trace-perf.cpio \
		--traced $(BUILD)/linux/trace-perf/tsbi-traced --ntrace $(NTRACE_TOOL_BIN) \
		--workdir $(LINUX_TRACE_DIR) --list $(LINUX_TRACE_LIST)
