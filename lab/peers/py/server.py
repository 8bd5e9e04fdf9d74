# Server peer `py`: an mcp 2.3.0 MCPServer over stdio (mcp.run(), both protocol eras) mirroring the ts1 server:
# calculate(policy), calculate_resolve, fan_out(n), liveness, with lab/form.ts CalculateResult shapes;
# policy url mirrors lab/peers/ts1/url-mode.ts (ctx.elicit_url, then notifications/elicitation/complete);
# ask_field(kind): one field of the 2025-11-25 form vocabulary (issue #16; models in vocabulary.py);
# summarize, roots_count, sample_fan_out(n): requests other than a form (request_tools.py, shared with py1).
# CLI: server.py   (stdin/stdout carry JSON-RPC only; the SDK's logging goes to stderr)
from __future__ import annotations

import itertools
import json
import logging
import sys
from collections.abc import Awaitable, Callable
from functools import partial
from typing import Annotated, Any, Literal

import anyio
import mcp_types as types
from mcp.server.elicitation import ElicitationResult, render_elicitation_schema
from mcp.server.mcpserver import Context, Elicit, MCPServer, Resolve
from mcp.server.mcpserver.exceptions import ToolError
from mcp.shared.exceptions import MCPError
from mcp.shared.message import ServerMessageMetadata
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from request_tools import register_request_tools  # summarize, roots_count, sample_fan_out (shared with py1)
import vocabulary  # lab/peers/py/vocabulary.py, next to this file (the script's own folder is on sys.path)

SERVER_NAME, SERVER_VERSION = "mcp-reentrancy-lab-py", "0.1.0"
ELICITATION_MESSAGE = "Synthetic arithmetic inputs only: how many units, and the value of one unit?"
FAN_OUT_MESSAGE = "Synthetic arithmetic inputs only"
FAN_OUT_DEFAULT = 8
ELICITATION_TIMEOUT_S = 10.0  # bound on every wait for the client's answer, as ts1's 10 s
URL_MESSAGE = "Synthetic: open this link to continue (nothing real happens there)."
URL_ACCEPT_MEANING = ("the user agreed to open the link; it does not say that anything there was done or finished, "
                      "and nothing was computed")
URL_IDS = itertools.count(1)  # elicitation ids unique within this server (one session per child)


class CalculateForm(BaseModel):
    # The form: strict ints, no extra keys (the SDK validates an accept with this very model).
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
    return types.CallToolResult(content=[types.TextContent(type="text", text=json.dumps(data))],
                                structured_content=data)


def status(name: str, **extra: Any) -> dict[str, Any]:
    return {"status": name, "computed": False, "value": None, **extra}


def supports_form(ctx: Context) -> bool:
    """Form elicitation declared; a bare `elicitation: {}` counts as form (as the SDK's own gate reads it)."""
    capabilities = ctx.client_capabilities
    elicitation = capabilities.elicitation if capabilities is not None else None
    return elicitation is not None and (elicitation.form is not None or elicitation.url is None)


def protocol_error(error: BaseException) -> dict[str, Any]:
    if isinstance(error, TimeoutError):
        return status("protocol_error", code=types.REQUEST_TIMEOUT)
    return status("protocol_error", code=error.code if isinstance(error, MCPError) else 0)


def from_answer(answer: ElicitationResult[CalculateForm]) -> dict[str, Any]:
    """Decline and cancel end the call even with content attached; only a valid accept computes."""
    if answer.action == "decline":
        return status("declined")
    if answer.action == "cancel":
        return status("cancelled")
    checked = app_check(answer.data.model_dump())
    if checked is None:
        return status("invalid_content", rejectedBy="app")
    return {"status": "calculated", "computed": True, "value": checked[0] * checked[1]}


async def raw_request(ctx: Context) -> dict[str, Any]:
    """Low-level elicitation/create: reports the raw action and content, never computes."""
    request = types.ElicitRequest(params=types.ElicitRequestFormParams(
        message=ELICITATION_MESSAGE, requested_schema=render_elicitation_schema(CalculateForm)))
    try:
        answer = await ctx.session.send_request(
            request, types.ElicitResult, request_read_timeout_seconds=ELICITATION_TIMEOUT_S,
            metadata=ServerMessageMetadata(related_request_id=ctx.request_context.request_id))
    except (MCPError, ValidationError) as error:
        return protocol_error(error)
    return status("raw_response", action=answer.action, content=answer.content)


