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
                  -I$(TARGET_DIR) -Ifirmware/include -MMD -MP
TARGET_LDFLAGS := $(RV_LDFLAGS) -Wl,--no-warn-rwx-segments -T $(TARGET_DIR)/link.ld

# Shared runtime of every payload.
TARGET_RT_SRCS := crt0.S console.c libc.c sbi.c trap.c platform.c harts.c
TARGET_TEST_SRCS := main.c reboot.c t_base.c t_legacy.c t_pmp.c t_time.c t_hsm.c \
                    t_ipi.c t_rfence.c t_dbcn.c t_suspend.c t_srst.c

target_objs = $(patsubst %,$(TARGET_OBJDIR)/%.o,$(basename $(1)))

TARGET_RT_OBJS   := $(call target_objs,$(TARGET_RT_SRCS))
TARGET_TEST_OBJS := $(call target_objs,$(TARGET_TEST_SRCS))

$(TARGET_OBJDIR)/%.o: $(TARGET_DIR)/%.c
	@mkdir -p $(@D)
	$(CC_RV) $(TARGET_CFLAGS) -c $< -o $@

$(TARGET_OBJDIR)/%.o: $(TARGET_DIR)/%.S
	@mkdir -p $(@D)
	$(CC_RV) $(TARGET_CFLAGS) -c $< -o $@

$(PAYLOAD_DIR)/target-tests.elf: $(TARGET_RT_OBJS) $(TARGET_TEST_OBJS) $(TARGET_DIR)/link.ld
	$(CC_RV) $(TARGET_LDFLAGS) -o $@ $(TARGET_RT_OBJS) $(TARGET_TEST_OBJS) $(RV_LIBS)

-include $(wildcard $(TARGET_OBJDIR)/*.d)

ALL_TARGETS += $(PAYLOAD_DIR)/target-tests.elf

# ---- suites ----------------------------------------------------------------
TEST_SUITES += target target-opensbi

.PHONY: test-target test-target-opensbi
test-target: $(PAYLOAD_DIR)/target-tests.elf $(BUILD)/tracesbi.elf
	@scripts/run-target-tests.sh tracesbi $(BUILD)/tracesbi.elf $(PAYLOAD_DIR)/target-tests.elf

test-target-opensbi: $(PAYLOAD_DIR)/target-tests.elf
	@scripts/run-target-tests.sh opensbi $(OPENSBI_FW) $(PAYLOAD_DIR)/target-tests.elf
