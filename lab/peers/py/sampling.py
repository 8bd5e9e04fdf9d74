# The lab's sampling callback for every Python client driver (py, py1), whatever its SDK: enter,
# think for the call's planned time, leave, each recorded where it happens. The driver builds its own
# SDK's CreateMessageResult from SYNTHETIC_TEXT and SYNTHETIC_MODEL (plan.py): no model is called.
from __future__ import annotations

from typing import Any

import anyio

from driver_events import Events
from plan import Sampling


async def sampling_turn(events: Events, request_id: Any, n: int, call: str, plan: Sampling | None) -> bool:
    """True when the callback thought and may answer; False when no sampling is planned for the call."""
    ids: dict[str, Any] = {"id": request_id, "method": "sampling/createMessage"}
    where: dict[str, Any] = {"n": n, "call": call}
    events.write("callback.entered", **ids, detail=where)
    if plan is None:
        events.write("callback.left", **ids, detail={**where, "error": "ErrorData: no sampling planned"})
        return False
    await anyio.sleep(plan.delayMs / 1000)
    events.write("callback.left", **ids, detail={**where, "action": "accept"})
    return True
