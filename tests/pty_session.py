"""A program run in a real pseudo-terminal, as a person runs it: keys typed, and the screen
read as the program draws it (escape sequences left out). Waits are on what appears, with a
bound, never fixed sleeps."""

from __future__ import annotations

import os
import re
import select
import signal
import struct
import time

ESCAPES = re.compile(rb"\x1b(?:\[[0-9;?<=>!]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)|[PX^_][^\x1b]*\x1b\\|[()][0-9A-Za-z]|[=>78cDEHM])")


class Terminal:
    def __init__(self, argv: list[str], *, cwd=None, size=(80, 24), env=None, limit=120.0):
        self.argv, self.cwd, self.size, self.limit = argv, cwd, size, limit
        self.env = {**os.environ, "TERM": "xterm-256color", "COLUMNS": str(size[0]),
                    "LINES": str(size[1]), **(env or {})}
        self.seen = b""  # everything drawn so far, escapes removed
        self.pid = self.fd = None
        self.code = None

    def __enter__(self):
        import fcntl
        import termios

        pid, fd = os.forkpty()
        if pid == 0:  # the child: the terminal's size, then the program
            try:
                fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", self.size[1],
                                                               self.size[0], 0, 0))
                if self.cwd:
                    os.chdir(self.cwd)
                os.execvpe(self.argv[0], self.argv, self.env)
            finally:
                os._exit(127)
        self.pid, self.fd = pid, fd
        return self

    def __exit__(self, *exc):
        if self.code is None:
            try:
                os.kill(self.pid, signal.SIGKILL)
                os.waitpid(self.pid, 0)
            except OSError:
                pass
        os.close(self.fd)

    def _read(self, timeout: float) -> bool:
        ready, _, _ = select.select([self.fd], [], [], timeout)
        if not ready:
            return True
        try:
            data = os.read(self.fd, 65536)
        except OSError:  # the program ended: the terminal is closed
            return False
        if not data:
            return False
        self.seen += ESCAPES.sub(b"", data)
        return True

    def wait_for(self, text: str) -> None:
        """Read until ``text`` has been drawn (after what earlier waits found)."""
        want = text.encode()
        end = time.monotonic() + self.limit
        while want not in self.seen:
            if time.monotonic() > end or not self._read(0.2):
                tail = self.seen[-2000:].decode(errors="replace")
                raise AssertionError(f"{text!r} never appeared; the screen ended with:\n{tail}")
        self.seen = self.seen[self.seen.index(want) + len(want):]

    def type(self, keys: str) -> None:
        os.write(self.fd, keys.encode())

    def wait_exit(self) -> int:
        end = time.monotonic() + self.limit
        while time.monotonic() < end:
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                self.code = os.waitstatus_to_exitcode(status)
                return self.code
            self._read(0.2)
        raise AssertionError("the program did not end")
