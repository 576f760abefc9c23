# SPDX-License-Identifier: BSD-2-Clause
# The software trace encoder against QEMU (tests/trace/README.md).
#
#   make test-trace   the ground-truth self-test (tests/trace/selftest-
#                     ground-truth.sh) and the unit test of the QEMU-log
#                     parser (tests/trace/qemulog-test.py: scripts/tsbi/
#                     qemulog.py on synthetic snippets) and of the QEMU
#                     runner (tests/trace/qemu-runner-test.py: scripts/
#                     tsbi/qemu.py and qemu-run.sh with stand-ins), then
#                     tests/trace/run-suite.py: the
#                     traced-program payload under every configuration,
#                     each hart's buffer decoded and compared exactly with
#                     QEMU's execution log, and byte for byte with the host
#                     encoder.  TRACE_CONFIGS="htm btm ..." runs only those
#                     (run-suite.py --list); work files in build/trace-tests.
#                     Then tests/trace/listing-test.py: make trace's boot
#                     args, sidecars, printed commands and TV buffers.
#   make trace        a traced run of TRACE_PAYLOAD (default: the
#                     traced-program payload) on TRACE_SMP harts, with
#                     TRACE_APPEND merged into the default boot args
#                     (scripts/trace-listing.py: tick=3000 unless TRACE_APPEND
#                     names a tick); the listing goes to build/trace/listing.txt
#                     (tandem-verification buffers: through tvtrace), then the
#                     commands that read the saved buffers with no option.
#   make trace-linux  a Linux kernel (default: the test kernel of
#                     mk/50-linux.mk; KERNEL=Image VMLINUX=vmlinux for
#                     another, USER_ELVES= its user-space ELFs) booted with
#                     tracesbi.trace=TRACE_LINUX,hold
#                     on TRACE_LINUX_SMP harts; the listing of its first
#                     TRACE_LINUX_LINES instructions with the kernel's
#                     symbols at its load and virtual addresses, then the
#                     commands that read the saved buffers
#                     (scripts/trace-linux.py; work files in
#                     build/trace-linux).  TRACE_LINUX_SAVE_AFTER=S saves
#                     the buffers S seconds into the boot, for a kernel
#                     whose boot does not end in a system reset.
#   make soak-trace-linux  (part of make soak) tests/trace/linux-test.py
#                     --soak: a 4-hart boot's log kept until every hart has
#                     its ground truth.
#
# Both use whatever build/tracesbi.elf is current (make rebuilds it first).

TRACE_TEST_DEPS := $(BUILD)/tracesbi.elf $(PAYLOAD_DIR)/trace-prog.elf $(BUILD)/tools/ntrace \
                   $(BUILD)/tools/tv-records $(BUILD)/tools/tvtrace

# The records of a TV-mode buffer, parsed with lib/tvtrace (tv-check.py).
$(BUILD)/tools/tv-records: tests/trace/tv-records.c $(TVTRACE_SRCS) $(TVTRACE_HDRS)
	@mkdir -p $(dir $@)
	$(call quiet,HOSTCC)$(HOSTCC) $(HOST_CFLAGS) $(TVTRACE_INC) -o $@ $< $(TVTRACE_SRCS)
TRACE_CONFIGS   ?=
TRACE_JOBS      ?= 2

.PHONY: suite-trace trace
TEST_SUITES += trace
# The Linux kernel (mk/50-linux.mk): tests/trace/save-test.py saves the
# buffers of a traced boot while it runs.
suite-trace: $(TRACE_TEST_DEPS) linux-kernel
	@rc=0; tests/trace/selftest-ground-truth.sh || rc=1; \
	python3 tests/trace/qemulog-test.py || rc=1; \
	python3 tests/trace/qemu-runner-test.py || rc=1; \
	python3 tests/trace/run-suite.py --fw $(BUILD)/tracesbi.elf \
		--payload $(PAYLOAD_DIR)/trace-prog.elf --ntrace $(BUILD)/tools/ntrace \
		--tv-records $(BUILD)/tools/tv-records --tvtrace $(BUILD)/tools/tvtrace --workdir $(BUILD)/trace-tests -j $(TRACE_JOBS) $(TRACE_CONFIGS) || rc=1; \
	python3 tests/trace/listing-test.py --fw $(BUILD)/tracesbi.elf \
		--payload $(PAYLOAD_DIR)/trace-prog.elf --ntrace $(BUILD)/tools/ntrace \
		--tvtrace $(BUILD)/tools/tvtrace --workdir $(BUILD)/trace-tests || rc=1; \
	python3 tests/trace/save-test.py --fw $(BUILD)/tracesbi.elf \
		--payload $(PAYLOAD_DIR)/trace-prog.elf --ntrace $(BUILD)/tools/ntrace \
		--kernel $(BUILD)/linux/Image --vmlinux $(BUILD)/linux/vmlinux \
		--workdir $(BUILD)/trace-tests || rc=1; \
	python3 tests/trace/linux-test.py --fw $(BUILD)/tracesbi.elf \
		--kernel $(BUILD)/linux/Image --vmlinux $(BUILD)/linux/vmlinux \
		--ntrace $(BUILD)/tools/ntrace --workdir $(BUILD)/trace-tests/linux || rc=1; \
	exit $$rc

