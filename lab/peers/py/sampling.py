# The lab's sampling and roots callbacks for every Python client driver (py, py1), whatever its SDK:
# enter, think for the call's planned time, send the planned nested request through the driver's own
# `nested` (which records nested.sent/ok/failed), leave, each recorded where it happens. A failed
# nested request changes nothing else. The driver builds its own SDK's result from plan.py's synthetic
# answers (SYNTHETIC_TEXT/SYNTHETIC_MODEL, SYNTHETIC_ROOTS): no model is called.
from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import anyio

from driver_events import Events
from plan import Nested, Sampling


async def plain_turn(events: Events, request_id: Any, method: str, n: int, call: str, plan: Sampling | None,
                     nested: Callable[[Nested], Awaitable[object]]) -> bool:
    """True when the callback ran its plan and may answer; False when none is planned for the call."""
    ids: dict[str, Any] = {"id": request_id, "method": method}
    where: dict[str, Any] = {"n": n, "call": call}
    events.write("callback.entered", **ids, detail=where)
    if plan is None:
        events.write("callback.left", **ids, detail={**where, "error": f"ErrorData: no {method} callback planned"})
        return False
    await anyio.sleep(plan.delayMs / 1000)
    if plan.nested is not None:
        await nested(plan.nested)
    events.write("callback.left", **ids, detail={**where, "action": "accept"})
    return True
