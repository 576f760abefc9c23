# SPDX-License-Identifier: BSD-2-Clause
# Throughput of what people read from a trace (make bench-views, part of
# make bench): decode alone, decode --listing, profile, in million decoded
# instructions per second over the N-Trace corpus (mk/70-ntrace-tests.mk
# builds the programs and their traces).  Table in
# build/results/bench-views.md.

NTRACE_VIEWS_BENCH := $(BUILD)/tools/ntrace-views-bench

$(NTRACE_VIEWS_BENCH): tools/ntrace-bench/views_bench.c $(NTRACE_TOOL_CORE_SRCS) \
		$(NTRACE_TOOL_LIBSRCS) $(NTRACE_TOOL_HDRS)
	@mkdir -p $(@D)
	$(call quiet,HOSTCC)$(HOSTCC) $(HOST_CFLAGS) $(NTRACE_TOOL_INC) -o $@ $< \
		$(NTRACE_TOOL_CORE_SRCS) $(NTRACE_TOOL_LIBSRCS) $(NTRACE_TOOL_LIBS)

BENCH_TARGETS += bench-views

.PHONY: bench-views
bench-views: $(NTRACE_VIEWS_BENCH) $(NT_PCS)
	@mkdir -p $(BUILD)/results
	@$(NTRACE_VIEWS_BENCH) $(foreach p,$(NT_PCS),$(p:.pcs=.elf) $(p)) \
		>$(BUILD)/results/bench-views.md.tmp && \
		mv $(BUILD)/results/bench-views.md.tmp $(BUILD)/results/bench-views.md; \
	rc=$$?; cat $(BUILD)/results/bench-views.md; \
	echo "(build/results/bench-views.md)"; exit $$rc
