# SPDX-License-Identifier: BSD-2-Clause
# tracesbi — top-level build.  Each part of the tree has its own fragment in
# mk/*.mk; this file holds the shared settings, the default goal and the
# aggregate targets (test, bench, deps).

# The usual build variables of OpenSBI, Linux and U-Boot: O= (the output
# directory; BUILD= is its older name), CROSS_COMPILE= (CROSS=), V=1
# (below); a board's image: make fit-image BOARD=, make PAYLOAD=.
O          ?= build
BUILD      ?= $(O)
CROSS_COMPILE ?= riscv64-unknown-elf-
CROSS      ?= $(CROSS_COMPILE)
CC_RV      := $(CROSS)gcc
OBJCOPY_RV := $(CROSS)objcopy
OBJDUMP_RV := $(CROSS)objdump
HOSTCC     ?= gcc
QEMU       ?= qemu-system-riscv64
SMP        ?= 4

# Firmware and S-mode payloads: freestanding, no FPU code, no linker relaxation
# (gp belongs to S-mode: the firmware must never use it as a global pointer).
# The firmware relaxes calls only (FW_RELAX, mk/80-firmware.mk).
RV_CFLAGS  := -std=gnu11 -Wall -Wextra -Werror -O2 -g -ffreestanding -iquote . \
              -fno-common -fno-builtin-printf -fno-stack-protector -fno-pic \
              -march=rv64imac_zicsr_zifencei -mabi=lp64 -mcmodel=medany \
              -mno-relax -ffunction-sections -fdata-sections
RV_LDFLAGS := -nostdlib -static -Wl,--gc-sections -Wl,--no-relax -Wl,--no-warn-rwx-segments
RV_LIBS    := -lgcc
# libgcc of the multilib that matches RV_CFLAGS (the default one is rv64gc/lp64d).
RV_LIBGCC  := $(shell $(CC_RV) -march=rv64imac -mabi=lp64 -print-libgcc-file-name 2>/dev/null)

# Quiet builds: one short line per step ("  CC       build/fw/firmware/trap.o");
# V=1 prints every command whole, as Linux, U-Boot and OpenSBI do.  A
# recipe line starts with $(call quiet,TAG); in a define template,
# $$(call quiet,TAG).
V ?= 0
ifeq ($(V),1)
quiet =
else
quiet = @printf '  %-8s %s\n' '$(1)' '$@';
endif

# Host tools and unit tests.
HOST_CFLAGS := -std=gnu11 -Wall -Wextra -Werror -O2 -g -iquote .
# A host program that links firmware code with registered items (DT
# drivers, hooks: firmware/core/hook.h) gets the firmware's tables.
HOST_HOOKS_LD      := linker/host-hooks.ld linker/hook-tables.ld
HOST_HOOKS_LDFLAGS := -Wl,-T,linker/host-hooks.ld
HOST_SAN    := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all

.DEFAULT_GOAL := all

# Every goal needs Debian's packages (cross compilers, QEMU, mkimage,
# dtc, ...): a top-level make installs what is missing before it builds
# anything, whatever the goal (make, make run, make fit-image, make trace,
# make test-<suite>; scripts/deps.sh, apt-get as root).  `make deps` does
# only that; NO_DEPS_CHECK=1 skips it (DEPS_SH: the script, for tests).
DEPS_SH ?= scripts/deps.sh
ifeq ($(MAKELEVEL)$(NO_DEPS_CHECK),0)
ifeq ($(filter deps deps-check clean clean-linux,$(MAKECMDGOALS)),)
DEPS_STATUS := $(shell $(DEPS_SH) check >/dev/null 2>&1 || $(DEPS_SH) install >&2; echo $$?)
ifneq ($(DEPS_STATUS),0)
$(error the Debian packages tracesbi needs are missing and could not be installed: run scripts/deps.sh install as root)
endif
endif
endif

# Each fragment appends to these.
ALL_TARGETS :=
TEST_SUITES :=
BENCH_TARGETS :=
SOAK_TARGETS :=

include $(sort $(wildcard mk/*.mk))

.PHONY: all test bench soak deps clean
all: $(ALL_TARGETS)

# make test: every suite in TEST_SUITES through the runner, which prints the
# one summary line and fails when any suite fails.
#
# The suites' test binaries, and the N-Trace corpus's QEMU traces (cached
# by tests/ntrace/gen-trace.sh), are built first, two at a time: ASan builds
# of the host tests take minutes one by one.  The suites then run one after
# another, so their output stays whole.  A failed build here is only
# logged: the suite that needs the file builds it again and reports it.
TEST_PREBUILD = $(HOST_TESTS) $(FUZZ_BINS) $(NT_PCS) $(NTRACE_TOOL_BIN)
.PHONY: test-prebuild
test-prebuild: $(TEST_PREBUILD)

test: deps-check
	@mkdir -p $(BUILD)/logs; \
	$(MAKE) --no-print-directory -j2 test-prebuild >$(BUILD)/logs/test-prebuild.log 2>&1 || \
		echo "== building the test binaries failed (log in $(BUILD)/logs/test-prebuild.log): each suite builds what it needs"
	@scripts/run-tests.sh $(TEST_SUITES)

# make test-<suite>: one suite through the same runner, so that it too ends
# with its own "N passed, M failed" line (its rule in mk/ is suite-<suite>;
# the runner streams its output and keeps a log in build/logs).
TEST_SUITE_TARGETS := $(addprefix test-,$(TEST_SUITES))
.PHONY: $(TEST_SUITE_TARGETS)
$(TEST_SUITE_TARGETS): test-%: deps-check
	@scripts/run-tests.sh --one $*

bench: deps-check $(BENCH_TARGETS)

# make soak: the long runs (fuzzers for 10 million executions each, ...);
# hours, not part of make test.
soak: deps-check
	@rc=0; for t in $(SOAK_TARGETS); do $(MAKE) --no-print-directory $$t || rc=1; done; exit $$rc

deps:
	@$(DEPS_SH) install

deps-check:
	@$(DEPS_SH) check || $(DEPS_SH) install

clean:
	rm -rf $(BUILD)/fw $(BUILD)/payloads $(BUILD)/host $(BUILD)/tools $(BUILD)/results \
	       $(BUILD)/tracesbi.elf $(BUILD)/tracesbi.bin
