# The Python server peers' shared core (py on mcp 2.3.0's MCPServer, py1 on 1.29.0's FastMCP, fastmcp on FastMCP
# 4.2.3): the form and the app's own check of it, the CalculateResult shapes of lab/plan/form.ts, and the tools
# whose code is the same in every SDK once the SDK's few differences are handed in as a ServerSdk: fan_out(n),
# liveness, ask_field(kind) (the 2025-11-25 form vocabulary, models in lab_form_models.py), calculate_linked and
# calculate_limited (the cancellation tools, mirroring lab/peers/ts1/cancel-tools.ts). Each server.py keeps what is
# its SDK's own: calculate(policy) and its careful path, and the order its tools are registered in (tools/list's).
# No `from __future__ import annotations`: the tools' `ctx` annotation must be the server's own Context class,
# evaluated here (the SDK finds the context parameter by it).
import itertools
import json
import logging
import sys
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from functools import partial
from typing import Annotated, Any

import anyio
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from lab_form_models import ASK_MESSAGE, MODELS, app_accepts

ELICITATION_MESSAGE = "Synthetic arithmetic inputs only: how many units, and the value of one unit?"
FAN_OUT_MESSAGE = "Synthetic arithmetic inputs only"
FAN_OUT_DEFAULT = 8
ELICITATION_TIMEOUT_S = 10.0  # bound on every wait for the client's answer, as ts1's 10 s
URL_MESSAGE = "Synthetic: open this link to continue (nothing real happens there)."
URL_ACCEPT_MEANING = ("the user agreed to open the link; it does not say that anything there was done or finished, "
                      "and nothing was computed")
URL_IDS = itertools.count(1)  # elicitation ids unique within this server (one session per child)


class CalculateForm(BaseModel):
    # The form: strict ints, no extra keys (each SDK validates an accept with this very model).
    model_config = ConfigDict(strict=True, extra="forbid")
    units: int = Field(ge=1, le=10, description="How many units (1..10)")
    unit_value: int = Field(ge=1, le=100, description="Value of one unit (1..100)")


@dataclass(frozen=True)
class ServerSdk:
    """What differs between the SDKs, for the shared tools."""
    types: Any  # the SDK's types module
    Context: Any  # noqa: N815 (the SDK's context class: the tools' `ctx` annotation)
    result: Callable[[dict[str, Any]], Any]  # a CallToolResult with the data as structured content
    capabilities: Callable[[Any], Any]  # ctx -> the client's ClientCapabilities or None
    sdk_error: type[Exception]  # MCPError (2.3.0) or McpError (1.x)
    code: Callable[[Exception], int]  # that error's JSON-RPC code
    timeout_code: int  # what an expired limit reports (REQUEST_TIMEOUT -32001 in 2.3.0, 408 in 1.x)
    tool_error: type[Exception]  # raising it ends the call as an isError result
    validated: Callable[[Any, float], Awaitable[dict[str, Any]]]  # the careful path (ctx.elicit), within a limit
    ping: Callable[[Any], Awaitable[None]]  # one bounded ping, related to the call
    raw: Callable[[Any], Awaitable[dict[str, Any]]]  # policy raw: the SDK's low-level elicitation/create, reported raw
    elicit_url: Callable[[Any, str, str, str], Awaitable[Any]]  # (ctx, message, url, elicitation id) -> the answer
    url_related: Callable[[Any], Any]  # the id notifications/elicitation/complete is related to
    # ctx.elicit's failure in ask_field: an AskFieldResult's status and details (else re-raised); None: by_title's reading
    ask_field_error: Callable[[BaseException, type[BaseModel]], dict[str, Any]] | None = None
    limited_words: str = "then the server SDK withdraws it"  # what calculate_limited's limit does, in its description
    # (exception class, words): a refusal before sending that ends a fan-out with those words first (FastMCP on 2026-07-28)
    refusal: tuple[type[Exception], str] | None = None


def app_check(content: dict[str, Any]) -> tuple[int, int] | None:
    """The app's own strict check, kept whatever the SDK did: exact keys, real ints (no bool), ranges."""
    if set(content) != {"units", "unit_value"}:
        return None
    units, value = content["units"], content["unit_value"]
    if type(units) is not int or type(value) is not int or not (1 <= units <= 10 and 1 <= value <= 100):
        return None
    return units, value


def status(name: str, **extra: Any) -> dict[str, Any]:
    return {"status": name, "computed": False, "value": None, **extra}


def supports_form(sdk: ServerSdk, ctx: Any) -> bool:
    """Form declared; a bare `elicitation: {}` counts as form (the spec's legacy reading, and 2.3.0's own gate)."""
    caps = sdk.capabilities(ctx)
    elicitation = caps.elicitation if caps is not None else None
    return elicitation is not None and (elicitation.form is not None or elicitation.url is None)


def protocol_error(sdk: ServerSdk, error: BaseException) -> dict[str, Any]:
    if isinstance(error, TimeoutError):
        return status("protocol_error", code=sdk.timeout_code)
    return status("protocol_error", code=sdk.code(error) if isinstance(error, sdk.sdk_error) else 0)


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


