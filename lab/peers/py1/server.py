# Server peer `py1`: the calculate server on the MCP Python SDK 1.29.0 FastMCP over stdio (mcp.run()), with the
# lab's tool suite as far as 1.29.0 allows, the shapes of lab/plan/form.ts CalculateResult:
#   calculate(policy)  validated: ctx.elicit (server/fastmcp/server.py:1199-1231 -> server/elicitation.py:105-142);
#                      raw: ctx.session.elicit_form, the raw answer reported, never computed; unchecked: the guard
#                      skipped on purpose; url: ctx.elicit_url, then notifications/elicitation/complete
#   fan_out(n), liveness, calculate_linked, calculate_limited (the cancellation tools, lab/peers/ts1/cancel-tools.ts),
#   summarize, roots_count, sample_fan_out(n), ask_field(kind) (the form vocabulary: 1.29.0 refuses every non-primitive
#   field before sending); what every Python server shares is lab/peers/python/lab_server.py and lab_request_tools.py
# Not here, with why: calculate_resolve (Resolve/Elicit are 2.x: mcp.server.mcpserver does not exist in 1.29.0).
# CLI: server.py   (stdin/stdout carry JSON-RPC only; the SDK's logging goes to stderr)
from __future__ import annotations

import logging
import os
import sys
from typing import Any, Literal

import anyio
import httpx
from mcp import types
from mcp.server.fastmcp import Context, FastMCP
from mcp.server.fastmcp.exceptions import ToolError
from mcp.shared.exceptions import McpError
from mcp.shared.message import ServerMessageMetadata
from pydantic import BaseModel, ValidationError

