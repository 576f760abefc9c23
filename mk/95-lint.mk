# Static analysis: cppcheck and clang-tidy (configuration: .clang-tidy and
# scripts/lint.sh), zero findings; part of `make test` as suite lint.
TEST_SUITES += lint

.PHONY: lint test-lint
lint test-lint:
	@scripts/lint.sh
