# Client peers `strands` and `strands-sync`: strands-agents 1.65.0's MCPClient (on mcp 2.3.0), the object its
# agents call, as an adapter of the lab's one Python driver (lab/peers/python/lab_driver.py). Sources under
# build/venvs/strands/lib/python3.11/site-packages/. MCPClient runs the session on a background thread with a loop
# of its own (start() :442, _background_task :1632-1644) and hands the elicitation_callback to mcp 2.3.0's
# ClientSession (:1483-1487), whose JSONRPCDispatcher spawns each inbound request (jsonrpc_dispatcher.py:623, :688).
# It has no sampling or roots callback. The nested request:
#  - strands: strands has no async list_tools (list_tools_sync :724 only), so it goes through the session the
#    callback is handed (context.session, mcp/client/session.py:198-201), with the SDK's own per-request timeout;
#  - strands-sync (--sync): strands' own list_tools_sync() from inside the callback. It schedules its coroutine on the
#    background loop and blocks on .result() with no timeout (:757, _invoke_on_background_thread :1834-1912); the
#    callback runs on that very loop, so the request is never sent and nothing in strands or mcp can end the wait.
#    The driver's own thread bounds it (the plan's nested limit plus the lab's backstop) and ends the session there.
# CLI: client.py --plan PLAN.json --events EVENTS.jsonl [--sync]
from __future__ import annotations

import argparse
import os
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import timedelta
from typing import Any

import anyio
import mcp_types as types
from mcp.client.session import ClientRequestContext
from mcp_types.version import MODERN_PROTOCOL_VERSIONS
from strands.tools.mcp import MCPClient

