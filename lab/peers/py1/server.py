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
from pydantic import ValidationError

sys.path.insert(1, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
from lab_server import (  # noqa: E402  (the Python servers' shared core)
    ELICITATION_MESSAGE, ELICITATION_TIMEOUT_S, CalculateForm, ServerSdk, by_policy, from_answer, log_to_stderr,
    protocol_error, register_suite, status, to_json_result,
)

SERVER_NAME = "mcp-reentrancy-lab-py1"
# A limit that expires: 1.29.0's own timeout code (shared/session.py:293-303, httpx.codes.REQUEST_TIMEOUT).
TIMEOUT_CODE = int(httpx.codes.REQUEST_TIMEOUT)
result = to_json_result(types, "structuredContent")


def capabilities(ctx: Context) -> types.ClientCapabilities | None:
    """1.29.0 itself checks nothing before sending elicitation/create (server/session.py:391-418): the guard is the app's."""
    return ctx.session.client_params.capabilities if ctx.session.client_params else None


# ask_field's failures in 1.29.0 (the form vocabulary, issue #16; lab_server.by_title reads them):
#  - before sending, _validate_elicitation_schema (mcp/server/elicitation.py:52-68) takes only fields annotated
#    str|int|float|bool, a sequence of str, or an Optional/Union of those; any other annotation (Literal, AnyUrl,
#    date, a nested model, list[float]) raises TypeError: not_sent;
#  - the schema is plain model_json_schema() (:124), so an Optional field goes out as anyOf [.., null];
#  - content the model refuses raises pydantic's ValidationError itself (:134), not wrapped; any other title: the
#    reply's envelope did not parse as ElicitResult (mcp/shared/session.py:308), before the model ran;
#  - an accept without content raises ValueError('Unexpected elicitation action: accept') (:140-142).


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
                ping=ping_client, raw=raw_request, elicit_url=lambda ctx, *a: ctx.elicit_url(*a),
                url_related=lambda ctx: ctx.request_context.request_id,
                limited_words="then it gives the form up")


def build() -> FastMCP:
    mcp = FastMCP(SERVER_NAME)

    @mcp.tool(description="Multiplies two integers that it asks the client for (synthetic; 3 x 7 = 21).")
    async def calculate(ctx: Context, policy: Literal["validated", "raw", "unchecked", "url"] = "validated") -> types.CallToolResult:
        return result(await by_policy(SDK, ctx, policy))

    register_suite(mcp, SDK)
    return mcp


if __name__ == "__main__":
    log_to_stderr("py1 server.py")
    build().run()  # stdio (server/fastmcp/server.py run -> run_stdio_async)
