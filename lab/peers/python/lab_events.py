# The one writer of the lab's DriverEvent vocabulary (lab/plan/driver-events.ts) for every Python client
# driver (lab_driver.py and its adapters): pure standard library and pydantic, so each venv can import it from here.
from __future__ import annotations

import json
import logging
import sys
import threading
import time
from typing import Any

from pydantic import ValidationError

KINDS = frozenset({
    "call.started", "callback.entered", "callback.left", "callback.aborted", "nested.sent", "nested.ok",
    "nested.failed", "tool.result", "protocol.negotiated", "round.input_required", "round.answered", "note",
})


class Events:
    """One JSON object per line, flushed; t_ns is read as the line is written, right when the thing happens."""

    def __init__(self, path: str) -> None:
        self._file = open(path, "w", encoding="utf-8")
        self._lock = threading.Lock()  # a framework may run its callbacks on a thread of its own (strands)

    def write(self, kind: str, *, id: int | str | None = None, method: str | None = None,
              detail: dict[str, Any] | None = None) -> None:
        if kind not in KINDS:  # the lab would refuse the line; say so where it is written
            raise ValueError(f"not a DriverEvent kind: {kind!r}")
        with self._lock:  # t_ns read under the lock: the lines stay in time order
            event = {"t_ns": time.monotonic_ns(), "kind": kind, "id": id, "method": method, "detail": detail}
            self._file.write(json.dumps({key: value for key, value in event.items() if value is not None}) + "\n")
            self._file.flush()

    def close(self) -> None:
        self._file.close()


class SdkLogNotes(logging.Handler):
    """Keeps the mcp 2.x dispatcher's own word on late replies and abandoned waiters as `note` events."""

    KEPT = ("dropping response", "waiter for request id", "courtesy cancel", "gave up")

    def __init__(self, events: Events) -> None:
        super().__init__(logging.DEBUG)
        self.events = events

    def emit(self, record: logging.LogRecord) -> None:
        message = record.getMessage()
        if record.levelno >= logging.WARNING or message.startswith(self.KEPT):
            self.events.write("note", detail={"sdkLog": message, "logger": record.name, "level": record.levelname})


# nested.failed's type when the lab's bound ended the whole session, as no limit could end the wait (a callback
# blocking the loop its request needs); lab/check/wait-end.ts reads it. Not lab_backstop.py's LabBound: that ends a wait.
SESSION_BOUND = "LabSessionBound"


def bound_ended(events: Events, method: str, bound_s: float, why: str) -> None:
    """The lab's bound ended a nested request's wait that nothing else could (a callback blocking the loop its
    request needs): written by the driver's own thread as that request's end, not by the blocked callback."""
    ms = round(bound_s * 1000)
    events.write("nested.failed", method=method, detail={
        "code": None, "type": SESSION_BOUND, "boundMs": ms, "message": f"the lab's bound of {ms} ms ended the session: {why}"})


def one_line(error: BaseException) -> str:
    """The failure as one stderr line (the lab quotes a driver's last stderr line); pydantic's own text spans many."""
    if isinstance(error, ValidationError):
        fields = ", ".join(f"{'.'.join(map(str, e['loc'])) or '(root)'}: {e['msg']}" for e in error.errors())
        return f"{error.error_count()} validation errors for {error.title}: {fields}"
    return " ".join(str(error).split())


def keep_sdk_log(events: Events, prog: str, logger: str = "mcp.shared.jsonrpc_dispatcher") -> None:
    """Warnings to stderr, prefixed; the mcp 2.x dispatcher's own word on late replies and abandoned waiters
    (DEBUG lines among them) kept as `note` events by SdkLogNotes."""
    logging.basicConfig(stream=sys.stderr, format=f"{prog} %(name)s: %(message)s")
    logging.getLogger().handlers[0].setLevel(logging.WARNING)
    logging.getLogger(logger).setLevel(logging.DEBUG)
    logging.getLogger(logger).addHandler(SdkLogNotes(events))
