# What the adapters on mcp 1.x share (py1's and py130's ClientSession, pydantic-ai's MCPToolset over FastMCP 3.x;
# langchain-mcp-adapters and mcp-use, which initialize with mcp's own initialize): the
# SDK's framing of a line (as its own stdio transport writes one: JSONRPCMessage, exclude_none,
# mcp/client/stdio/__init__.py:155/172), its error and its code, what its message handler is handed, and the lab's
# synthetic answers in its types. Imported by 1.x adapters only.
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from mcp import types
from mcp.shared.exceptions import McpError
try:
    from mcp.shared.message import SessionMessage
except ImportError:  # before 1.8.0 the streams carry JSONRPCMessage itself (lab/peers/py1/history.py wraps them)
    SessionMessage = None  # type: ignore[assignment,misc]

from lab_driver import Adapter
from lab_events import Events
from lab_pipe import Wire
from lab_plan import SYNTHETIC_MODEL, SYNTHETIC_ROOTS, SYNTHETIC_TEXT, SessionPlan
from lab_plan import undeclarable as plan_undeclarable


class Mcp1Adapter(Adapter):
    # The responder's own cancel scope (shared/session.py:96-101), cancelled by the loop on the peer's
    # notifications/cancelled (:403-406), which the loop can read only when the callback has returned.
    abort_reason = "the responder's scope was cancelled"
    sdk_error = McpError
    wire = Wire(parse=types.JSONRPCMessage.model_validate_json,
                dump=lambda message: message.model_dump_json(by_alias=True, exclude_none=True),
                session_message=SessionMessage)

    def code(self, error: BaseException) -> int | None:
        return error.error.code if isinstance(error, McpError) else None


def note_message(events: Events, message: Any) -> None:
    """What the 1.x loop hands the message handler (client/session.py:614-619) that the events keep: an exception,
    e.g. a late reply as RuntimeError('Received response with an unknown request ID', shared/session.py:518)."""
    if isinstance(message, Exception):
        text = " ".join(str(message).split())
        late = "unknown request ID" in text
        events.write("note", detail={"sdkMessage": text[:300], "type": type(message).__name__,
                                     **({"lateReply": True} if late else {})})


def completion() -> types.CreateMessageResult:
    """lab/plan/behaviour.ts SYNTHETIC_COMPLETION: what a sampling callback returns (no model is called)."""
    return types.CreateMessageResult(role="assistant", content=types.TextContent(type="text", text=SYNTHETIC_TEXT),
                                     model=SYNTHETIC_MODEL, stopReason="endTurn")


def synthetic_roots() -> list[types.Root]:
    return [types.Root(uri=uri, name=name) for uri, name in SYNTHETIC_ROOTS]


def undeclarable(plan: SessionPlan, framework: str) -> str | None:
    """The refusal of a plan whose elicitation declaration a framework initializing with 1.x's own initialize cannot
    make (langchain-mcp-adapters, mcp-use); None when it can."""
    return plan_undeclarable(plan, framework, "mcp/client/session.py:166-174")


def unsupported() -> types.ErrorData:
    """The SDK's own default elicitation answer (client/session.py:85-92): the callback's when no behaviour is planned."""
    return types.ErrorData(code=types.INVALID_REQUEST, message="Elicitation not supported")


def refused(what: str) -> Callable[[], types.ErrorData]:
    """The answer when the call planned no such callback: the SDK's error reply."""
    return lambda: types.ErrorData(code=types.INVALID_REQUEST, message=f"no {what} planned for this call")
