# Client peers `pydantic-ai` and `pydantic-ai-mcp1`: pydantic-ai-slim 2.78.0's MCPToolset, the MCP client object its
# agents call (pydantic_ai/mcp.py:787), in whichever venv runs this file: fastmcp-slim 4.2.3 on mcp 2.3.0 as pip
# resolves pydantic-ai-slim[mcp] alone, or fastmcp-slim 3.4.11 on mcp 1.30.0 beside a `mcp<2` pin. The adapter of the
# lab's one Python driver (lab/peers/python/lab_driver.py): the toolset is built as an app builds it (no pre-built
# FastMCP Client), on the driver's own stdio (a FastMCP ClientTransport, which MCPToolset takes as it is, :739), with
# FastMCP-shaped elicitation, sampling and roots handlers (:985-996). No model: tools are called directly.
# CLI: client.py --plan PLAN.json --events EVENTS.jsonl [--peer NAME] [--cache-tools]
from __future__ import annotations

import argparse
import os
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from importlib.metadata import version
from typing import Any

import anyio
from fastmcp.client.elicitation import ElicitResult
from pydantic_ai.mcp import MCPToolset

sys.path.insert(1, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
from lab_driver import Connection, Driver, main  # noqa: E402  (the one Python driver)
from lab_fastmcp import OwnStdio, refusal, refused  # noqa: E402
from lab_plan import CallData, Nested, SessionPlan  # noqa: E402

MCP2 = int(version("mcp").split(".")[0]) >= 2
if MCP2:  # mcp 2.x: its types are the mcp_types package; a callback runs in a task of its own (_spawn)
    import mcp_types as types
    from lab_mcp2 import Mcp2Adapter as SdkAdapter, completion, synthetic_roots  # noqa: E402
    from mcp_types.version import MODERN_PROTOCOL_VERSIONS
else:  # mcp 1.x: the receive loop awaits each inbound request's handler inline (mcp/shared/session.py:376)
    from mcp import types
    from lab_mcp1 import Mcp1Adapter as SdkAdapter, completion, note_message, synthetic_roots  # noqa: E402
    MODERN_PROTOCOL_VERSIONS = ()


class PydanticAi(SdkAdapter):  # type: ignore[misc, valid-type]
    prog = "pydantic-ai client.py"
    description = f"pydantic-ai-slim {version('pydantic-ai-slim')} MCPToolset client peer driver (mcp {version('mcp')})"
    peer = "pydantic-ai"
    # cache_tools=False (not the default, :979): the nested toolset.list_tools() then reaches the wire (:1535-1536)
    cache_tools = False
    driver: Driver
    toolset: MCPToolset[Any] | None = None

    def arguments(self, parser: argparse.ArgumentParser) -> None:
        parser.add_argument("--peer", default="pydantic-ai")  # which peer this run is: its clientInfo and stderr prefix
        # the toolset's default: tools listed once are served from _cached_tools, the nested call never leaves
        parser.add_argument("--cache-tools", action="store_true")

    def configure(self, args: argparse.Namespace) -> None:
        self.peer, self.prog, self.cache_tools = args.peer, f"{args.peer} client.py", args.cache_tools

    def refusal(self, plan: SessionPlan) -> str | None:
        return refusal(plan, "pydantic-ai's MCPToolset", "its FastMCP Client, pydantic_ai/mcp.py:1305-1317",
                       "mcp/client/session.py:634-636 in 2.3.0, :166-174 in 1.30.0")

    async def send_nested(self, nested: Nested) -> set[str]:
        """The nested request through the toolset: MCPToolset.list_tools() (pydantic_ai/mcp.py:1528-1543), which
        re-enters the toolset (_connected, :1354; the entry lock is free, __aenter__ holds it only while connecting,
        :1441-1480) and awaits FastMCP's Client.list_tools. It takes no timeout: the plan's limit is the caller's own
        scope, as an app would bound it. A ping: the toolset has none, its FastMCP Client's (toolset.client, :1317)."""
        assert self.toolset is not None
        with anyio.fail_after(nested.timeoutMs / 1000):
            if nested.method == "tools/list":
                return {tool.name for tool in await self.toolset.list_tools()}
            await self.toolset.client.ping()
            return set()

    async def elicitation(self, message: str, response_type: Any, params: Any, context: Any) -> ElicitResult[Any]:
        """FastMCP's ElicitationHandler (fastmcp/client/elicitation.py:26-35); `context` is the SDK's RequestContext.
        On a 2026-07-28 session (fastmcp 4.x mode 'auto') the id is an input request's key, not a wire id."""
        client = self.toolset.client if self.toolset is not None else None
        embedded = client is not None and getattr(client, "protocol_version", None) in MODERN_PROTOCOL_VERSIONS
        answer = await self.driver.elicitation(context.request_id, self.send_nested, self.unplanned, embedded=embedded)
        return ElicitResult(action=answer.action, content=answer.content)

    def unplanned(self) -> Any:
        raise RuntimeError("Elicitation not supported")  # FastMCP's wrapper answers any Exception as -32603

    async def sampling(self, messages: list[Any], params: Any, context: Any) -> Any:
        """FastMCP's SamplingHandler (sampling/__init__.py): the lab's synthetic completion, no model."""
        return await self.driver.answer(context.request_id, "sampling/createMessage", self.send_nested, completion, refused("sampling"))

    async def roots(self, context: Any) -> list[Any]:
        """FastMCP's RootsHandler (roots.py), a function so that it runs per request."""
        return await self.driver.answer(context.request_id, "roots/list", self.send_nested, synthetic_roots, refused("roots"))

    async def on_message(self, message: Any) -> None:
        """The toolset's message_handler (:1004, run after its own cache invalidation, :2040-2062); on 1.x the loop
        hands it exceptions too, e.g. a late reply's unknown request ID."""
        if not MCP2:
            note_message(self.driver.events, message)

    @asynccontextmanager
    async def connect(self, driver: Driver, read: Any, write: Any) -> AsyncIterator[Connection]:
        """The toolset as an app builds it; read_timeout (the FastMCP Client's every-request limit, :1315) is the
        plan's call limit, not the 300 s default (:1132). A handler left out declares nothing: none is passed unplanned."""
        self.driver = driver
        limit = driver.plan.callTimeoutMs / 1000
        toolset = self.toolset = MCPToolset(
            OwnStdio(read, write), cache_tools=self.cache_tools, tool_error_behavior="error",
            elicitation_handler=self.elicitation if driver.wants("elicitation") else None,
            sampling_handler=self.sampling if driver.wants("sampling") else None,
            # a plain function: FastMCP 3.4.11 takes a roots handler only if inspect.isfunction (roots.py:38-42), a bound method raises
            roots=(lambda context: self.roots(context)) if driver.wants("roots") else None,
            message_handler=self.on_message, init_timeout=limit, read_timeout=limit,
            client_info=types.Implementation(name=f"reentrancy-lab-client-{self.peer}", version="0.1.0"))
        try:
            await toolset.__aenter__()  # FastMCP's Client negotiates (4.x: its default mode 'auto'; 3.x: initialize)
        finally:
            negotiated = getattr(toolset.client, "protocol_version", None) if MCP2 else None
            if MCP2:
                era = None if negotiated is None else "modern" if negotiated in MODERN_PROTOCOL_VERSIONS else "legacy"
                driver.events.write("protocol.negotiated", detail={"negotiation": "auto", "protocolVersion": negotiated, "era": era})
        try:
            async def list_tools() -> set[str]:
                return {tool.name for tool in await toolset.list_tools()}

            async def call_tool(call: CallData, timeout_s: float) -> dict[str, Any]:
                # direct_call_tool (:1625) maps the result to the tool's structured content (:2291-2306); the
                # call's limit is the Client's read_timeout (direct_call_tool takes none)
                result = await toolset.direct_call_tool(call.tool, call.args)
                return {"result": result, "isError": False}

            yield Connection(list_tools, call_tool)
        finally:
            await toolset.__aexit__(None, None, None)


if __name__ == "__main__":
    sys.exit(main(PydanticAi(), sys.argv[1:]))
