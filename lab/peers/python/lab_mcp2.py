# What the adapters on mcp 2.x share (py's ClientSession and Client, FastMCP's Client over mcp 2.3.0): the SDK's
# framing of a line (as its own stdio transport writes one: jsonrpc_message_adapter, exclude_unset), its error and
# its code, its logging, and the lab's synthetic answers in its types. Imported by 2.x adapters only.
from __future__ import annotations

from typing import Any

import mcp_types as types
from mcp.shared.exceptions import MCPError
from mcp.shared.message import SessionMessage

from lab_driver import Adapter
from lab_events import Events, keep_sdk_log
from lab_pipe import Wire
from lab_plan import SYNTHETIC_MODEL, SYNTHETIC_ROOTS, SYNTHETIC_TEXT, Nested


class Mcp2Adapter(Adapter):
    # peer_cancel_mode="interrupt" (the default): on notifications/cancelled for this request the SDK cancels the
    # handler's scope (jsonrpc_dispatcher.py:640-645); an answer after that would be dropped (:749).
    abort_reason = "the handler's scope was cancelled"
    sdk_error = MCPError
    wire = Wire(parse=lambda line: types.jsonrpc_message_adapter.validate_json(line, by_name=False),
                dump=lambda message: message.model_dump_json(by_alias=True, exclude_unset=True),
                session_message=SessionMessage)

    def code(self, error: BaseException) -> int | None:
        return error.code if isinstance(error, MCPError) else None

    def log(self, events: Events) -> None:
        keep_sdk_log(events, self.prog)


def completion() -> types.CreateMessageResult:
    """lab/plan/behaviour.ts SYNTHETIC_COMPLETION: what a sampling callback returns (no model is called)."""
    return types.CreateMessageResult(role="assistant", content=types.TextContent(type="text", text=SYNTHETIC_TEXT),
                                     model=SYNTHETIC_MODEL, stop_reason="endTurn")


def synthetic_roots() -> list[types.Root]:
    return [types.Root(uri=uri, name=name) for uri, name in SYNTHETIC_ROOTS]


async def send_nested(session: Any, nested: Nested) -> set[str]:
    """The nested request on an mcp 2.x ClientSession, with the SDK's own per-request timeout (MCPError
    REQUEST_TIMEOUT on expiry: jsonrpc_dispatcher.py:421-442 in 2.3.0, :425 in 2.1.1)."""
    is_list = nested.method == "tools/list"
    request: types.ClientRequest = types.ListToolsRequest() if is_list else types.PingRequest()
    result = await session.send_request(request, types.ListToolsResult if is_list else types.EmptyResult,
                                        request_read_timeout_seconds=nested.timeoutMs / 1000)
    return {tool.name for tool in result.tools} if isinstance(result, types.ListToolsResult) else set()
