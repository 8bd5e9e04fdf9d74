# Server peer `fastmcp`: the calculate server on FastMCP 4.2.3 (on mcp 2.3.0) over stdio (mcp.run(), both eras),
# with the lab's tool suite as far as FastMCP allows, the shapes of lab/plan/form.ts CalculateResult:
#   calculate(policy)  validated: 2025-11-25 ctx.elicit (fastmcp/server/context.py:1055-1142, no capability check of
#                      its own: the guard is the app's); 2026-07-28 the guard pattern FastMCP offers instead: the tool
#                      returns an InputRequiredResult and reads ctx.input_responses on the retry (context.py:391-410,
#                      server/mixins/mcp_operations.py:282-298); raw: ctx.session.elicit_form, the raw answer reported,
#                      never computed; unchecked: the guard skipped on purpose; url: ctx.session.elicit_url
#   fan_out(n), liveness, calculate_linked, calculate_limited, summarize, roots_count, sample_fan_out(n),
#   ask_field(kind) (the form vocabulary). On 2026-07-28 every tool but calculate is refused as FastMCP refuses it:
#   ctx.elicit raises ToolError before sending (context.py:1126-1127), the session NoBackChannelError (-32600).
# Not here, with why: calculate_resolve (Resolve/Elicit belong to mcp 2.3.0's MCPServer, mcp/server/mcpserver; FastMCP 4 has no
# resolver parameter, and its calculate already asks in both eras, by ctx.elicit or by the InputRequiredResult above).
# The server writes no events of its own (as the py server): the wire shows every request and withdrawal. What every
# Python server shares is lab/peers/python/lab_server.py and lab_request_tools.py; this file is FastMCP's own part.
# CLI: server.py   (stdin/stdout carry JSON-RPC only; logging goes to stderr)
from __future__ import annotations

import os
import sys
from typing import Any, Literal

import anyio
import mcp_types as types
from fastmcp import Context, FastMCP
from fastmcp.exceptions import ToolError
from fastmcp.server.elicitation import get_elicitation_schema, handle_elicit_accept, parse_elicit_response_type
from mcp.shared.exceptions import MCPError
from mcp.shared.message import ServerMessageMetadata
from mcp_types.version import MODERN_PROTOCOL_VERSIONS
from pydantic import ValidationError