sys.path.insert(1, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
from lab_driver import Connection, Driver, main  # noqa: E402  (the one Python driver)
from lab_events import bound_ended  # noqa: E402
from lab_mcp2 import Mcp2Adapter, send_nested  # noqa: E402  (what the 2.x adapters share)
from lab_pipe import own_stdio  # noqa: E402
from lab_plan import CallData, Nested, SessionPlan, undeclarable  # noqa: E402

APPLICATION = "reentrancy-lab-client-strands"  # clientInfo.name (strands sends it only when given, :1488-1495)
# Past the plan's nested limit, the lab's backstop (as the kotlin driver's BACKSTOP_MS, lab/peers/jvm/kotlin/Main.kt)
BACKSTOP_S = 1.0
WEDGED = ("list_tools_sync() blocks, with no timeout (strands mcp_client.py:757), the background loop its request "
          "must be sent from and the callback runs on, so no SDK limit can fire")


class StrandsClient(Mcp2Adapter):
    prog = "strands client.py"
    description = "strands-agents 1.65.0 MCPClient client peer driver for the reentrancy lab"
    opens_pipe = True  # the transport is opened by strands, on its background loop (:1481)
    sync = False
    driver: Driver
    client: MCPClient
    blocked: anyio.Event  # set (from the background thread) when a sync nested request starts to block
    wedged = False  # the background loop is blocked for good: the client cannot be stopped

    def arguments(self, parser: argparse.ArgumentParser) -> None:
        parser.add_argument("--sync", action="store_true", help="the nested request through list_tools_sync()")

    def configure(self, args: argparse.Namespace) -> None:
        self.sync = args.sync

    def refusal(self, plan: SessionPlan) -> str | None:
        others = sorted(set(plan.capabilities) - {"elicitation"})
        if others:
            return (f"strands' MCPClient cannot run it: capabilities {others}: it takes an elicitation_callback only "
                    "(strands/tools/mcp/mcp_client.py:318, handed to ClientSession at :1483-1487)")
        # strands' negotiate_session runs the SDK's own initialize (_compat.py:541-548)
        return undeclarable(plan, "strands' MCPClient", "mcp/client/session.py:634-637")

    async def send_nested(self, context: ClientRequestContext, nested: Nested) -> set[str]:
        if not self.sync:
            return await send_nested(context.session, nested)
        if nested.method != "tools/list":
            raise RuntimeError(f"strands has no sync API for {nested.method}")
        self.driver.signal(self.blocked)
        return {tool.tool_name for tool in self.client.list_tools_sync()}  # blocks this loop: never returns

    async def elicitation(self, context: ClientRequestContext, params: types.ElicitRequestParams) -> Any:
        """mcp 2.3.0's ElicitationFnT (session.py:214), run on strands' background loop in a task the dispatcher spawned."""
        embedded = context.session.protocol_version in MODERN_PROTOCOL_VERSIONS
        answer = await self.driver.elicitation(context.request_id, lambda nested: self.send_nested(context, nested),
                                               self.unplanned, embedded=embedded)
        return types.ElicitResult.model_construct(**answer.fields())

    def unplanned(self) -> Any:
        return types.ErrorData(code=types.INVALID_REQUEST, message="Elicitation not supported")  # as the SDK's default

    async def call_tool(self, call: CallData, timeout_s: float) -> dict[str, Any]:
        """call_tool_async (:1084), the path an agent's tools take (MCPAgentTool); it turns every error into an error
        result with the text only (_handle_tool_execution_error :1385-1424), so that text is the outcome's message.
        With --sync, the driver's thread races it against the lab's bound, armed when the callback blocks."""
        result: Any = None
        async with anyio.create_task_group() as group:
            async def bound() -> None:
                await self.blocked.wait()
                nested = next(c.callback.nested for c in self.driver.plan.calls if c.label == call.label and c.callback)
                limit = (nested.timeoutMs / 1000 if nested else 0) + BACKSTOP_S
                await anyio.sleep(limit)  # the lab's bound, the stimulus
                self.wedged = self.driver.ended = True  # the driver sends no further call
                bound_ended(self.driver.events, "tools/list", limit, WEDGED)
                group.cancel_scope.cancel()

            if self.sync:
                group.start_soon(bound)
            result = await self.client.call_tool_async(call.label, call.tool, call.args,
                                                       read_timeout_seconds=timedelta(seconds=timeout_s))
            group.cancel_scope.cancel()
        if self.wedged:
            return {"error": {"code": None, "message": f"ended by the lab's bound: {WEDGED}"}}
        if "structuredContent" not in result and result["status"] == "error":
            return {"error": {"code": None, "message": " ".join(c.get("text", "") for c in result["content"])}}
        return {"result": result.get("structuredContent"), "isError": result.get("isError") is True}

    @asynccontextmanager
    async def connect(self, driver: Driver, read: Any, write: Any) -> AsyncIterator[Connection]:
        """MCPClient(transport_callable): a callable returning an async context manager of (read, write)
        (MCPTransport, strands/tools/mcp/mcp_types.py:89), entered on the background loop (:1481): the lab's own
        pipe, opened there. start() negotiates by mode 'auto' (negotiate_auto: server/discover, then initialize on
        a legacy server; strands _compat.py:541-545, mcp/client/_probe.py:52-95)."""
        self.driver, self.blocked = driver, anyio.Event()
        # startup_timeout: strands' default, 30 s (:311): start() waits that long for the handshake (:468)
        self.client = MCPClient(lambda: own_stdio(self.wire), application_name=APPLICATION,
                                elicitation_callback=self.elicitation if driver.wants("elicitation") else None)
        version: str | None = None
        try:
            await anyio.to_thread.run_sync(self.client.start)
            session = self.client._background_thread_session  # strands keeps no public protocol version
            version = session.protocol_version if session is not None else None
        finally:
            era = None if version is None else "modern" if version in MODERN_PROTOCOL_VERSIONS else "legacy"
            driver.events.write("protocol.negotiated", detail={"negotiation": "auto", "protocolVersion": version, "era": era})
        try:
            async def list_tools() -> set[str]:
                return {tool.tool_name for tool in await anyio.to_thread.run_sync(self.client.list_tools_sync)}

            yield Connection(list_tools, self.call_tool)
        finally:
            # stop() joins the background thread with no timeout (:693): on a blocked loop it would never return.
            # The thread is a daemon (:463): the process ends without it.
            if not self.wedged:
                await anyio.to_thread.run_sync(self.client.stop, None, None, None)


if __name__ == "__main__":
    sys.exit(main(StrandsClient(), sys.argv[1:]))
