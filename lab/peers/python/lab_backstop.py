# The lab's backstop on a nested request whose framework sets no limit on it (langchain-mcp-adapters' and mcp-use's
# sessions on mcp 1.30.0 get no read timeout: their SDK waits forever, mcp/shared/session.py:284-291). As the kotlin
# driver's bounded() (lab/peers/jvm/kotlin/Main.kt), 1 s after the plan's limit: what ended the wait is then the
# lab's, and lab/check/wait-end.ts reads it from nested.failed's type (LabBound) and its words.
from __future__ import annotations

import anyio

from lab_driver import NestedSend
from lab_plan import Nested

BACKSTOP_AFTER_MS = 1000


class LabBound(Exception):
    """The lab's backstop ended the wait: no limit of the framework's or its SDK's did."""


async def backstopped(nested: Nested, send: NestedSend) -> set[str]:
    """send(nested), ended by the backstop if nothing else ends it first (the callback's loop is free: only the
    receive loop that would read the reply is blocked, so the scope's deadline fires)."""
    bound_ms = nested.timeoutMs + BACKSTOP_AFTER_MS
    with anyio.move_on_after(bound_ms / 1000):
        return await send(nested)
    raise LabBound(f"the lab's bound of {bound_ms} ms ended the wait: no SDK limit on this request")
