# SPDX-License-Identifier: BSD-2-Clause
"""QEMU's human monitor (HMP) over a unix socket (`-monitor
unix:PATH,server,nowait`): commands one by one, each after the prompt.

Part of the tsbi package: shared by tests/trace/trace-run.py,
scripts/trace-save.py and the trace tests.
"""

import socket
import time


class MonitorError(RuntimeError):
    pass


def monitor(sock_path, commands, timeout=30):
    """Send HMP commands one by one, each after the (qemu) prompt; returns
    each command's output (the text before the next prompt)."""
    deadline = time.time() + timeout
    while True:
        try:
            s = socket.socket(socket.AF_UNIX)
            s.connect(sock_path)
            break
        except OSError:
            if time.time() > deadline:
                raise
            time.sleep(0.1)
    s.settimeout(timeout)

    def until_prompt():
        data = b''
        while not data.endswith(b'(qemu) '):
            chunk = s.recv(65536)
            if not chunk:
                return data
            data += chunk
        return data

    outputs = []
    try:
        until_prompt()
        for cmd in commands:
            s.sendall(cmd.encode() + b'\n')
            out = until_prompt()
            if b'rror' in out or b'invalid' in out:
                raise MonitorError(f'monitor: {cmd}: {out[-200:]!r}')
            outputs.append(out.decode(errors='replace'))
    finally:
        s.close()
    return outputs