async def validated(ctx: Context, limit_s: float = ELICITATION_TIMEOUT_S) -> dict[str, Any]:
    try:
        with anyio.fail_after(limit_s):
            answer = await ctx.elicit(ELICITATION_MESSAGE, CalculateForm)
    except ValidationError as error:  # the result envelope itself did not parse
        return protocol_error(error)
    except ValueError as error:
        # elicit_with_validation: accept without content, or content the model refused.
        # Either way the SDK refused the answer, not the app.
        if isinstance(error.__cause__, ValidationError):
            return status("invalid_content", rejectedBy="sdk")
        return status("invalid_response", rejectedBy="sdk")
    except (MCPError, TimeoutError) as error:
        return protocol_error(error)
    return from_answer(answer)


async def by_url(ctx: Context) -> dict[str, Any]:
    """URL mode, guarded like form mode; on accept the out-of-band part is reported complete at once."""
    capabilities = ctx.client_capabilities
    if capabilities is None or capabilities.elicitation is None or capabilities.elicitation.url is None:
        return status("unsupported")
    elicitation_id = f"calculate-url-{next(URL_IDS)}"
    try:
        with anyio.fail_after(ELICITATION_TIMEOUT_S):
            answer = await ctx.elicit_url(URL_MESSAGE, f"https://lab.example.invalid/calculate/{elicitation_id}", elicitation_id)
    except (MCPError, ValidationError, TimeoutError) as error:
        return protocol_error(error)
    if answer.action != "accept":
        return status("declined" if answer.action == "decline" else "cancelled")
    await ctx.session.send_elicit_complete(elicitation_id, related_request_id=ctx.request_id)
    return status("url_accepted", action="accept", meaning=URL_ACCEPT_MEANING)


async def ask_form(ctx: Context) -> Elicit[CalculateForm] | None:
    """Resolver: asks for the form, or (client without form elicitation) resolves to None, sending nothing."""
    return Elicit(ELICITATION_MESSAGE, CalculateForm) if supports_form(ctx) else None


async def ask(ctx: Context, message: str) -> ElicitationResult[CalculateForm]:
    """One bounded ctx.elicit; raises as the SDK does (refused content: ValueError)."""
    with anyio.fail_after(ELICITATION_TIMEOUT_S):
        return await ctx.elicit(message, CalculateForm)


async def all_or_tool_error(*jobs: Callable[[], Awaitable[None]]) -> None:
    """Runs the jobs at once; any failure ends the call as an isError result (as ts1's Promise.all),
    e.g. NoBackChannelError on 2026-07-28, where server-to-client requests do not exist."""
    errors: list[str] = []

    async def guarded(job: Callable[[], Awaitable[None]]) -> None:
        try:
            await job()
        except (MCPError, ValueError, TimeoutError) as error:
            errors.append(f"{type(error).__name__}: {error}")

    async with anyio.create_task_group() as tg:
        for job in jobs:
            tg.start_soon(guarded, job)
    if errors:
        raise ToolError(errors[0])


