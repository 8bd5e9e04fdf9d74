# Server peer `fastmcp`: the calculate server on FastMCP 4.0.10 (on mcp 2.3.0) over stdio (mcp.run(), both eras),
# with the lab's tool suite as far as FastMCP allows, the shapes of lab/plan/form.ts CalculateResult:
#   calculate(policy)  validated: 2025-11-25 ctx.elicit (fastmcp/server/context.py:1017-1104, no capability check of
#                      its own: the guard is the app's); 2026-07-28 the guard pattern FastMCP offers instead: the tool
#                      returns an InputRequiredResult and reads ctx.input_responses on the retry (context.py:378-397,
#                      server/mixins/mcp_operations.py:282-298); raw: ctx.session.elicit_form, the raw answer reported,
#                      never computed; unchecked: the guard skipped on purpose; url: ctx.session.elicit_url
#   fan_out(n), liveness, calculate_linked, calculate_limited, summarize, roots_count, sample_fan_out(n),
#   ask_field(kind) (vocabulary.py). On 2026-07-28 every tool but calculate is refused as FastMCP refuses it:
#   ctx.elicit raises ToolError before sending (context.py:1088-1089), the session NoBackChannelError (-32600).
# Not here, with why: calculate_resolve (Resolve/Elicit belong to mcp 2.3.0's MCPServer, mcp/server/mcpserver; FastMCP 4 has no
# resolver parameter, and its calculate already asks in both eras, by ctx.elicit or by the InputRequiredResult above).
# The server writes no events of its own (as the py server): the wire shows every request and withdrawal.
# CLI: server.py   (stdin/stdout carry JSON-RPC only; logging goes to stderr)
from __future__ import annotations

import itertools
import json
import logging
import os
import sys
from collections.abc import Awaitable, Callable
from functools import partial
from typing import Annotated, Any, Literal

import anyio
import mcp_types as types
from fastmcp import Context, FastMCP
from fastmcp.exceptions import ToolError
from fastmcp.server.elicitation import get_elicitation_schema, handle_elicit_accept, parse_elicit_response_type
from mcp.shared.exceptions import MCPError
from mcp.shared.message import ServerMessageMetadata
from mcp_types.version import MODERN_PROTOCOL_VERSIONS
from pydantic import BaseModel, ConfigDict, Field, ValidationError

sys.path.append(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "py"))
from request_tools import register_request_tools  # noqa: E402  (shared with the py and py1 servers)
import vocabulary  # noqa: E402  lab/peers/fastmcp/vocabulary.py, next to this file

SERVER_NAME, SERVER_VERSION = "mcp-reentrancy-lab-fastmcp", "0.1.0"
ELICITATION_MESSAGE = "Synthetic arithmetic inputs only: how many units, and the value of one unit?"
FAN_OUT_MESSAGE = "Synthetic arithmetic inputs only"
FAN_OUT_DEFAULT = 8
ELICITATION_TIMEOUT_S = 10.0  # bound on every wait for the client's answer, as ts1's 10 s
FORM_KEY = "form"  # the one key of calculate's input_requests on 2026-07-28
URL_MESSAGE = "Synthetic: open this link to continue (nothing real happens there)."
URL_ACCEPT_MEANING = ("the user agreed to open the link; it does not say that anything there was done or finished, "
                      "and nothing was computed")
URL_IDS = itertools.count(1)
MODERN_REFUSAL = "FastMCP 4.0.10 refuses ctx.elicit on 2026-07-28 (fastmcp/server/context.py:1088-1089)"


class CalculateForm(BaseModel):
    # strict ints, no extra keys: handle_elicit_accept validates an accept with this very model (elicitation.py:329-331)
    model_config = ConfigDict(strict=True, extra="forbid")
    units: int = Field(ge=1, le=10, description="How many units (1..10)")
    unit_value: int = Field(ge=1, le=100, description="Value of one unit (1..100)")


def app_check(content: dict[str, Any]) -> tuple[int, int] | None:
    """The app's own strict check, kept whatever the SDK did: exact keys, real ints (no bool), ranges."""
    if set(content) != {"units", "unit_value"}:
        return None
    units, value = content["units"], content["unit_value"]
    if type(units) is not int or type(value) is not int or not (1 <= units <= 10 and 1 <= value <= 100):
        return None
    return units, value


def result(data: dict[str, Any]) -> types.CallToolResult:
    return types.CallToolResult(content=[types.TextContent(type="text", text=json.dumps(data))], structured_content=data)


def status(name: str, **extra: Any) -> dict[str, Any]:
    return {"status": name, "computed": False, "value": None, **extra}


