# SPDX-License-Identifier: BSD-2-Clause
# Real-client boot tests: a minimal Linux 6.1 (built from Debian's
# linux-source-6.1, cached under $(BUILD)/linux) and Debian's S-mode U-Boot,
# booted on 4 harts under tracesbi, or under any firmware given as FW=...
# (e.g. `make test-linux FW=/usr/lib/riscv64-linux-gnu/opensbi/generic/fw_dynamic.elf`).
# test-linux-opensbi / test-uboot-opensbi run the same checks under Debian's
# OpenSBI: when those pass and the tracesbi suites fail, the firmware is at
# fault, not the harness.  test-linux-boards boots the same kernel on QEMU
# sifive_u and spike.

BOOT_TEST_FW    := $(or $(FW),$(BUILD)/tracesbi.elf)
BOOT_OPENSBI_FW ?= /usr/lib/riscv64-linux-gnu/opensbi/generic/fw_jump.elf
# Build tracesbi first only when it is the firmware under test.
BOOT_TEST_FW_DEP := $(filter $(BUILD)/tracesbi.elf,$(BOOT_TEST_FW))

TEST_SUITES += linux linux-opensbi linux-boards uboot uboot-opensbi

.PHONY: linux-kernel clean-linux suite-linux suite-linux-opensbi suite-linux-boards suite-uboot \
	suite-uboot-opensbi

# The script decides from checksums whether anything needs rebuilding.
linux-kernel:
	@BUILD=$(BUILD) scripts/build-linux.sh || \
	    { echo "FAIL: linux/kernel-build: scripts/build-linux.sh failed (logs in $(BUILD)/linux)"; exit 1; }

# Drops the kernel cache (sources, objects, Image); `make clean` keeps it.
clean-linux:
	rm -rf $(BUILD)/linux

# Three boots: the kernel's timer through Sstc, then through SBI TIME (the
# second one is where init counts SBI set_timer calls with perf), then
# Linux's own perf tool (stat, record, report) under -icount.  Under
# tracesbi, then programs traced from Linux (suite-linux-trace,
# mk/73-linux-trace.mk; its trace components are tracesbi's).
suite-linux: linux-kernel $(BOOT_TEST_FW_DEP)
	@rc=0; for timer in sstc sbi perf-tool; do \
	    BUILD=$(BUILD) QEMU=$(QEMU) SMP=$(SMP) FW=$(BOOT_TEST_FW) \
	    scripts/run-linux-test.sh $(notdir $(basename $(BOOT_TEST_FW))) $$timer || rc=1; \
	done; \
	if [ -n "$(BOOT_TEST_FW_DEP)" ]; then $(MAKE) --no-print-directory suite-linux-trace || rc=1; \
	else echo "INFO: linux: the trace PMU tests need tracesbi's trace components: not run under $(BOOT_TEST_FW)"; fi; \
	exit $$rc

# OpenSBI 1.1 has 16 firmware counters (tracesbi 32), the same 18 hardware ones.
# LINUX_OPENSBI_BOOTS="sstc sbi perf-tool" adds the perf tool's boot, which
# only reports what perf gets there (INFO lines, docs/PMU.md's OpenSBI
# column): under OpenSBI 1.1 it takes about 200 s, so make test leaves it out.
# The trace initramfs goes with it: OpenSBI's DT has no trace component, and
# init checks that the trace PMU module refuses to load (ENODEV).
LINUX_OPENSBI_BOOTS ?= sstc sbi
suite-linux-opensbi: linux-kernel
	@rc=0; for timer in $(LINUX_OPENSBI_BOOTS); do \
	    BUILD=$(BUILD) QEMU=$(QEMU) SMP=$(SMP) FW=$(BOOT_OPENSBI_FW) PMU_COUNTERS="16 18" \
	    QEMU_EXTRA="-initrd $(BUILD)/linux/trace-perf.cpio" APPEND_EXTRA=tracesbi.tracemodule=nodev \
	    scripts/run-linux-test.sh opensbi $$timer || rc=1; \
	done; exit $$rc

# The same kernel and init on QEMU's other boards (docs/SBI.md "Boards"):
# sifive_u (2 U54s; the E51 parked) and spike (2 harts); their harts have no
# Sstc, so the timer goes through SBI.  About 2 s each.
suite-linux-boards: linux-kernel $(BOOT_TEST_FW_DEP)
	@rc=0; for machine in sifive_u spike; do \
	    BUILD=$(BUILD) QEMU=$(QEMU) MACHINE=$$machine FW=$(BOOT_TEST_FW) \
	    scripts/run-linux-test.sh $(notdir $(basename $(BOOT_TEST_FW))) sbi || rc=1; \
	done; exit $$rc

suite-uboot: $(BOOT_TEST_FW_DEP)
	@BUILD=$(BUILD) QEMU=$(QEMU) SMP=$(SMP) FW=$(BOOT_TEST_FW) scripts/run-uboot-test.sh $(notdir $(basename $(BOOT_TEST_FW)))

suite-uboot-opensbi:
	@BUILD=$(BUILD) QEMU=$(QEMU) SMP=$(SMP) FW=$(BOOT_OPENSBI_FW) scripts/run-uboot-test.sh opensbi
