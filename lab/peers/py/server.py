# Server peer `py`: an mcp 2.3.0 MCPServer over stdio (mcp.run(), both protocol eras) mirroring the ts1 server:
# calculate(policy), calculate_resolve, fan_out(n), liveness, with lab/form.ts CalculateResult shapes;
# policy url mirrors lab/peers/ts1/url-mode.ts (ctx.elicit_url, then notifications/elicitation/complete);
# ask_field(kind): one field of the 2025-11-25 form vocabulary (issue #16); summarize, roots_count,
# sample_fan_out(n): requests other than a form. What every Python server shares is lab/peers/python/lab_server.py
# and lab_request_tools.py; this file is 2.3.0's own part (its ServerSdk, calculate and its careful path).
# CLI: server.py   (stdin/stdout carry JSON-RPC only; the SDK's logging goes to stderr)
from __future__ import annotations

import os
import sys
from typing import Annotated, Any, Literal

import anyio
import mcp_types as types
from mcp.server.elicitation import ElicitationResult, render_elicitation_schema
from mcp.server.mcpserver import Context, Elicit, MCPServer, Resolve
from mcp.server.mcpserver.exceptions import ToolError
from mcp.shared.exceptions import MCPError
from mcp.shared.message import ServerMessageMetadata
from pydantic import BaseModel, ValidationError

sys.path.insert(1, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
from lab_request_tools import register_request_tools  # noqa: E402  summarize, roots_count, sample_fan_out
from lab_server import (  # noqa: E402  (the Python servers' shared core)
    ELICITATION_MESSAGE, ELICITATION_TIMEOUT_S, CalculateForm, ServerSdk, by_policy, from_answer, log_to_stderr,
    protocol_error, register_ask_field, register_cancel_tools, register_fan_out_and_liveness, status, supports_form,
    to_json_result,
)

SERVER_NAME, SERVER_VERSION = "mcp-reentrancy-lab-py", "0.1.0"
result = to_json_result(types, "structured_content")


def ask_field_error(error: BaseException, model: type[BaseModel]) -> dict[str, Any]:
    """ctx.elicit's failures in 2.3.0, as an AskFieldResult."""
    if isinstance(error, TypeError):
        # render_elicitation_schema (mcp/server/elicitation.py:75-100): the model renders outside the
        # spec's PrimitiveSchemaDefinition, refused before anything is sent.
        return {"status": "not_sent", "reason": " ".join(str(error).split())}
    if isinstance(error, ValidationError):
        # send_request (mcp/server/session.py:118-122): the reply's envelope did not parse, e.g. a
        # content value outside str|int|float|bool|list[str]|None. Before ctx.elicit's own check.
        return {"status": "invalid_response", "rejectedBy": "sdk"}
    if isinstance(error, ValueError):
        # elicit_with_validation (elicitation.py:131-139): content the model refused, or none at all.
        refused = isinstance(error.__cause__, ValidationError)
        return {"status": "invalid_content" if refused else "invalid_response", "rejectedBy": "sdk"}
    if isinstance(error, MCPError):
        return {"status": "protocol_error", "code": error.code}
    raise error


async def raw_request(ctx: Context) -> dict[str, Any]:
    """Low-level elicitation/create: reports the raw action and content, never computes."""
    request = types.ElicitRequest(params=types.ElicitRequestFormParams(
        message=ELICITATION_MESSAGE, requested_schema=render_elicitation_schema(CalculateForm)))
    try:
        answer = await ctx.session.send_request(
            request, types.ElicitResult, request_read_timeout_seconds=ELICITATION_TIMEOUT_S,
            metadata=ServerMessageMetadata(related_request_id=ctx.request_context.request_id))
    except (MCPError, ValidationError) as error:
        return protocol_error(SDK, error)
    return status("raw_response", action=answer.action, content=answer.content)


async def validated(ctx: Context, limit_s: float = ELICITATION_TIMEOUT_S) -> dict[str, Any]:
    try:
        with anyio.fail_after(limit_s):
            answer = await ctx.elicit(ELICITATION_MESSAGE, CalculateForm)
    except ValidationError as error:  # the result envelope itself did not parse
        return protocol_error(SDK, error)
    except ValueError as error:
        # elicit_with_validation: accept without content, or content the model refused.
        # Either way the SDK refused the answer, not the app.
        if isinstance(error.__cause__, ValidationError):
            return status("invalid_content", rejectedBy="sdk")
        return status("invalid_response", rejectedBy="sdk")
    except (MCPError, TimeoutError) as error:
        return protocol_error(SDK, error)
    return from_answer(answer.action, getattr(answer, "data", None))


async def ask_form(ctx: Context) -> Elicit[CalculateForm] | None:
    """Resolver: asks for the form, or (client without form elicitation) resolves to None, sending nothing."""
    return Elicit(ELICITATION_MESSAGE, CalculateForm) if supports_form(SDK, ctx) else None


async def ping_client(ctx: Context) -> None:
    """One bounded ping, related to the call, so the form is not the session's first server request."""
    await ctx.session.send_request(
        types.PingRequest(), types.EmptyResult, request_read_timeout_seconds=ELICITATION_TIMEOUT_S,
        metadata=ServerMessageMetadata(related_request_id=ctx.request_context.request_id))


# Cancellation across the callback (issue #18), with 2.3.0's own mechanisms: linked: the dispatcher runs each inbound
# request in its own cancel scope and cancels it on the peer's notifications/cancelled (peer_cancel_mode "interrupt",
# shared/jsonrpc_dispatcher.py:640-645); the form's send_raw_request, cancelled while it waits, sends a courtesy
# notifications/cancelled for the form (:443-452). limited: ctx.elicit takes no timeout (mcpserver/context.py:196);
# the caller's anyio scope expires as a caller cancel: the same courtesy cancel, then TimeoutError (-32001, as ts1).
SDK = ServerSdk(types=types, Context=Context, result=result, capabilities=lambda ctx: ctx.client_capabilities,
                sdk_error=MCPError, code=lambda error: error.code, timeout_code=types.REQUEST_TIMEOUT, tool_error=ToolError,
                validated=validated, ping=ping_client, raw=raw_request, elicit_url=lambda ctx, *a: ctx.elicit_url(*a),
                url_related=lambda ctx: ctx.request_id, ask_field_error=ask_field_error)


def build() -> MCPServer:
    mcp = MCPServer(SERVER_NAME, version=SERVER_VERSION)

    @mcp.tool(description="Multiplies two integers that it asks the client for (synthetic; 3 x 7 = 21).")
    async def calculate(ctx: Context, policy: Literal["validated", "raw", "unchecked", "url"] = "validated") -> types.CallToolResult:
        return result(await by_policy(SDK, ctx, policy))

    @mcp.tool(description="calculate through a Resolve(...) parameter: elicitation/create or input_required (synthetic).")
    async def calculate_resolve(
        form: Annotated[ElicitationResult[CalculateForm], Resolve(ask_form)],
    ) -> types.CallToolResult:
        # An accept whose content the model refuses never reaches this body: the SDK's resolver
        # raises a ToolError, and the call ends as an isError result.
        if form.action == "accept" and form.data is None:
            return result(status("unsupported"))
        return result(from_answer(form.action, form.data))

    register_ask_field(mcp, SDK)
    register_fan_out_and_liveness(mcp, SDK)
    register_request_tools(mcp, SDK)
    return mcp


if __name__ == "__main__":
    log_to_stderr("server.py")
    server = build()
    register_cancel_tools(server, SDK)  # registered last, after the request tools (tools/list's order)
    server.run()
