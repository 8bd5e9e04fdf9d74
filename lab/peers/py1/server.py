# Server peer `py1`: the calculate server on the MCP Python SDK 1.29.0 FastMCP over stdio (mcp.run()), with the
# lab's tool suite as far as 1.29.0 allows, the shapes of lab/plan/form.ts CalculateResult:
#   calculate(policy)  validated: ctx.elicit (server/fastmcp/server.py:1199-1231 -> server/elicitation.py:105-142);
#                      raw: ctx.session.elicit_form, the raw answer reported, never computed; unchecked: the guard
#                      skipped on purpose; url: ctx.elicit_url, then notifications/elicitation/complete
#   fan_out(n), liveness, calculate_linked, calculate_limited (the cancellation tools, lab/peers/ts1/cancel-tools.ts),
#   summarize, roots_count, sample_fan_out(n) (lab/peers/py/request_tools.py, shared with the 2.3.0 server),
#   ask_field(kind) (the form vocabulary, vocabulary.py: 1.29.0 refuses every non-primitive field before sending)
# Not here, with why: calculate_resolve (Resolve/Elicit are 2.x: mcp.server.mcpserver does not exist in 1.29.0).
# CLI: server.py   (stdin/stdout carry JSON-RPC only; the SDK's logging goes to stderr)
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
import httpx
from mcp import types
from mcp.server.fastmcp import Context, FastMCP
from mcp.server.fastmcp.exceptions import ToolError
from mcp.shared.exceptions import McpError
from mcp.shared.message import ServerMessageMetadata
from pydantic import BaseModel, ConfigDict, Field, ValidationError

sys.path.append(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "py"))
from request_tools import register_request_tools  # noqa: E402  (shared with the 2.3.0 server)
import vocabulary  # noqa: E402  lab/peers/py1/vocabulary.py, next to this file (the script's own folder is on sys.path)

SERVER_NAME = "mcp-reentrancy-lab-py1"
ELICITATION_MESSAGE = "Synthetic arithmetic inputs only: how many units, and the value of one unit?"
FAN_OUT_MESSAGE = "Synthetic arithmetic inputs only"
FAN_OUT_DEFAULT = 8
ELICITATION_TIMEOUT_S = 10.0  # bound on every wait for the client's answer, as ts1's 10 s
# A limit that expires: 1.29.0's own timeout code (shared/session.py:293-303, httpx.codes.REQUEST_TIMEOUT).
TIMEOUT_CODE = int(httpx.codes.REQUEST_TIMEOUT)
URL_MESSAGE = "Synthetic: open this link to continue (nothing real happens there)."
URL_ACCEPT_MEANING = ("the user agreed to open the link; it does not say that anything there was done or finished, "
                      "and nothing was computed")
URL_IDS = itertools.count(1)


class CalculateForm(BaseModel):
    # strict ints, no extra keys: elicit_with_validation validates an accept with this very model (elicitation.py:134-135)
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
    return types.CallToolResult(content=[types.TextContent(type="text", text=json.dumps(data))], structuredContent=data)


def status(name: str, **extra: Any) -> dict[str, Any]:
    return {"status": name, "computed": False, "value": None, **extra}


def client_elicitation(ctx: Context) -> types.ElicitationCapability | None:
    params = ctx.session.client_params
    return params.capabilities.elicitation if params is not None else None


def supports_form(ctx: Context) -> bool:
    """Form declared; a bare `elicitation: {}` counts as form (the spec's legacy reading). 1.29.0 itself checks
    nothing before sending elicitation/create (server/session.py:391-418): the guard is the app's."""
    elicitation = client_elicitation(ctx)
    return elicitation is not None and (elicitation.form is not None or elicitation.url is None)


def protocol_error(error: BaseException) -> dict[str, Any]:
    if isinstance(error, TimeoutError):
        return status("protocol_error", code=TIMEOUT_CODE)
    return status("protocol_error", code=error.error.code if isinstance(error, McpError) else 0)


def related(ctx: Context) -> ServerMessageMetadata:
    return ServerMessageMetadata(related_request_id=ctx.request_context.request_id)


async def raw_request(ctx: Context) -> dict[str, Any]:
    """ctx.session.elicit_form: the raw action and content, never computed."""
    try:
        with anyio.fail_after(ELICITATION_TIMEOUT_S):
            answer = await ctx.session.elicit_form(ELICITATION_MESSAGE, CalculateForm.model_json_schema(),
                                                   related_request_id=ctx.request_context.request_id)
    except (McpError, ValidationError, TimeoutError) as error:
        return protocol_error(error)
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
        return protocol_error(error)
    except ValueError:
        return status("invalid_response", rejectedBy="sdk")
    except (McpError, TimeoutError) as error:
        return protocol_error(error)
    if answer.action == "decline":
        return status("declined")
    if answer.action == "cancel":
        return status("cancelled")
    checked = app_check(answer.data.model_dump())
    if checked is None:
        return status("invalid_content", rejectedBy="app")
    return {"status": "calculated", "computed": True, "value": checked[0] * checked[1]}


