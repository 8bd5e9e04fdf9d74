# Client peer `fastmcp`: FastMCP 4.2.3's public Client (on mcp 2.3.0), the adapter of the lab's one Python driver
# (lab/peers/python/lab_driver.py runs the plan and writes the events). The callback is a FastMCP elicitation_handler,
# which fastmcp/client/elicitation.py:53-116 wraps into the mcp 2.3.0 callback that the SDK's JSONRPCDispatcher runs
# in a task of its own per inbound request (_spawn).
# CLI: client.py --plan PLAN.json --events EVENTS.jsonl [--mode legacy|auto]
from __future__ import annotations

import argparse
import os
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import anyio
import mcp_types as types
from fastmcp import Client
from fastmcp.client.elicitation import ElicitResult
from mcp_types.version import MODERN_PROTOCOL_VERSIONS

sys.path.insert(1, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
from lab_driver import Connection, Driver, main  # noqa: E402  (the one Python driver)
from lab_fastmcp import OwnStdio, refusal, refused  # noqa: E402  (the driver's stdio as a FastMCP transport)
from lab_mcp2 import Mcp2Adapter, completion, synthetic_roots  # noqa: E402  (what the 2.x adapters share)
from lab_plan import CallData, Nested, SessionPlan  # noqa: E402

CLIENT_INFO = types.Implementation(name="reentrancy-lab-client-fastmcp", version="0.1.0")


class FastmcpClient(Mcp2Adapter):
    """A withdrawal cancels the handler's scope as in mcp 2.3.0 (Mcp2Adapter.abort_reason); FastMCP's wrapper catches
    only Exception (elicitation.py:110), so the cancellation passes through it and nothing is answered."""
    prog = "fastmcp client.py"
    description = "FastMCP 4.2.3 client peer driver for the reentrancy lab"
    mode = "legacy"
    driver: Driver
    client: Client[OwnStdio] | None = None

    def arguments(self, parser: argparse.ArgumentParser) -> None:
        # legacy: the plans are written for 2025-11-25 (server-to-client elicitation/create); auto probes server/discover
        parser.add_argument("--mode", choices=("legacy", "auto"), default="legacy")

    def configure(self, args: argparse.Namespace) -> None:
        self.mode = args.mode

    def refusal(self, plan: SessionPlan) -> str | None:
        return refusal(plan, "FastMCP's public Client", "fastmcp/client/client.py:560-593", "mcp/client/session.py:634-636")

    async def send_nested(self, nested: Nested) -> set[str]:
        """The nested request through the Client itself. list_tools_mcp() and ping() take no timeout
        (fastmcp/client/mixins/tools.py:35-40, client.py:1517-1520) and the Client's one timeout is every
        request's: the plan's limit is the caller's own scope around the await, as an app would bound it.
        On expiry FastMCP cancels its call task (client.py:1329-1333), the SDK sends its courtesy cancel
        ("caller cancelled", jsonrpc_dispatcher.py:443-452) and fail_after raises TimeoutError."""
        assert self.client is not None
        with anyio.fail_after(nested.timeoutMs / 1000):
            if nested.method == "tools/list":
                return {tool.name for tool in (await self.client.list_tools_mcp()).tools}
            await self.client.ping()
            return set()

    async def elicitation(self, message: str, response_type: Any, params: types.ElicitRequestParams,
                          context: Any) -> ElicitResult[Any]:
        """FastMCP's ElicitationHandler (elicitation.py:26-35); `context` is the SDK's ClientRequestContext. Under
        mode='auto' on a 2026-07-28 server the id is an input request's key, not a wire id (client.py:1407-1415)."""
        embedded = self.client is not None and self.client.protocol_version in MODERN_PROTOCOL_VERSIONS
        answer = await self.driver.elicitation(context.request_id, self.send_nested, self.unplanned, embedded=embedded)
        # The plan's answer as an ElicitResult (T = Any); FastMCP then builds and validates the SDK's
        # ElicitResult from it (elicitation.py:82-108): whatever it refuses goes out as -32603.
        return ElicitResult(action=answer.action, content=answer.content)

    def unplanned(self) -> Any:
        raise RuntimeError("Elicitation not supported")  # the wrapper turns any Exception into -32603 (:88-92)

    async def sampling(self, messages: list[Any], params: Any, context: Any) -> types.CreateMessageResult:
        """FastMCP's SamplingHandler (sampling/__init__.py:23-31): its wrapper answers any Exception as -32603 (:62-66)."""
        return await self.driver.answer(context.request_id, "sampling/createMessage", self.send_nested, completion, refused("sampling"))

    async def roots(self, context: Any) -> list[types.Root]:
        """FastMCP's RootsHandler (roots.py:15-18), a function so that it runs per request."""
        return await self.driver.answer(context.request_id, "roots/list", self.send_nested, synthetic_roots, refused("roots"))

    @asynccontextmanager
    async def connect(self, driver: Driver, read: Any, write: Any) -> AsyncIterator[Connection]:
        """The Client, built on the loop (its session state holds anyio events, client.py:226-240); every request's
        read timeout is the plan's limit (client.py:514, :573). A sampling_handler or roots declares its
        capability (client.py:579-584): none is passed unplanned."""
        self.driver = driver
        limit = driver.plan.callTimeoutMs / 1000
        client = self.client = Client(OwnStdio(read, write),
                                      elicitation_handler=self.elicitation if driver.wants("elicitation") else None,
                                      sampling_handler=self.sampling if driver.wants("sampling") else None,
                                      roots=self.roots if driver.wants("roots") else None,
                                      timeout=limit, init_timeout=limit, client_info=CLIENT_INFO, mode=self.mode)
        version: str | None = None
        try:
            await client.__aenter__()  # negotiates by self.mode (client.py:875-927)
            version = client.protocol_version
        finally:
            era = None if version is None else "modern" if version in MODERN_PROTOCOL_VERSIONS else "legacy"
            driver.events.write("protocol.negotiated", detail={"negotiation": self.mode, "protocolVersion": version, "era": era})
        try:
            async def list_tools() -> set[str]:
                return {tool.name for tool in await client.list_tools()}

            async def call_tool(call: CallData, timeout_s: float) -> dict[str, Any]:
                # call_tool_mcp: the raw result, isError kept (call_tool raises ToolError on it, tools.py:308-368)
                result = await client.call_tool_mcp(call.tool, call.args, timeout=timeout_s)
                return {"result": result.structured_content, "isError": result.is_error is True}

            yield Connection(list_tools, call_tool)
        finally:
            await client.__aexit__(None, None, None)


if __name__ == "__main__":
    # asyncio: the Client runs its session in an asyncio task
    sys.exit(main(FastmcpClient(), sys.argv[1:]))
