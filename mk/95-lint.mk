# SPDX-License-Identifier: BSD-2-Clause
# Static analysis: cppcheck and clang-tidy (configuration: .clang-tidy and
# scripts/lint.sh), zero findings; part of `make test` as suite lint.
TEST_SUITES += lint

.PHONY: lint suite-lint
lint: $(BUILD)/tracesbi.elf
	@scripts/lint.sh
# The suite: the static analysis, then the build system's own promises
# (scripts/check-build.sh: SPDX lines, package check, quiet builds, suite
# summary lines).
suite-lint: $(BUILD)/tracesbi.elf
	@rc=0; scripts/lint.sh || rc=1; scripts/check-build.sh || rc=1; exit $$rc
