# SPDX-License-Identifier: BSD-2-Clause
# Static analysis: cppcheck and clang-tidy (configuration: .clang-tidy and
# scripts/lint.sh), zero findings; part of `make test` as suite lint.
TEST_SUITES += lint

.PHONY: lint suite-lint
lint suite-lint:
	@scripts/lint.sh