async def by_url(sdk: ServerSdk, ctx: Any) -> dict[str, Any]:
    """URL mode (lab/peers/ts1/url-mode.ts), guarded like form mode; on accept the out-of-band part is reported
    complete at once (notifications/elicitation/complete)."""
    caps = sdk.capabilities(ctx)
    if caps is None or caps.elicitation is None or caps.elicitation.url is None:
        return status("unsupported")
    elicitation_id = f"calculate-url-{next(URL_IDS)}"
    try:
        with anyio.fail_after(ELICITATION_TIMEOUT_S):
            answer = await sdk.elicit_url(ctx, URL_MESSAGE, f"https://lab.example.invalid/calculate/{elicitation_id}", elicitation_id)
    except (sdk.sdk_error, ValidationError, TimeoutError) as error:
        return protocol_error(sdk, error)
    if answer.action != "accept":
        return status("declined" if answer.action == "decline" else "cancelled")
    await ctx.session.send_elicit_complete(elicitation_id, related_request_id=sdk.url_related(ctx))
    return status("url_accepted", action="accept", meaning=URL_ACCEPT_MEANING)


async def by_policy(sdk: ServerSdk, ctx: Any, policy: str) -> dict[str, Any]:
    """calculate(policy): validated, the careful path; raw, the answer reported, never computed; unchecked, the
    guard skipped on purpose; url, URL mode."""
    if policy == "url":
        return await by_url(sdk, ctx)
    if policy != "unchecked" and not supports_form(sdk, ctx):
        return status("unsupported")
    return await (sdk.validated(ctx, ELICITATION_TIMEOUT_S) if policy == "validated" else sdk.raw(ctx))


async def ask(ctx: Any, message: str) -> Any:
    """One bounded ctx.elicit; raises as the SDK does."""
    with anyio.fail_after(ELICITATION_TIMEOUT_S):
        return await ctx.elicit(message, CalculateForm)


async def all_or_tool_error(sdk: ServerSdk, *jobs: Callable[[], Awaitable[None]]) -> None:
    """Runs the jobs at once; any failure ends the call as an isError result (as ts1's Promise.all),
    e.g. NoBackChannelError on 2026-07-28, where server-to-client requests do not exist."""
    errors: list[str] = []

    async def guarded(job: Callable[[], Awaitable[None]]) -> None:
        try:
            await job()
        except Exception as error:
            if sdk.refusal is not None and isinstance(error, sdk.refusal[0]):
                errors.append(f"{sdk.refusal[1]}: {error}")
            elif isinstance(error, (sdk.sdk_error, ValueError, TimeoutError)):
                errors.append(f"{type(error).__name__}: {error}")
            else:
                raise

    async with anyio.create_task_group() as tg:
        for job in jobs:
            tg.start_soon(guarded, job)
    if errors:
        raise sdk.tool_error(errors[0])


async def ask_one_field(sdk: ServerSdk, ctx: Any, kind: str) -> dict[str, Any]:
    """One field through the SDK's careful path (ctx.elicit with the kind's model); an AskFieldResult. How each SDK
    fails (refused before sending, the envelope or the content refused, a timeout) is its ask_field_error."""
    model = MODELS[kind]
    if not supports_form(sdk, ctx):
        return {"kind": kind, "status": "unsupported"}
    try:
        with anyio.fail_after(ELICITATION_TIMEOUT_S):
            answer = await ctx.elicit(ASK_MESSAGE, model)
    except TimeoutError:
        return {"kind": kind, "status": "protocol_error", "code": sdk.timeout_code}
    except Exception as error:
        return {"kind": kind, **(sdk.ask_field_error or partial(by_title, sdk))(error, model)}
    if answer.action != "accept":
        return {"kind": kind, "status": "declined" if answer.action == "decline" else "cancelled"}
    held = answer.data.model_dump(mode="json")  # every field, set or not: defaults the SDK filled in show
    if not app_accepts(kind, held):
        return {"kind": kind, "status": "invalid_content", "rejectedBy": "app"}
    return {"kind": kind, "status": "accepted", "content": held}


def by_title(sdk: ServerSdk, error: BaseException, model: type[BaseModel]) -> dict[str, Any]:
    """ctx.elicit's failures where pydantic's ValidationError reaches the caller unwrapped (1.x's FastMCP, FastMCP 4):
    TypeError, the model refused before sending; a ValidationError titled as the model, its content refused; any other
    title, the reply's envelope refused before the model ran; any other ValueError, an accept without content."""
    if isinstance(error, TypeError):
        return {"status": "not_sent", "reason": " ".join(str(error).split())}
    if isinstance(error, ValidationError):
        return {"status": "invalid_content" if error.title == model.__name__ else "invalid_response", "rejectedBy": "sdk"}
    if isinstance(error, ValueError):
        return {"status": "invalid_response", "rejectedBy": "sdk"}
    if isinstance(error, sdk.sdk_error):
        return {"status": "protocol_error", "code": sdk.code(error)}
    raise error


