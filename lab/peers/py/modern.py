# The 2026-07-28 era on the Python SDK 2.3.0 client (peer `py-modern`): the high-level `Client` pinned
# with mode="2026-07-28", the SDK's own way to pin an era (mcp/client/client.py:335-342). ClientSession
# has no call that drives input_required rounds (its call_tool raises on one unless allow_input_required,
# session.py:1105); Client.call_tool does, through the same elicitation callback (client.py:910-931).
from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from mcp import Client
from mcp_types import InputRequiredResult, InputResponses

# (kind "input_required" | "answered", round, keys): the round as the SDK's driver handles it.
RoundFn = Callable[[str, int, list[str]], None]


class RoundObservingClient(Client):
    """Client with the input_required rounds made visible. 2.3.0 has no public hook for them: every
    round goes through `_drive_input_required(first, retry)` (client.py:910-931), and `retry` is the one
    path each retry leg takes (_input_required.py:95). Wrapping it sees each round's keys when the SDK
    handles them and changes nothing the SDK sends (the lab's ts2 RoundObservingClient does the same)."""

    on_round: RoundFn | None = None  # not a dataclass field: this subclass is not a @dataclass

    async def _drive_input_required(
        self,
        first: Any,
        retry: Callable[[InputResponses | None, str | None], Awaitable[Any]],
    ) -> Any:
        if not isinstance(first, InputRequiredResult):
            return await super()._drive_input_required(first, retry)
        round_no = 1
        self._round("input_required", round_no, list(first.input_requests or {}))

        async def observed(responses: InputResponses | None, state: str | None) -> Any:
            nonlocal round_no
            self._round("answered", round_no, list(responses or {}))
            result = await retry(responses, state)
            if isinstance(result, InputRequiredResult):
                round_no += 1
                self._round("input_required", round_no, list(result.input_requests or {}))
            return result

        return await super()._drive_input_required(first, observed)

    def _round(self, kind: str, round_no: int, keys: list[str]) -> None:
        if self.on_round is not None:
            self.on_round(kind, round_no, keys)


class GivenStreams:
    """Streams the driver already owns (lab_pipe.own_stdio) as a Client Transport: an async context manager
    yielding the (read, write) pair (mcp/client/_transport.py); leaving it closes nothing of its own."""

    def __init__(self, read: Any, write: Any) -> None:
        self.streams = (read, write)

    async def __aenter__(self) -> Any:
        return self.streams

    async def __aexit__(self, *exc: object) -> None:
        return None