sys.path.insert(1, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
from lab_request_tools import register_request_tools  # noqa: E402  summarize, roots_count, sample_fan_out
from lab_server import (  # noqa: E402  (the Python servers' shared core)
    ELICITATION_MESSAGE, ELICITATION_TIMEOUT_S, URL_ACCEPT_MEANING, URL_IDS, URL_MESSAGE, CalculateForm, ServerSdk,
    from_answer, protocol_error, register_ask_field, register_cancel_tools, register_fan_out_and_liveness, status,
    supports_form, to_json_result,
)

SERVER_NAME = "mcp-reentrancy-lab-py1"
# A limit that expires: 1.29.0's own timeout code (shared/session.py:293-303, httpx.codes.REQUEST_TIMEOUT).
TIMEOUT_CODE = int(httpx.codes.REQUEST_TIMEOUT)
result = to_json_result(types, "structuredContent")


def client_elicitation(ctx: Context) -> types.ElicitationCapability | None:
    params = ctx.session.client_params
    return params.capabilities.elicitation if params is not None else None


def capabilities(ctx: Context) -> types.ClientCapabilities | None:
    """1.29.0 itself checks nothing before sending elicitation/create (server/session.py:391-418): the guard is the app's."""
    return ctx.session.client_params.capabilities if ctx.session.client_params else None


def ask_field_error(error: BaseException, model: type[BaseModel]) -> dict[str, Any]:
    """ctx.elicit's failures in 1.29.0 (the 2025-11-25 form vocabulary, issue #16), as an AskFieldResult:
     - before sending, _validate_elicitation_schema (mcp/server/elicitation.py:52-68) takes only fields annotated
       str|int|float|bool, a sequence of str, or an Optional/Union of those; any other annotation (Literal, AnyUrl,
       date, a nested model, list[float]) raises TypeError: not_sent;
     - the schema is plain model_json_schema() (:124), so an Optional field goes out as anyOf [.., null];
     - content the model refuses raises pydantic's ValidationError itself (:134), not wrapped; any other title: the
       reply's envelope did not parse as ElicitResult (mcp/shared/session.py:308), before the model ran;
     - an accept without content raises ValueError('Unexpected elicitation action: accept') (:140-142)."""
    if isinstance(error, TypeError):
        return {"status": "not_sent", "reason": " ".join(str(error).split())}
    if isinstance(error, ValidationError):
        return {"status": "invalid_content" if error.title == model.__name__ else "invalid_response", "rejectedBy": "sdk"}
    if isinstance(error, ValueError):
        return {"status": "invalid_response", "rejectedBy": "sdk"}
    if isinstance(error, McpError):
        return {"status": "protocol_error", "code": error.error.code}
    raise error


async def raw_request(ctx: Context) -> dict[str, Any]:
    """ctx.session.elicit_form: the raw action and content, never computed."""
    try:
        with anyio.fail_after(ELICITATION_TIMEOUT_S):
            answer = await ctx.session.elicit_form(ELICITATION_MESSAGE, CalculateForm.model_json_schema(),
                                                   related_request_id=ctx.request_context.request_id)
    except (McpError, ValidationError, TimeoutError) as error:
        return protocol_error(SDK, error)
    return status("raw_response", action=answer.action, content=answer.content)


async def validated(ctx: Context, limit_s: float = ELICITATION_TIMEOUT_S) -> dict[str, Any]:
    """ctx.elicit, the careful path. Its errors (elicitation.py:105-142): the envelope refused by send_request's
    ElicitResult.model_validate (shared/session.py:308); content the model refuses (ValidationError, :135); an
    accept without content falls through to ValueError('Unexpected elicitation action') (:141-142)."""
    try:
        with anyio.fail_after(limit_s):
            answer = await ctx.elicit(ELICITATION_MESSAGE, CalculateForm)
    except ValidationError as error:
        if error.title == CalculateForm.__name__:
            return status("invalid_content", rejectedBy="sdk")
        return protocol_error(SDK, error)
    except ValueError:
        return status("invalid_response", rejectedBy="sdk")
    except (McpError, TimeoutError) as error:
        return protocol_error(SDK, error)
    return from_answer(answer.action, getattr(answer, "data", None))


async def by_url(ctx: Context) -> dict[str, Any]:
    elicitation = client_elicitation(ctx)
    if elicitation is None or elicitation.url is None:
        return status("unsupported")
    elicitation_id = f"calculate-url-{next(URL_IDS)}"
    try:
        with anyio.fail_after(ELICITATION_TIMEOUT_S):
            answer = await ctx.elicit_url(URL_MESSAGE, f"https://lab.example.invalid/calculate/{elicitation_id}", elicitation_id)
    except (McpError, ValidationError, TimeoutError) as error:
        return protocol_error(SDK, error)
    if answer.action != "accept":
        return status("declined" if answer.action == "decline" else "cancelled")
    await ctx.session.send_elicit_complete(elicitation_id, related_request_id=ctx.request_context.request_id)
    return status("url_accepted", action="accept", meaning=URL_ACCEPT_MEANING)


async def ping_client(ctx: Context) -> None:
    """One bounded ping, related to the call (ServerSession.send_ping takes neither, server/session.py:455-460)."""
    with anyio.fail_after(ELICITATION_TIMEOUT_S):
        await ctx.session.send_request(types.ServerRequest(types.PingRequest()), types.EmptyResult,
                                       metadata=ServerMessageMetadata(related_request_id=ctx.request_context.request_id))


# Cancellation across the callback, with 1.29.0's own mechanisms: linked: the server's loop cancels the responder's
# scope on the client's notifications/cancelled (shared/session.py:403-406 -> RequestResponder.cancel, :138-151),
# which the tool runs in; cancelling send_request writes nothing for the waiting form (its finally, :310-314).
# limited: ctx.elicit takes no timeout (server/fastmcp/server.py:1199); on the anyio scope's expiry send_request
# writes nothing either, so the form is abandoned, not withdrawn (no notifications/cancelled).
SDK = ServerSdk(types=types, Context=Context, result=result, capabilities=capabilities, sdk_error=McpError,
                code=lambda error: error.error.code, timeout_code=TIMEOUT_CODE, tool_error=ToolError, validated=validated,
                ping=ping_client, ask_field_error=ask_field_error, limited_words="then it gives the form up")


def build() -> FastMCP:
    mcp = FastMCP(SERVER_NAME)

    @mcp.tool(description="Multiplies two integers that it asks the client for (synthetic; 3 x 7 = 21).")
    async def calculate(ctx: Context, policy: Literal["validated", "raw", "unchecked", "url"] = "validated") -> types.CallToolResult:
        if policy == "url":
            return result(await by_url(ctx))
        if policy != "unchecked" and not supports_form(SDK, ctx):
            return result(status("unsupported"))
        return result(await (validated(ctx) if policy == "validated" else raw_request(ctx)))

    register_fan_out_and_liveness(mcp, SDK)
    register_ask_field(mcp, SDK)
    register_cancel_tools(mcp, SDK)
    register_request_tools(mcp, SDK)
    return mcp


if __name__ == "__main__":
    logging.basicConfig(stream=sys.stderr, level=logging.WARNING, format="py1 server.py %(name)s: %(message)s")
    build().run()  # stdio (server/fastmcp/server.py run -> run_stdio_async)