def build() -> MCPServer:
    mcp = MCPServer(SERVER_NAME, version=SERVER_VERSION)

    @mcp.tool(description="Multiplies two integers that it asks the client for (synthetic; 3 x 7 = 21).")
    async def calculate(ctx: Context, policy: Literal["validated", "raw", "unchecked", "url"] = "validated") -> types.CallToolResult:
        if policy == "url":
            return result(await by_url(ctx))
        if policy != "unchecked" and not supports_form(ctx):
            return result(status("unsupported"))
        return result(await (validated(ctx) if policy == "validated" else raw_request(ctx)))

    @mcp.tool(description="calculate through a Resolve(...) parameter: elicitation/create or input_required (synthetic).")
    async def calculate_resolve(
        form: Annotated[ElicitationResult[CalculateForm], Resolve(ask_form)],
    ) -> types.CallToolResult:
        # An accept whose content the model refuses never reaches this body: the SDK's resolver
        # raises a ToolError, and the call ends as an isError result.
        if form.action == "accept" and form.data is None:
            return result(status("unsupported"))
        return result(from_answer(form))

    # ---- the form vocabulary (issue #16): ask_field, one field per kind of lab/plan/vocabulary.ts ----
    @mcp.tool(description="Asks the client for one field of the given kind of the 2025-11-25 form vocabulary (synthetic).")
    async def ask_field(ctx: Context, kind: str) -> types.CallToolResult:
        if kind not in vocabulary.MODELS:
            raise ToolError(f"unknown kind {kind!r}")
        return result(await vocabulary.ask_field(ctx, kind, supports_form(ctx), ELICITATION_TIMEOUT_S))
    # ---- end of the form vocabulary ----

    @mcp.tool(description="Sends n elicitation requests at once and waits for all of them (synthetic).")
    async def fan_out(ctx: Context, n: Annotated[int, Field(ge=1, le=32)] = FAN_OUT_DEFAULT) -> types.CallToolResult:
        if not supports_form(ctx):
            return result({"status": "unsupported", "requests": 0, "accepted": 0})
        answers: list[ElicitationResult[CalculateForm]] = []

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

        async def ping() -> None:
            await ctx.session.send_request(
                types.PingRequest(), types.EmptyResult, request_read_timeout_seconds=ELICITATION_TIMEOUT_S,
                metadata=ServerMessageMetadata(related_request_id=ctx.request_context.request_id))

        # Started in this order, so the elicitation leaves first and the ping lands while the callback runs.
        await all_or_tool_error(elicit, ping)
        return result({"status": "answered", "action": outcome["answer"].action, "pinged": True})

    register_request_tools(mcp, Context, types, result, lambda ctx: ctx.client_capabilities, MCPError, ELICITATION_TIMEOUT_S)
    return mcp


# ==== Cancellation across the callback (issue #18): calculate_linked, calculate_limited ====
# Mirrors lab/peers/ts1/cancel-tools.ts with the Python SDK 2.3.0's own mechanisms:
# - linked: there is nothing to pass. The dispatcher runs each inbound request in its own cancel
#   scope and cancels it on the peer's notifications/cancelled (peer_cancel_mode "interrupt",
#   shared/jsonrpc_dispatcher.py:640-645); the form's send_raw_request, cancelled while it waits,
#   sends a courtesy notifications/cancelled for the form (:443-452). Plain `calculate` is linked too.
# - limited: ctx.elicit takes no timeout (mcpserver/context.py:196); the limit is the caller's
#   anyio scope, whose expiry the SDK handles as a caller cancel: the same courtesy cancel, then
#   fail_after raises TimeoutError (protocol_error -32001, as ts1's SDK timeout).
# The server writes no events of its own: the wire shows both withdrawals.


async def ping_client(ctx: Context) -> None:
    """One bounded ping, related to the call, so the form is not the session's first server request."""
    await ctx.session.send_request(
        types.PingRequest(), types.EmptyResult, request_read_timeout_seconds=ELICITATION_TIMEOUT_S,
        metadata=ServerMessageMetadata(related_request_id=ctx.request_context.request_id))


async def ask_after_ping(ctx: Context, ping_first: bool, limit_s: float) -> dict[str, Any]:
    if not supports_form(ctx):
        return status("unsupported")
    if ping_first:
        try:
            await ping_client(ctx)
        except (MCPError, ValidationError) as error:
            return protocol_error(error)
    return await validated(ctx, limit_s)


def register_cancel_tools(mcp: MCPServer) -> None:
    @mcp.tool(description="calculate, linked to its call: the SDK cancels the tool's scope, and so its form, when the call is cancelled (synthetic; 3 x 7 = 21).")
    async def calculate_linked(ctx: Context, pingFirst: bool = False) -> types.CallToolResult:  # noqa: N803 (ts1's argument names)
        return result(await ask_after_ping(ctx, pingFirst, ELICITATION_TIMEOUT_S))

    @mcp.tool(description="calculate, waiting for the form at most limitMs; then the server SDK withdraws it (synthetic).")
    async def calculate_limited(
        ctx: Context,
        limitMs: Annotated[int, Field(ge=1, le=int(ELICITATION_TIMEOUT_S * 1000))],  # noqa: N803
        pingFirst: bool = False,  # noqa: N803
    ) -> types.CallToolResult:
        return result(await ask_after_ping(ctx, pingFirst, limitMs / 1000))
# ==== end of the cancellation tools ====


if __name__ == "__main__":
    logging.basicConfig(stream=sys.stderr, level=logging.WARNING, format="server.py %(name)s: %(message)s")
    server = build()
    register_cancel_tools(server)
    server.run()