async def by_url(ctx: Context) -> dict[str, Any]:
    elicitation = client_elicitation(ctx)
    if elicitation is None or elicitation.url is None:
        return status("unsupported")
    elicitation_id = f"calculate-url-{next(URL_IDS)}"
    try:
        with anyio.fail_after(ELICITATION_TIMEOUT_S):
            answer = await ctx.elicit_url(URL_MESSAGE, f"https://lab.example.invalid/calculate/{elicitation_id}", elicitation_id)
    except (McpError, ValidationError, TimeoutError) as error:
        return protocol_error(error)
    if answer.action != "accept":
        return status("declined" if answer.action == "decline" else "cancelled")
    await ctx.session.send_elicit_complete(elicitation_id, related_request_id=ctx.request_context.request_id)
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
        except (McpError, ValueError, TimeoutError) as error:
            errors.append(f"{type(error).__name__}: {error}")

    async with anyio.create_task_group() as tg:
        for job in jobs:
            tg.start_soon(guarded, job)
    if errors:
        raise ToolError(errors[0])


async def ping_client(ctx: Context) -> None:
    """One bounded ping, related to the call (ServerSession.send_ping takes neither, server/session.py:455-460)."""
    with anyio.fail_after(ELICITATION_TIMEOUT_S):
        await ctx.session.send_request(types.ServerRequest(types.PingRequest()), types.EmptyResult, metadata=related(ctx))


def build() -> FastMCP:
    mcp = FastMCP(SERVER_NAME)

    @mcp.tool(description="Multiplies two integers that it asks the client for (synthetic; 3 x 7 = 21).")
    async def calculate(ctx: Context, policy: Literal["validated", "raw", "unchecked", "url"] = "validated") -> types.CallToolResult:
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

    # ---- cancellation across the callback (lab/peers/ts1/cancel-tools.ts), with 1.29.0's own mechanisms ----
    # linked: nothing to pass. The server's loop cancels the responder's scope on the client's notifications/cancelled
    #   (shared/session.py:403-406 -> RequestResponder.cancel, :138-151), which the tool runs in; cancelling
    #   send_request writes nothing for the waiting form (its finally, :310-314). Plain `calculate` is linked too.
    # limited: ctx.elicit takes no timeout (server/fastmcp/server.py:1199); the limit is an anyio scope: on expiry
    #   send_request writes nothing either, so the form is abandoned, not withdrawn (no notifications/cancelled).
    async def ask_after_ping(ctx: Context, ping_first: bool, limit_s: float) -> dict[str, Any]:
        if not supports_form(ctx):
            return status("unsupported")
        if ping_first:
            try:
                await ping_client(ctx)
            except (McpError, ValidationError, TimeoutError) as error:
                return protocol_error(error)
        return await validated(ctx, limit_s)

    @mcp.tool(description="calculate, linked to its call: the SDK cancels the tool's scope, and so its form, when the call is cancelled (synthetic; 3 x 7 = 21).")
    async def calculate_linked(ctx: Context, pingFirst: bool = False) -> types.CallToolResult:  # noqa: N803 (ts1's names)
        return result(await ask_after_ping(ctx, pingFirst, ELICITATION_TIMEOUT_S))

    @mcp.tool(description="calculate, waiting for the form at most limitMs; then it gives the form up (synthetic).")
    async def calculate_limited(
        ctx: Context,
        limitMs: Annotated[int, Field(ge=1, le=int(ELICITATION_TIMEOUT_S * 1000))],  # noqa: N803
        pingFirst: bool = False,  # noqa: N803
    ) -> types.CallToolResult:
        return result(await ask_after_ping(ctx, pingFirst, limitMs / 1000))

    register_request_tools(mcp, Context, types, result,
                           lambda ctx: ctx.session.client_params.capabilities if ctx.session.client_params else None,
                           McpError, ELICITATION_TIMEOUT_S)
    return mcp


if __name__ == "__main__":
    logging.basicConfig(stream=sys.stderr, level=logging.WARNING, format="py1 server.py %(name)s: %(message)s")
    build().run()  # stdio (server/fastmcp/server.py run -> run_stdio_async)