def capabilities(ctx: Context) -> types.ClientCapabilities | None:
    return ctx.session.client_capabilities  # mcp/server/session.py:70-77 (both eras)


def supports_form(ctx: Context) -> bool:
    """Form declared; a bare `elicitation: {}` counts as form. FastMCP's ctx.elicit checks nothing (the app's guard)."""
    caps = capabilities(ctx)
    elicitation = caps.elicitation if caps is not None else None
    return elicitation is not None and (elicitation.form is not None or elicitation.url is None)


def modern(ctx: Context) -> bool:
    rc = ctx.request_context
    return rc is not None and rc.protocol_version in MODERN_PROTOCOL_VERSIONS


def related(ctx: Context) -> Any:
    return ctx.request_context._srctx.request_id  # the request's own id (FastMCP's ctx.request_id is str(id))


def protocol_error(error: BaseException) -> dict[str, Any]:
    if isinstance(error, TimeoutError):
        return status("protocol_error", code=types.REQUEST_TIMEOUT)
    return status("protocol_error", code=error.code if isinstance(error, MCPError) else 0)


def from_answer(action: str, data: Any) -> dict[str, Any]:
    """Decline and cancel end the call even with content attached; only a valid accept computes."""
    if action == "decline":
        return status("declined")
    if action == "cancel":
        return status("cancelled")
    checked = app_check(data.model_dump() if isinstance(data, BaseModel) else data)
    if checked is None:
        return status("invalid_content", rejectedBy="app")
    return {"status": "calculated", "computed": True, "value": checked[0] * checked[1]}


def refused_by_sdk(error: ValidationError) -> dict[str, Any]:
    # title CalculateForm: handle_elicit_accept's TypeAdapter refused the content (elicitation.py:330-331);
    # any other: the reply's envelope did not parse as ElicitResult (mcp/server/session.py:114-119), before it
    if error.title == CalculateForm.__name__:
        return status("invalid_content", rejectedBy="sdk")
    return protocol_error(error)


async def raw_request(ctx: Context) -> dict[str, Any]:
    """ctx.session.elicit_form: the raw action and content, never computed."""
    try:
        with anyio.fail_after(ELICITATION_TIMEOUT_S):
            answer = await ctx.session.elicit_form(ELICITATION_MESSAGE, get_elicitation_schema(CalculateForm), related(ctx))
    except (MCPError, ValidationError, TimeoutError) as error:
        return protocol_error(error)
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
        return protocol_error(error)
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


async def by_url(ctx: Context) -> dict[str, Any]:
    caps = capabilities(ctx)
    if caps is None or caps.elicitation is None or caps.elicitation.url is None:
        return status("unsupported")
    elicitation_id = f"calculate-url-{next(URL_IDS)}"
    try:
        with anyio.fail_after(ELICITATION_TIMEOUT_S):
            answer = await ctx.session.elicit_url(URL_MESSAGE, f"https://lab.example.invalid/calculate/{elicitation_id}",
                                                  elicitation_id, related(ctx))
    except (MCPError, ValidationError, TimeoutError) as error:
        return protocol_error(error)
    if answer.action != "accept":
        return status("declined" if answer.action == "decline" else "cancelled")
    await ctx.session.send_elicit_complete(elicitation_id, related_request_id=related(ctx))
    return status("url_accepted", action="accept", meaning=URL_ACCEPT_MEANING)


async def ask(ctx: Context, message: str) -> Any:
    with anyio.fail_after(ELICITATION_TIMEOUT_S):
        return await ctx.elicit(message, CalculateForm)


async def all_or_tool_error(*jobs: Callable[[], Awaitable[None]]) -> None:
    """Runs the jobs at once; any failure ends the call as an isError result (as ts1's Promise.all)."""
    errors: list[str] = []

    async def guarded(job: Callable[[], Awaitable[None]]) -> None:
        try:
            await job()
        except ToolError as error:  # 2026-07-28: refused before sending
            errors.append(f"{MODERN_REFUSAL}: {error}")
        except (MCPError, ValueError, TimeoutError) as error:
            errors.append(f"{type(error).__name__}: {error}")

    async with anyio.create_task_group() as tg:
        for job in jobs:
            tg.start_soon(guarded, job)
    if errors:
        raise ToolError(errors[0])


async def ping_client(ctx: Context) -> None:
    """One bounded ping, related to the call (ServerSession.send_ping takes neither)."""
    await ctx.session.send_request(types.PingRequest(), types.EmptyResult, request_read_timeout_seconds=ELICITATION_TIMEOUT_S,
                                   metadata=ServerMessageMetadata(related_request_id=related(ctx)))


