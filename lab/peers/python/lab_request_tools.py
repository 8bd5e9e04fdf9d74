# The tools that ask the client for something other than a form, for the Python server peers (py on
# mcp 2.3.0's MCPServer, py1 on 1.29.0's FastMCP, fastmcp on FastMCP 4.2.3 over mcp 2.3.0; each hands in its
# lab_server.ServerSdk), mirroring lab/peers/ts1/sampling-roots-tools.ts and
# sample_fan_out (lab/peers/ts1/concurrency-tools.ts): summarize (one sampling/createMessage), roots_count
# (one roots/list), sample_fan_out(n) (n sampling requests at once). Both SDKs offer the same
# ServerSession.create_message(messages, max_tokens=, related_request_id=) and list_roots(); each server
# hands in its own SDK's types module, Context class, capability reader and error class (MCPError in 2.3.0,
# McpError in 1.29.0; both carry .error.code): a client that answers with an error (the AI SDK's -32601)
# ends the tool as data, {status: "refused", code}, as lab/peers/ts1/sampling-roots-tools.ts orRefused does. Every wait is bounded by
# limit_s (neither call takes a timeout of its own). No `from __future__ import annotations`: the tools'
# `ctx` annotation must be the server's own Context class, evaluated here.
from typing import Any

import anyio

from lab_server import ELICITATION_TIMEOUT_S

SAMPLE_FAN_OUT_DEFAULT = 5  # lab/plan/tool-suite.ts SAMPLING_FAN_OUT_DEFAULT (python-sdk #2489: five)
PROMPT = "Synthetic: summarize 3 x 7 in one word"


def register_request_tools(mcp: Any, sdk: Any) -> None:
    Context, types, result, capabilities, sdk_error = sdk.Context, sdk.types, sdk.result, sdk.capabilities, sdk.sdk_error  # noqa: N806
    limit_s = ELICITATION_TIMEOUT_S

    def declared(ctx: Any, name: str) -> bool:
        caps = capabilities(ctx)
        return caps is not None and getattr(caps, name) is not None

    async def sample(ctx: Any, text: str) -> Any:
        message = types.SamplingMessage(role="user", content=types.TextContent(type="text", text=text))
        with anyio.fail_after(limit_s):
            return await ctx.session.create_message([message], max_tokens=8,
                                                    related_request_id=ctx.request_context.request_id)

    def refused(error: Exception, **empty: Any) -> Any:
        return result({"status": "refused", "code": error.error.code, **empty})  # type: ignore[attr-defined]

    @mcp.tool(description="Asks the client for one sampling completion and returns its text (synthetic: the lab's clients call no model).")
    async def summarize(ctx: Context) -> types.CallToolResult:
        if not declared(ctx, "sampling"):
            return result({"status": "unsupported", "text": None})
        try:
            answer = await sample(ctx, PROMPT)
        except sdk_error as error:
            return refused(error, text=None)
        text = answer.content.text if getattr(answer.content, "type", None) == "text" else None
        return result({"status": "summarized", "text": text, "model": answer.model})

    @mcp.tool(description="Asks the client for its roots and returns how many it gave.")
    async def roots_count(ctx: Context) -> types.CallToolResult:
        if not declared(ctx, "roots"):
            return result({"status": "unsupported", "roots": None})
        try:
            with anyio.fail_after(limit_s):
                listed = await ctx.session.list_roots()
        except sdk_error as error:
            return refused(error, roots=None)
        return result({"status": "counted", "roots": len(listed.roots)})

    @mcp.tool(description="Sends n sampling/createMessage requests at once and waits for all of them (synthetic: no model is asked for anything real).")
    async def sample_fan_out(ctx: Context, n: int = SAMPLE_FAN_OUT_DEFAULT) -> types.CallToolResult:
        if not declared(ctx, "sampling"):
            return result({"status": "unsupported", "requests": 0, "answered": 0})
        answered: list[Any] = []
        refusals: list[Exception] = []

        async def one(i: int) -> None:
            try:
                answered.append(await sample(ctx, f"Synthetic: reply with anything ({i + 1} of {n})"))
            except sdk_error as error:  # kept, not raised: every reply is awaited, refusals too
                refusals.append(error)

        async with anyio.create_task_group() as group:
            for i in range(max(1, min(n, 16))):
                group.start_soon(one, i)
        if refusals:
            return refused(refusals[0], requests=n, answered=len(answered))
        return result({"status": "all_answered", "requests": n, "answered": len(answered)})
