# SPDX-License-Identifier: BSD-2-Clause
# S-mode payloads (tests/target): the on-target test kernel, the demo and the
# SBI-call benchmark; the QEMU suites that run them on tracesbi and, as the
# differential oracle, on Debian's OpenSBI; `make run` and `make debug`.

TARGET_DIR     := tests/target
PAYLOAD_DIR    := $(BUILD)/payloads
TARGET_OBJDIR  := $(PAYLOAD_DIR)/obj
OPENSBI_FW     ?= /usr/lib/riscv64-linux-gnu/opensbi/generic/fw_jump.elf

# Freestanding S-mode C; -fno-tree-loop-distribute-patterns keeps memset and
# memcpy from being compiled into calls to themselves.
TARGET_CFLAGS  := $(RV_CFLAGS) -fno-tree-loop-distribute-patterns \
                  -I$(TARGET_DIR) -I. -MMD -MP
TARGET_LDFLAGS := $(RV_LDFLAGS) -T $(TARGET_DIR)/link.ld

# Shared runtime of every payload.
TARGET_RT_SRCS := crt0.S console.c libc.c sbi.c trap.c platform.c harts.c
TARGET_TEST_SRCS := main.c reboot.c t_base.c t_legacy.c t_pmp.c t_time.c t_hsm.c \
                    t_ipi.c t_rfence.c t_pmu.c t_trace.c t_dbcn.c t_suspend.c t_srst.c \
                    t_redirect.c hostile.c hostile_ecall.S harts_soak.c
TARGET_TEST_SRCS += t_fwft.c t_susp.c t_dbtr.c t_sse.c sse_entry.S
TARGET_TEST_SRCS += t_ctr.c t_tci.c tci_msg.c

target_objs = $(patsubst %,$(TARGET_OBJDIR)/%.o,$(basename $(1)))

TARGET_RT_OBJS   := $(call target_objs,$(TARGET_RT_SRCS))
TARGET_TEST_OBJS := $(call target_objs,$(TARGET_TEST_SRCS))

$(TARGET_OBJDIR)/%.o: $(TARGET_DIR)/%.c
	@mkdir -p $(@D)
	$(call quiet,CC)$(CC_RV) $(TARGET_CFLAGS) -c $< -o $@

$(TARGET_OBJDIR)/%.o: $(TARGET_DIR)/%.S
	@mkdir -p $(@D)
	$(call quiet,CC)$(CC_RV) $(TARGET_CFLAGS) -c $< -o $@

$(PAYLOAD_DIR)/target-tests.elf: $(TARGET_RT_OBJS) $(TARGET_TEST_OBJS) $(TARGET_DIR)/link.ld
	$(call quiet,CC)$(CC_RV) $(TARGET_LDFLAGS) -o $@ $(TARGET_RT_OBJS) $(TARGET_TEST_OBJS) $(RV_LIBS)

-include $(wildcard $(TARGET_OBJDIR)/*.d)

ALL_TARGETS += $(PAYLOAD_DIR)/target-tests.elf

# ---- suites ----------------------------------------------------------------
TEST_SUITES += target target-opensbi

.PHONY: suite-target suite-target-opensbi
suite-target: $(PAYLOAD_DIR)/target-tests.elf $(BUILD)/tracesbi.elf
	@scripts/run-target-tests.sh tracesbi $(BUILD)/tracesbi.elf $(PAYLOAD_DIR)/target-tests.elf

suite-target-opensbi: $(PAYLOAD_DIR)/target-tests.elf
	@scripts/run-target-tests.sh opensbi $(OPENSBI_FW) $(PAYLOAD_DIR)/target-tests.elf

# The hostile S-mode runs (scripts/run-hostile-tests.sh): the seeded SBI
# fuzzer on every hart and the many-hart IPI/fence/HSM/PMU soak; short in
# make test, long in make soak.
HOSTILE_CALLS      ?= 100000
HOSTILE_SEED       ?= 1
HARTS_SECONDS      ?= 5
SOAK_HOSTILE_CALLS ?= 10000000
SOAK_HARTS_SECONDS ?= 60
TEST_SUITES += hostile
SOAK_TARGETS += soak-hostile
.PHONY: suite-hostile soak-hostile
suite-hostile: $(PAYLOAD_DIR)/target-tests.elf $(BUILD)/tracesbi.elf
	@scripts/run-hostile-tests.sh $(BUILD)/tracesbi.elf $(PAYLOAD_DIR)/target-tests.elf \
		$(HOSTILE_SEED) $(HOSTILE_CALLS) $(HARTS_SECONDS)

soak-hostile: $(PAYLOAD_DIR)/target-tests.elf $(BUILD)/tracesbi.elf
	@scripts/run-hostile-tests.sh $(BUILD)/tracesbi.elf $(PAYLOAD_DIR)/target-tests.elf \
		$(HOSTILE_SEED) $(SOAK_HOSTILE_CALLS) $(SOAK_HARTS_SECONDS)

# ---- demo payload, make run / make debug ---------------------------------
$(PAYLOAD_DIR)/demo.elf: $(TARGET_RT_OBJS) $(TARGET_OBJDIR)/demo.o $(TARGET_DIR)/link.ld
	$(call quiet,CC)$(CC_RV) $(TARGET_LDFLAGS) -o $@ $(TARGET_RT_OBJS) $(TARGET_OBJDIR)/demo.o $(RV_LIBS)

ALL_TARGETS += $(PAYLOAD_DIR)/demo.elf

# KERNEL= replaces the demo (any -kernel image), INITRD= and APPEND= are
# passed through, SMP= sets the hart count.
RUN_KERNEL = $(if $(KERNEL),$(KERNEL),$(PAYLOAD_DIR)/demo.elf)
RUN_QEMU_ARGS = --smp $(SMP) --bios $(BUILD)/tracesbi.elf --kernel $(RUN_KERNEL) \
                $(if $(INITRD),--initrd $(INITRD)) $(if $(APPEND),--append "$(APPEND)")

.PHONY: run debug
run: $(BUILD)/tracesbi.elf $(RUN_KERNEL)
	QEMU=$(QEMU) scripts/qemu-run.sh $(RUN_QEMU_ARGS) --timeout 0 --stdin

# QEMU waits for gdb (-s -S) in the background, its console on this terminal
# (no console input); it is killed when gdb exits.
debug: $(BUILD)/tracesbi.elf $(RUN_KERNEL)
	@QEMU=$(QEMU) scripts/qemu-run.sh $(RUN_QEMU_ARGS) --timeout 0 -- -s -S & qemu=$$!; \
	trap 'kill $$qemu 2>/dev/null' EXIT INT TERM; \
	gdb-multiarch -q $(BUILD)/tracesbi.elf -ex 'target remote :1234'; \
	kill $$qemu 2>/dev/null; wait $$qemu 2>/dev/null; true

# Differential report: every test whose outcome differs between tracesbi and
# OpenSBI (not a suite: DIFF lines, exit 0).
.PHONY: target-diff
target-diff: $(PAYLOAD_DIR)/target-tests.elf $(BUILD)/tracesbi.elf
	@scripts/run-target-tests.sh diff $(BUILD)/tracesbi.elf $(OPENSBI_FW) $(PAYLOAD_DIR)/target-tests.elf
