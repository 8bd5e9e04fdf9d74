# Client peer `openai-agents-py`: openai-agents 0.25.0's MCPServerStdio (on mcp 2.3.0), the object its Agent's
# mcp_servers hold, as an adapter of the lab's one Python driver (lab/peers/python/lab_driver.py). Sources under
# build/venvs/openai-agents-py/lib/python3.11/site-packages/. It takes no elicitation, sampling or roots callback: only
# a message_handler (agents/mcp/server.py:905). On mcp 2.x it connects through mcp.Client(transport, mode="auto",
# cache=None, read_timeout_seconds, message_handler) (agents/mcp/_compat.py:67-83, used at server.py:1316-1320), whose
# ClientSession keeps the SDK's default callbacks: it declares no elicitation (mcp/client/session.py:634-637) and
# answers a server that asks anyway with -32600 "Elicitation not supported" (:259-266). So the plan's callbacks cannot
# run: the driver notes what it could not declare, and the run shows what a server that asks gets.
# CLI: client.py --plan PLAN.json --events EVENTS.jsonl
from __future__ import annotations

import os
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager, nullcontext
from typing import Any

from agents.mcp import MCPServerStdio
from mcp_types.version import MODERN_PROTOCOL_VERSIONS

sys.path.insert(1, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
from lab_driver import Connection, Driver, main  # noqa: E402  (the one Python driver)
from lab_mcp2 import Mcp2Adapter  # noqa: E402  (what the 2.x adapters share)
from lab_plan import CallData  # noqa: E402

DECLARES = ("openai-agents 0.25.0's MCPServerStdio takes no elicitation, sampling or roots callback (agents/mcp/server.py:"
            "1968-2050); mcp.Client's ClientSession then declares none (mcp/client/session.py:634-637)")


class LabStreams(MCPServerStdio):
    """MCPServerStdio on the driver's own pipe: create_streams() (server.py:2072-2076, stdio_client there) is the
    seam every transport of openai-agents overrides; mcp.Client enters what it returns as its Transport, an async
    context manager yielding (read, write) (mcp/client/client.py:98-103)."""

    def __init__(self, streams: tuple[Any, Any], **options: Any) -> None:
        super().__init__(params={"command": "unused: the lab's pipe is already open"}, **options)
        self.streams = streams

    def create_streams(self) -> Any:
        return nullcontext(self.streams)


class OpenaiAgentsClient(Mcp2Adapter):
    prog = "openai-agents-py client.py"
    description = "openai-agents 0.25.0 MCPServerStdio client peer driver for the reentrancy lab"

    @asynccontextmanager
    async def connect(self, driver: Driver, read: Any, write: Any) -> AsyncIterator[Connection]:
        """connect() (server.py:1376-1420) negotiates by mode 'auto' (server/discover first, then initialize on a
        legacy server); client_session_timeout_seconds is every request's read timeout (:1378), here the plan's."""
        asked = sorted(driver.plan.capabilities)
        if asked:
            driver.events.write("note", detail={"notDeclared": asked, "why": DECLARES})
        server = LabStreams((read, write), cache_tools_list=False,
                           client_session_timeout_seconds=driver.plan.callTimeoutMs / 1000, name="lab")
        version: str | None = None
        try:
            await server.connect()
            version = server.session.protocol_version if server.session is not None else None
        finally:
            era = None if version is None else "modern" if version in MODERN_PROTOCOL_VERSIONS else "legacy"
            driver.events.write("protocol.negotiated", detail={"negotiation": "auto", "protocolVersion": version, "era": era})
        try:
            async def list_tools() -> set[str]:
                return {tool.name for tool in await server.list_tools()}  # cache off (:1490): on the wire each time

            async def call_tool(call: CallData, timeout_s: float) -> dict[str, Any]:
                # call_tool (:1599-1640) returns the SDK's CallToolResult and raises the SDK's errors as they are
                result = await server.call_tool(call.tool, call.args)
                return {"result": result.structured_content, "isError": result.is_error is True}

            yield Connection(list_tools, call_tool)
        finally:
            await server.cleanup()


if __name__ == "__main__":
    sys.exit(main(OpenaiAgentsClient(), sys.argv[1:]))