sys.path.insert(1, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
from lab_server import (  # noqa: E402  (the Python servers' shared core)
    ELICITATION_MESSAGE, ELICITATION_TIMEOUT_S, CalculateForm, ServerSdk, by_policy, from_answer, log_to_stderr,
    protocol_error, register_suite, status, supports_form, to_json_result,
)

SERVER_NAME, SERVER_VERSION = "mcp-reentrancy-lab-fastmcp", "0.1.0"
FORM_KEY = "form"  # the one key of calculate's input_requests on 2026-07-28
MODERN_REFUSAL = "FastMCP 4.2.3 refuses ctx.elicit on 2026-07-28 (fastmcp/server/context.py:1126-1127)"
result = to_json_result(types, "structured_content")


def capabilities(ctx: Context) -> types.ClientCapabilities | None:
    """mcp/server/session.py:70-77 (both eras). FastMCP's ctx.elicit checks nothing (the guard is the app's)."""
    return ctx.session.client_capabilities


def modern(ctx: Context) -> bool:
    rc = ctx.request_context
    return rc is not None and rc.protocol_version in MODERN_PROTOCOL_VERSIONS


def related(ctx: Context) -> Any:
    return ctx.request_context._srctx.request_id  # the request's own id (FastMCP's ctx.request_id is str(id))


def refused_by_sdk(error: ValidationError) -> dict[str, Any]:
    # title CalculateForm: handle_elicit_accept's TypeAdapter refused the content (elicitation.py:368-369);
    # any other: the reply's envelope did not parse as ElicitResult (mcp/server/session.py:114-119), before it
    if error.title == CalculateForm.__name__:
        return status("invalid_content", rejectedBy="sdk")
    return protocol_error(SDK, error)


# ask_field's failures in FastMCP 4.2.3 (the form vocabulary, issue #16; lab_server.by_title reads them):
#  - before sending, get_elicitation_schema (fastmcp/server/elicitation.py:407-430) renders the model with its own
#    generator and validate_elicitation_json_schema (:395-520) raises TypeError for what it does not take: not_sent;
#  - an accept's content is validated by pydantic's TypeAdapter of the model (:328-334): its ValidationError, unwrapped;
#  - the reply's envelope is parsed first, by mcp 2.3.0 (ElicitResult.model_validate, mcp/server/session.py:114-119).
#  - on 2026-07-28 ctx.elicit raises ToolError before sending (fastmcp/server/context.py:1126-1127): re-raised, the call
#    ends isError in FastMCP's own words.


async def raw_request(ctx: Context) -> dict[str, Any]:
    """ctx.session.elicit_form: the raw action and content, never computed."""
    try:
        with anyio.fail_after(ELICITATION_TIMEOUT_S):
            answer = await ctx.session.elicit_form(ELICITATION_MESSAGE, get_elicitation_schema(CalculateForm), related(ctx))
    except (MCPError, ValidationError, TimeoutError) as error:
        return protocol_error(SDK, error)
    return status("raw_response", action=answer.action, content=answer.content)


async def validated(ctx: Context, limit_s: float = ELICITATION_TIMEOUT_S) -> dict[str, Any]:
    """ctx.elicit, the careful path (2025-11-25). On 2026-07-28 FastMCP raises ToolError before sending: re-raised
    with its source line, so the call ends isError in FastMCP's own words."""
    try:
        with anyio.fail_after(limit_s):
            answer = await ctx.elicit(ELICITATION_MESSAGE, CalculateForm)
    except ToolError as error:
        raise ToolError(f"{MODERN_REFUSAL}: {error}") from error
    except ValidationError as error:
        return refused_by_sdk(error)
    except (MCPError, TimeoutError) as error:
        return protocol_error(SDK, error)
    return from_answer(answer.action, getattr(answer, "data", None))


def form_request() -> types.InputRequiredResult:
    """The form as FastMCP 4 asks for it on 2026-07-28: an input_required result (mcp_operations.py:282-298)."""
    ask = types.ElicitRequest(params=types.ElicitRequestFormParams(
        message=ELICITATION_MESSAGE, requested_schema=get_elicitation_schema(CalculateForm)))
    return types.InputRequiredResult(input_requests={FORM_KEY: ask})


def read_round(answer: Any) -> dict[str, Any]:
    """The retry's answer, checked as ctx.elicit checks one (handle_elicit_accept), then by the app."""
    if not isinstance(answer, types.ElicitResult):
        return status("invalid_response", rejectedBy="app")
    if answer.action != "accept":
        return from_answer(answer.action, None)
    try:
        accepted = handle_elicit_accept(parse_elicit_response_type(CalculateForm), answer.content)
    except ValidationError as error:
        return refused_by_sdk(error)
    return from_answer("accept", accepted.data)


async def ping_client(ctx: Context) -> None:
    """One bounded ping, related to the call (ServerSession.send_ping takes neither)."""
    await ctx.session.send_request(types.PingRequest(), types.EmptyResult, request_read_timeout_seconds=ELICITATION_TIMEOUT_S,
                                   metadata=ServerMessageMetadata(related_request_id=related(ctx)))


# Cancellation across the callback, mcp 2.3.0's own mechanisms under FastMCP: linked: the dispatcher cancels the
# tool's scope on the client's notifications/cancelled (mcp/shared/jsonrpc_dispatcher.py:640-645), and the waiting
# form's send_raw_request sends a courtesy cancel (:443-452); limited: ctx.elicit takes no timeout (context.py:1055),
# the limit is an anyio scope, handled the same. A fan-out refused on 2026-07-28 ends in MODERN_REFUSAL's words.
SDK = ServerSdk(types=types, Context=Context, result=result, capabilities=capabilities, sdk_error=MCPError,
                code=lambda error: error.code, timeout_code=types.REQUEST_TIMEOUT, tool_error=ToolError,
                validated=validated, ping=ping_client, raw=raw_request,
                elicit_url=lambda ctx, message, url, elicitation_id: ctx.session.elicit_url(message, url, elicitation_id, related(ctx)),
                url_related=related, refusal=(ToolError, MODERN_REFUSAL))


def build() -> FastMCP:
    mcp = FastMCP(SERVER_NAME, version=SERVER_VERSION)

    @mcp.tool(description="Multiplies two integers that it asks the client for (synthetic; 3 x 7 = 21). Pushes elicitation/create in the 2025-11-25 era; returns input_required in 2026-07-28.")
    async def calculate(ctx: Context, policy: Literal["validated", "raw", "unchecked", "url"] = "validated") -> Any:
        if modern(ctx) and policy == "validated":
            # the app's guard in this era too: a client whose request envelope declares no form is not asked
            if not supports_form(SDK, ctx):
                return result(status("unsupported"))
            responses = ctx.input_responses
            if responses is None or FORM_KEY not in responses:
                return form_request()
            return result(read_round(responses[FORM_KEY]))
        return result(await by_policy(SDK, ctx, policy))

    register_suite(mcp, SDK)
    return mcp


if __name__ == "__main__":
    log_to_stderr("fastmcp server.py")
    build().run(transport="stdio", show_banner=False)
