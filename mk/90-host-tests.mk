# SPDX-License-Identifier: BSD-2-Clause
# Host unit tests (cmocka), all built with ASan/UBSan.
# Fragments that come before this one (mk/NN-*.mk, NN < 90) append the test
# binaries they build to HOST_TESTS; `make test-host` runs them all.
TEST_SUITES += host
CMOCKA_LIBS := -lcmocka

.PHONY: suite-host
suite-host: $(HOST_TESTS)
	@rc=0; for t in $(HOST_TESTS); do scripts/run-cmocka.sh $$t || rc=1; done; exit $$rc
