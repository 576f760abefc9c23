# SPDX-License-Identifier: BSD-2-Clause
# N-Trace test corpus, round-trip suite, fuzz targets and benchmark.
#
#   make ntrace-corpus   build the corpus programs (RV64 and RV32) and their
#                        .pcs traces (QEMU single-step runs, cached by ELF hash)
#   make test-ntrace     encode → decode round trip of every trace under every
#                        option set, plus dump/stats on every .nex
#   make test-fuzz       libFuzzer targets, bounded time each
#   make bench-ntrace    bits/instruction and codec speed table (markdown),
#                        the reference's t1 example beside its published sizes,
#                        then the encoder's block entry beside its record entry

NT_DIR      := tests/ntrace
# The N-Trace reference code's t1 example (data only) for bench-ntrace's
# compression table: next to the checkout, else the workplace's copy.
NEXRV_T1    ?= $(firstword $(wildcard $(abspath ../shared/data/nexrv-t1) /work/shared/data/nexrv-t1) \
                 ../shared/data/nexrv-t1)
NT_BUILD    := $(BUILD)/ntrace
NT_PROGS    := sort crc32 recurse interp strings matmul lists traps timer irqstorm
NT_XLENS    := rv64 rv32
NT_COMMON   := $(NT_DIR)/common/crt0.S $(NT_DIR)/common/rt.c
NT_LDSCRIPT := $(NT_DIR)/common/link.ld

NT_CFLAGS   := -std=gnu11 -Wall -Wextra -Werror -O2 -g -ffreestanding \
               -fno-builtin -fno-pic -fno-stack-protector \
               -nostdlib -static -T $(NT_LDSCRIPT)
# Linker relaxation turns calls into JAL / C.JAL as in ordinary code (the
# linker script defines no __global_pointer$, so nothing becomes
# gp-relative).  These programs keep AUIPC+JALR calls instead, the pattern
# the sequential-jump optimisation (N-Trace 9.1) is for.
NT_NORELAX_PROGS := recurse strings
NT_NORELAX  := -mno-relax -Wl,--no-relax
NT_ARCH_rv64 := -march=rv64imac_zicsr -mabi=lp64 -mcmodel=medany
NT_ARCH_rv32 := -march=rv32imac_zicsr -mabi=ilp32
# libgcc of the matching multilib (the _zicsr suffix defeats multilib lookup).
NT_LIBGCC_rv64 = $(shell $(CC_RV) -march=rv64imac -mabi=lp64 -print-libgcc-file-name)
NT_LIBGCC_rv32 = $(shell $(CC_RV) -march=rv32imac -mabi=ilp32 -print-libgcc-file-name)

NT_ELFS := $(foreach x,$(NT_XLENS),$(foreach p,$(NT_PROGS),$(NT_BUILD)/$(x)/$(p).elf))
NT_PCS  := $(NT_ELFS:.elf=.pcs)

define nt_corpus_rule
$(NT_BUILD)/$(1)/%.elf: $(NT_DIR)/progs/%.c $(NT_COMMON) $(NT_DIR)/common/rt.h $(NT_LDSCRIPT) \
		mk/70-ntrace-tests.mk
	@mkdir -p $$(dir $$@)
	$$(call quiet,CC)$(CC_RV) $(NT_CFLAGS) $(NT_ARCH_$(1)) $$(if $$(filter $$*,$$(NT_NORELAX_PROGS)),$$(NT_NORELAX)) \
		-o $$@ $(NT_COMMON) $$< $$(NT_LIBGCC_$(1))
endef
$(foreach x,$(NT_XLENS),$(eval $(call nt_corpus_rule,$(x))))

$(NT_BUILD)/%.pcs: $(NT_BUILD)/%.elf $(NT_DIR)/gen-trace.sh scripts/qemu-log-to-pcs.py \
		scripts/tsbi/qemulog.py scripts/tsbi/elf.py $(NT_DIR)/check-pcs.py
	$(call quiet,TRACE)$(NT_DIR)/gen-trace.sh $< $@

.PHONY: ntrace-corpus suite-ntrace
ntrace-corpus: $(NT_ELFS) $(NT_PCS)
# Keep the ELFs: the tests and the benchmark read them next to their traces.
.SECONDARY: $(NT_ELFS)

# ---- Round trip ---------------------------------------------------------

NTRACE_TOOL_BIN := $(BUILD)/tools/ntrace

TEST_SUITES += ntrace
suite-ntrace: $(NT_ELFS) $(NTRACE_TOOL_BIN)
	@$(NT_DIR)/run-suite.sh $(NTRACE_TOOL_BIN) $(NT_BUILD) $(NT_ELFS)

# ---- Benchmark --------------------------------------------------------------
# tools/ntrace-bench links the codec library and the tool core (loading and
# classifying a trace), built optimised and without sanitizers.

NTRACE_BENCH_BIN := $(BUILD)/tools/ntrace-bench

$(NTRACE_BENCH_BIN): tools/ntrace-bench/ntrace_bench.c $(NTRACE_TOOL_CORE_SRCS) \
		$(NTRACE_TOOL_LIBSRCS) $(NTRACE_TOOL_HDRS)
	@mkdir -p $(@D)
	$(call quiet,HOSTCC)$(HOSTCC) $(HOST_CFLAGS) $(NTRACE_TOOL_INC) -o $@ $< \
		$(NTRACE_TOOL_CORE_SRCS) $(NTRACE_TOOL_LIBSRCS) $(NTRACE_TOOL_LIBS)

.PHONY: bench-ntrace
bench-ntrace: $(NTRACE_BENCH_BIN) $(NTRACE_TOOL_BIN) $(NT_PCS)
	@rc=0; scripts/bench-ntrace.sh $(NTRACE_BENCH_BIN) $(NT_PCS) || rc=1; echo; \
	scripts/bench-ntrace-t1.sh $(NTRACE_TOOL_BIN) $(NEXRV_T1) || rc=1; echo; \
	tools/ntrace-bench/bench-blocks.sh $(NTRACE_BENCH_BIN) $(NT_PCS) || rc=1; exit $$rc