def register_fan_out_and_liveness(mcp: Any, sdk: ServerSdk) -> None:
    Context, types = sdk.Context, sdk.types  # noqa: N806 (the SDK's class, the tools' annotation)

    @mcp.tool(description="Sends n elicitation requests at once and waits for all of them (synthetic).")
    async def fan_out(ctx: Context, n: Annotated[int, Field(ge=1, le=32)] = FAN_OUT_DEFAULT) -> types.CallToolResult:
        if not supports_form(sdk, ctx):
            return sdk.result({"status": "unsupported", "requests": 0, "accepted": 0})
        answers: list[Any] = []

        async def one(i: int) -> None:
            answers.append(await ask(ctx, f"{FAN_OUT_MESSAGE} ({i + 1} of {n})"))

        await all_or_tool_error(sdk, *(partial(one, i) for i in range(n)))
        accepted = sum(1 for a in answers if a.action == "accept")
        return sdk.result({"status": "all_answered", "requests": n, "accepted": accepted})

    @mcp.tool(description="Asks the client for input and pings it while the client's callback runs (synthetic).")
    async def liveness(ctx: Context) -> types.CallToolResult:
        if not supports_form(sdk, ctx):
            return sdk.result({"status": "unsupported", "action": None, "pinged": False})
        outcome: dict[str, Any] = {}

        async def elicit() -> None:
            outcome["answer"] = await ask(ctx, FAN_OUT_MESSAGE)

        # Started in this order, so the elicitation leaves first and the ping lands while the callback runs.
        await all_or_tool_error(sdk, elicit, partial(sdk.ping, ctx))
        return sdk.result({"status": "answered", "action": outcome["answer"].action, "pinged": True})


def register_ask_field(mcp: Any, sdk: ServerSdk) -> None:
    Context, types = sdk.Context, sdk.types  # noqa: N806

    @mcp.tool(description="Asks the client for one field of the given kind of the 2025-11-25 form vocabulary (synthetic).")
    async def ask_field(ctx: Context, kind: str) -> types.CallToolResult:
        if kind not in MODELS:
            raise sdk.tool_error(f"unknown kind {kind!r}")
        return sdk.result(await ask_one_field(sdk, ctx, kind))


def register_cancel_tools(mcp: Any, sdk: ServerSdk) -> None:
    """linked: nothing to pass, the SDK cancels the tool's scope (and so its form) on the client's
    notifications/cancelled; limited: ctx.elicit takes no timeout, the limit is an anyio scope. What each SDK
    then writes for the waiting form (a courtesy cancel in 2.3.0, nothing in 1.x) shows on the wire."""
    Context, types = sdk.Context, sdk.types  # noqa: N806

    async def ask_after_ping(ctx: Any, ping_first: bool, limit_s: float) -> dict[str, Any]:
        if not supports_form(sdk, ctx):
            return status("unsupported")
        if ping_first:
            try:
                await sdk.ping(ctx)
            except (sdk.sdk_error, ValidationError, TimeoutError) as error:
                return protocol_error(sdk, error)
        return await sdk.validated(ctx, limit_s)

    @mcp.tool(description="calculate, linked to its call: the SDK cancels the tool's scope, and so its form, when the call is cancelled (synthetic; 3 x 7 = 21).")
    async def calculate_linked(ctx: Context, pingFirst: bool = False) -> types.CallToolResult:  # noqa: N803 (ts1's names)
        return sdk.result(await ask_after_ping(ctx, pingFirst, ELICITATION_TIMEOUT_S))

    @mcp.tool(description=f"calculate, waiting for the form at most limitMs; {sdk.limited_words} (synthetic).")
    async def calculate_limited(
        ctx: Context,
        limitMs: Annotated[int, Field(ge=1, le=int(ELICITATION_TIMEOUT_S * 1000))],  # noqa: N803
        pingFirst: bool = False,  # noqa: N803
    ) -> types.CallToolResult:
        return sdk.result(await ask_after_ping(ctx, pingFirst, limitMs / 1000))


def register_suite(mcp: Any, sdk: ServerSdk) -> None:
    """Every shared tool after calculate, in py1's and fastmcp's order (tools/list's)."""
    from lab_request_tools import register_request_tools  # imports this module: here, not at the top

    register_fan_out_and_liveness(mcp, sdk)
    register_ask_field(mcp, sdk)
    register_cancel_tools(mcp, sdk)
    register_request_tools(mcp, sdk)


def log_to_stderr(prog: str) -> None:
    """stdin/stdout carry JSON-RPC only: the SDK's warnings go to stderr, prefixed."""
    logging.basicConfig(stream=sys.stderr, level=logging.WARNING, format=f"{prog} %(name)s: %(message)s")


def to_json_result(types: Any, structured: str) -> Callable[[dict[str, Any]], Any]:
    """result(data) for an SDK whose CallToolResult names structured content `structured`."""
    return lambda data: types.CallToolResult(content=[types.TextContent(type="text", text=json.dumps(data))],
                                             **{structured: data})
