"""A bounded log: what a client can make the server say is said once per interval.

A client that opens sockets faster than the server has files for made asyncio's accept loop
log a traceback per attempt (282 MB in 80 s), and every invalid UTF-8 frame made uvicorn log
an ERROR traceback. :class:`LogLimiter` sits on the loggers of asyncio, uvicorn and the
server: a resource error (out of files, buffers, memory) is logged once per interval with
how often it happened and without its traceback, a client's invalid UTF-8 is an INFO line,
and any one message repeated more than a few times in an interval is counted, not repeated.

>>> import logging, io
>>> stream = io.StringIO()
>>> logger = logging.getLogger("log_limits_doctest")
>>> logger.addHandler(logging.StreamHandler(stream)); logger.propagate = False
>>> clock = [0.0]
>>> limiter = LogLimiter(interval=10.0, repeats=2, clock=lambda: clock[0])
>>> limiter.install(logger)
>>> for _ in range(1000):
...     logger.warning("Invalid HTTP request received.")
>>> clock[0] = 11.0
>>> logger.warning("Invalid HTTP request received.")
>>> print(stream.getvalue().strip())
Invalid HTTP request received.
Invalid HTTP request received.
Invalid HTTP request received. (998 more in the last 11 s)
>>> limiter.uninstall(logger)
"""

from __future__ import annotations

import errno
import logging
import time
from collections.abc import Callable
from typing import Any

RESOURCE_ERRNOS = frozenset({errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM})
"""The process or the machine is out of something: files, buffers, memory."""

QUIET_MESSAGES = {"Invalid UTF-8 sequence received from client.":
                  "a client sent invalid UTF-8 in a text frame; its connection was closed (1007)"}
"""uvicorn's messages about a client's mistake, logged with a traceback: one INFO line."""

LOGGERS = ("asyncio", "uvicorn.error", "unogame.server")


def resource_errno(record: logging.LogRecord) -> int | None:
    """The errno of a resource error this record reports, else None."""
    error = record.exc_info[1] if record.exc_info else None
    if error is None and isinstance(record.args, dict):  # asyncio's handler: a context
        error = record.args.get("exception")
    if isinstance(error, OSError) and error.errno in RESOURCE_ERRNOS:
        return error.errno
    return None


class LogLimiter(logging.Filter):
    """A filter for the loggers a client can make talk (see the module's doc)."""

    def __init__(self, interval: float = 10.0, repeats: int = 5,
                 clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__()
        self.interval = interval
        self.repeats = repeats
        self.clock = clock
        self._windows: dict[tuple[str, str], list[float]] = {}
        """Per message: [start of its interval, said in it, held back in it]."""
        self.held_back = 0

    def filter(self, record: logging.LogRecord) -> bool:
        code = resource_errno(record)
        if code is not None:
            record.msg = f"out of system resources ({errno.errorcode.get(code, code)}): " \
                         f"{record.getMessage().splitlines()[0][:200]}"
            record.args = None
            record.exc_info = None
            record.exc_text = None
            key = (record.name, "resource")
            allowed = 1
        else:
            quiet = QUIET_MESSAGES.get(str(record.msg))
            if quiet is not None:
                record.msg, record.args = quiet, None
                record.exc_info = record.exc_text = None
                record.levelno, record.levelname = logging.INFO, "INFO"
            key = (record.name, str(record.msg))
            allowed = self.repeats
        return self._within(key, allowed, record)

    def _within(self, key: tuple[str, str], allowed: int, record: logging.LogRecord) -> bool:
        now = self.clock()
        window = self._windows.get(key)
        if window is None or now - window[0] >= self.interval:
            held = int(window[2]) if window is not None else 0
            since = now - window[0] if window is not None else 0.0
            if len(self._windows) > 1000:  # many different messages: start over
                self._windows.clear()
            self._windows[key] = [now, 1, 0]
            if held:
                record.msg = f"{record.getMessage()} ({held} more in the last {since:.0f} s)"
                record.args = None
            return True
        if window[1] < allowed:
            window[1] += 1
            return True
        window[2] += 1
        self.held_back += 1
        return False

    def install(self, *loggers: logging.Logger) -> None:
        for logger in loggers or [logging.getLogger(name) for name in LOGGERS]:
            if self not in logger.filters:
                logger.addFilter(self)

    def uninstall(self, *loggers: logging.Logger) -> None:
        for logger in loggers or [logging.getLogger(name) for name in LOGGERS]:
            logger.removeFilter(self)


def every_so_often(logger: logging.Logger, interval: float) -> Callable[..., None]:
    """A log call that speaks at most once per ``interval`` s, with how often it was held."""
    state = {"last": float("-inf"), "held": 0}

    def say(level: int, message: str, *args: Any) -> None:
        now = time.monotonic()
        if now - state["last"] < interval:
            state["held"] += 1
            return
        held = int(state["held"])
        state["last"], state["held"] = now, 0
        suffix = f" ({held} more since)" if held else ""
        logger.log(level, message + suffix, *args)

    return say