SOAK_TARGETS += soak-trace-configs soak-trace-linux
.PHONY: soak-trace-configs
# Every configuration of tests/trace/run-suite.py, those make test leaves out too.
soak-trace-configs: $(TRACE_TEST_DEPS)
	@python3 tests/trace/run-suite.py --soak --fw $(BUILD)/tracesbi.elf \
		--payload $(PAYLOAD_DIR)/trace-prog.elf --ntrace $(BUILD)/tools/ntrace \
		--tv-records $(BUILD)/tools/tv-records --tvtrace $(BUILD)/tools/tvtrace \
		--workdir $(BUILD)/trace-tests-soak -j $(TRACE_JOBS)

.PHONY: soak-trace-linux
soak-trace-linux: $(TRACE_TEST_DEPS) linux-kernel
	@python3 tests/trace/linux-test.py --soak --fw $(BUILD)/tracesbi.elf \
		--kernel $(BUILD)/linux/Image --vmlinux $(BUILD)/linux/vmlinux \
		--ntrace $(BUILD)/tools/ntrace --workdir $(BUILD)/trace-tests/linux-soak

TRACE_PAYLOAD ?= $(PAYLOAD_DIR)/trace-prog.elf
TRACE_APPEND  ?=
TRACE_SMP     ?= 1
TRACE_LINES   ?= 40

trace: $(BUILD)/tracesbi.elf $(TRACE_PAYLOAD) $(BUILD)/tools/ntrace $(BUILD)/tools/tvtrace
	@python3 scripts/trace-listing.py --fw $(BUILD)/tracesbi.elf --payload $(TRACE_PAYLOAD) \
		--ntrace $(BUILD)/tools/ntrace --tvtrace $(BUILD)/tools/tvtrace \
		--append "$(TRACE_APPEND)" --smp $(TRACE_SMP) --outdir $(BUILD)/trace --lines $(TRACE_LINES)

# make trace-linux: the test kernel unless KERNEL= (and VMLINUX=, its ELF)
# name another.
TRACE_LINUX           ?= stop,buf=0x8f000000:0x8000
TRACE_LINUX_SMP       ?= 1
TRACE_LINUX_LINES     ?= 40
TRACE_LINUX_APPEND    ?=
TRACE_LINUX_SAVE_AFTER ?=
TRACE_LINUX_KERNEL    = $(if $(KERNEL),$(KERNEL),$(BUILD)/linux/Image)
TRACE_LINUX_VMLINUX   = $(if $(VMLINUX),$(VMLINUX),$(BUILD)/linux/vmlinux)
# User-space ELFs to decode with (the test kernel's init; USER_ELVES= others).
TRACE_LINUX_USER_ELVES = $(if $(KERNEL),$(USER_ELVES),$(BUILD)/linux/initramfs/init)

.PHONY: trace-linux
trace-linux: $(BUILD)/tracesbi.elf $(BUILD)/tools/ntrace $(if $(KERNEL),,linux-kernel)
	@python3 scripts/trace-linux.py --fw $(BUILD)/tracesbi.elf --ntrace $(BUILD)/tools/ntrace \
		--kernel $(TRACE_LINUX_KERNEL) --vmlinux $(TRACE_LINUX_VMLINUX) \
		$(foreach e,$(TRACE_LINUX_USER_ELVES),--user-elf $(e)) \
		--trace "$(TRACE_LINUX)" --smp $(TRACE_LINUX_SMP) --lines $(TRACE_LINUX_LINES) \
		--append "$(TRACE_LINUX_APPEND)" --outdir $(BUILD)/trace-linux \
		$(if $(TRACE_LINUX_SAVE_AFTER),--save-after $(TRACE_LINUX_SAVE_AFTER))