def build() -> FastMCP:
    mcp = FastMCP(SERVER_NAME, version=SERVER_VERSION)

    @mcp.tool(description="Multiplies two integers that it asks the client for (synthetic; 3 x 7 = 21). Pushes elicitation/create in the 2025-11-25 era; returns input_required in 2026-07-28.")
    async def calculate(ctx: Context, policy: Literal["validated", "raw", "unchecked", "url"] = "validated") -> Any:
        if modern(ctx) and policy == "validated":
            responses = ctx.input_responses
            if responses is None or FORM_KEY not in responses:
                return form_request()
            return result(read_round(responses[FORM_KEY]))
        if policy == "url":
            return result(await by_url(ctx))
        if policy != "unchecked" and not supports_form(ctx):
            return result(status("unsupported"))
        return result(await (validated(ctx) if policy == "validated" else raw_request(ctx)))

    @mcp.tool(description="Sends n elicitation requests at once and waits for all of them (synthetic).")
    async def fan_out(ctx: Context, n: Annotated[int, Field(ge=1, le=32)] = FAN_OUT_DEFAULT) -> types.CallToolResult:
        if not supports_form(ctx):
            return result({"status": "unsupported", "requests": 0, "accepted": 0})
        answers: list[Any] = []

        async def one(i: int) -> None:
            answers.append(await ask(ctx, f"{FAN_OUT_MESSAGE} ({i + 1} of {n})"))

        await all_or_tool_error(*(partial(one, i) for i in range(n)))
        accepted = sum(1 for a in answers if a.action == "accept")
        return result({"status": "all_answered", "requests": n, "accepted": accepted})

    @mcp.tool(description="Asks the client for input and pings it while the client's callback runs (synthetic).")
    async def liveness(ctx: Context) -> types.CallToolResult:
        if not supports_form(ctx):
            return result({"status": "unsupported", "action": None, "pinged": False})
        outcome: dict[str, Any] = {}

        async def elicit() -> None:
            outcome["answer"] = await ask(ctx, FAN_OUT_MESSAGE)

        # Started in this order, so the elicitation leaves first and the ping lands while the callback runs.
        await all_or_tool_error(elicit, partial(ping_client, ctx))
        return result({"status": "answered", "action": outcome["answer"].action, "pinged": True})

    @mcp.tool(description="Asks the client for one field of the given kind of the 2025-11-25 form vocabulary (synthetic).")
    async def ask_field(ctx: Context, kind: str) -> types.CallToolResult:
        if kind not in vocabulary.MODELS:
            raise ToolError(f"unknown kind {kind!r}")
        return result(await vocabulary.ask_field(ctx, kind, supports_form(ctx), ELICITATION_TIMEOUT_S))

    # ---- cancellation across the callback (lab/peers/ts1/cancel-tools.ts), with mcp 2.3.0's own mechanisms under
    # FastMCP: linked: nothing to pass, the dispatcher cancels the tool's scope on the client's notifications/cancelled
    # (mcp/shared/jsonrpc_dispatcher.py:640-645), and the waiting form's send_raw_request sends a courtesy cancel
    # (:443-452); limited: ctx.elicit takes no timeout (context.py:1017), the limit is an anyio scope, handled the same.
    async def ask_after_ping(ctx: Context, ping_first: bool, limit_s: float) -> dict[str, Any]:
        if not supports_form(ctx):
            return status("unsupported")
        if ping_first:
            try:
                await ping_client(ctx)
            except (MCPError, ValidationError) as error:
                return protocol_error(error)
        return await validated(ctx, limit_s)

    @mcp.tool(description="calculate, linked to its call: the SDK cancels the tool's scope, and so its form, when the call is cancelled (synthetic; 3 x 7 = 21).")
    async def calculate_linked(ctx: Context, pingFirst: bool = False) -> types.CallToolResult:  # noqa: N803 (ts1's names)
        return result(await ask_after_ping(ctx, pingFirst, ELICITATION_TIMEOUT_S))

    @mcp.tool(description="calculate, waiting for the form at most limitMs; then the server SDK withdraws it (synthetic).")
    async def calculate_limited(
        ctx: Context,
        limitMs: Annotated[int, Field(ge=1, le=int(ELICITATION_TIMEOUT_S * 1000))],  # noqa: N803
        pingFirst: bool = False,  # noqa: N803
    ) -> types.CallToolResult:
        return result(await ask_after_ping(ctx, pingFirst, limitMs / 1000))

    register_request_tools(mcp, Context, types, result, capabilities, MCPError, ELICITATION_TIMEOUT_S)
    return mcp


if __name__ == "__main__":
    logging.basicConfig(stream=sys.stderr, level=logging.WARNING, format="fastmcp server.py %(name)s: %(message)s")
    build().run(transport="stdio", show_banner=False)
