# SPDX-License-Identifier: BSD-2-Clause
"""Result lines of a test suite written in Python, as scripts/run-tests.sh
counts them: one "PASS: <prefix>: name" / "FAIL: <prefix>: name: detail"
line per case.

    results = suite.Results('qemulog')
    results.report(got == want, 'a case', f'got {got}')
    sys.exit(results.status())
"""


class Results:
    def __init__(self, prefix):
        self.prefix = prefix
        self.failed = False

    def report(self, ok, name, detail=''):
        if ok:
            print(f'PASS: {self.prefix}: {name}')
        else:
            self.failed = True
            print(f'FAIL: {self.prefix}: {name}: {detail}')

    def status(self):
        """The exit status: 1 when a case failed."""
        return 1 if self.failed else 0
