# Client peer `mcp-use`: mcp-use 1.7.1's MCPClient on mcp 1.30.0 (as pip resolves it alone), the adapter of the lab's
# one Python driver. The client is the framework's own: MCPClient(config, elicitation_callback, sampling_callback,
# list_roots_callback, message_handler, logging_callback) (mcp_use/client/client.py:35-50) and the MCPSession its
# create_session returns (:281-333), whose call_tool and list_tools an agent's tools call. The framework takes only a
# server command (StdioConnector, client/connectors/stdio.py:21-31): the command is the lab's relay
# (lab/peers/python/lab_relay.py), joined to the lab's pipe.
# CLI: client.py --plan PLAN.json --events EVENTS.jsonl
from __future__ import annotations

import os

# mcp-use sends anonymized telemetry (PostHog, Scarf) unless this is false (mcp_use/telemetry/telemetry.py:126-139):
# no network in the lab. Set before mcp_use is imported.
os.environ["MCP_USE_ANONYMIZED_TELEMETRY"] = "false"

import asyncio  # noqa: E402
import logging  # noqa: E402
import sys  # noqa: E402
from collections.abc import AsyncIterator  # noqa: E402
from contextlib import asynccontextmanager  # noqa: E402
from datetime import timedelta  # noqa: E402
from importlib.metadata import version  # noqa: E402
from typing import Any  # noqa: E402

import anyio  # noqa: E402

from mcp import ClientSession, types  # noqa: E402
from mcp.shared.context import RequestContext  # noqa: E402
from mcp_use import MCPClient  # noqa: E402
from mcp_use.client.session import MCPSession  # noqa: E402

sys.path.insert(1, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
from lab_backstop import backstopped  # noqa: E402  (the lab's bound where the framework sets none)
from lab_driver import Connection, Driver, NestedSend, main  # noqa: E402  (the one Python driver)
from lab_events import Events  # noqa: E402
from lab_mcp1 import Mcp1Adapter, completion, note_message, refused, synthetic_roots, undeclarable, unsupported  # noqa: E402  (what the 1.x adapters share)
from lab_plan import AnswerData, CallData, Nested, SessionPlan  # noqa: E402

Context = RequestContext[ClientSession, Any]


class McpUse(Mcp1Adapter):
    prog = "mcp-use client.py"
    description = f"mcp-use {version('mcp-use')} (mcp {version('mcp')}) client peer driver for the reentrancy lab"
    spawns = True
    driver: Driver
    session: MCPSession | None = None

    def refusal(self, plan: SessionPlan) -> str | None:
        return undeclarable(plan, "mcp-use")  # its session initializes with mcp's own initialize (connectors/base.py:262)

    def log(self, events: Events) -> None:
        logging.basicConfig(stream=sys.stderr, level=logging.WARNING, format=f"{self.prog} %(name)s: %(message)s")

    def nested_in(self, context: Context) -> NestedSend:
        """The nested request through the framework where it offers one: tools/list as MCPSession.list_tools
        (client/session.py:115-121 -> connectors/base.py:481-498, which returns [] on an McpError); a ping, which
        mcp-use does not offer, on the SDK session the callback is handed (mcp/client/session.py:238). Neither takes a
        limit and the stdio ClientSession gets none (connectors/stdio.py:88-97; 1.30.0 waits with fail_after(None),
        shared/session.py:284-291): the lab's backstop ends the wait (lab_backstop.py)."""
        async def send(nested: Nested) -> set[str]:
            assert self.session is not None
            if nested.method == "tools/list":
                return {tool.name for tool in await self.session.list_tools()}
            await context.session.send_ping()
            return set()
        return lambda nested: backstopped(nested, send)

    async def elicitation(self, context: Context, params: types.ElicitRequestParams) -> types.ElicitResult | types.ErrorData:
        """mcp's ElicitationFnT, passed to the ClientSession as it is (connectors/stdio.py:88-97): it runs inside
        1.30.0's receive loop's await (shared/session.py:376, client/session.py:596-604)."""
        answer = await self.driver.elicitation(context.request_id, self.nested_in(context), unsupported)
        if not isinstance(answer, AnswerData):
            return answer
        return types.ElicitResult.model_construct(**answer.fields())  # unvalidated, as py1's

    async def sampling(self, context: Context, params: types.CreateMessageRequestParams) -> types.CreateMessageResult | types.ErrorData:
        return await self.driver.answer(context.request_id, "sampling/createMessage", self.nested_in(context), completion, refused("sampling"))

    async def roots(self, context: Context) -> types.ListRootsResult | types.ErrorData:
        """Called through mcp-use's own roots callback, which calls a user's first (connectors/base.py:115-129)."""
        return await self.driver.answer(context.request_id, "roots/list", self.nested_in(context),
                                        lambda: types.ListRootsResult(roots=synthetic_roots()), refused("roots"))

    async def on_message(self, message: Any) -> None:
        """mcp-use's _internal_message_handler hands every message on (connectors/base.py:167-180)."""
        note_message(self.driver.events, message)

    async def on_log(self, params: types.LoggingMessageNotificationParams) -> None:
        self.driver.events.write("note", detail={"serverLog": params.data, "level": params.level})

    @asynccontextmanager
    async def connect_command(self, driver: Driver, command: list[str]) -> AsyncIterator[Connection]:
        """A roots callback is always installed, so roots is always declared (connectors/base.py:130-136): with none
        planned, mcp-use's own answers (the roots it was given: none). The client lives in a task of its own: the
        stdio connector enters the ClientSession in its caller's task (connectors/stdio.py:98) and, with a connection
        manager, never exits it (connectors/base.py:224-233), so a cancel scope the caller entered before could not
        exit (anyio: "Attempted to exit a cancel scope that isn't the current tasks's current cancel scope")."""
        self.driver = driver
        client = MCPClient({"mcpServers": {"lab": {"command": command[0], "args": command[1:]}}},
                           elicitation_callback=self.elicitation if driver.wants("elicitation") else None,
                           sampling_callback=self.sampling if driver.wants("sampling") else None,
                           list_roots_callback=self.roots if driver.wants("roots") else None,
                           message_handler=self.on_message, logging_callback=self.on_log)
        done = anyio.Event()
        ready: asyncio.Future[MCPSession] = asyncio.get_running_loop().create_future()

        async def hold() -> None:
            try:
                # connects, initializes, and lists tools (and resources, prompts) once (connectors/base.py:252-307)
                session = await client.create_session("lab")
                assert session is not None
                ready.set_result(session)
                await done.wait()
            except BaseException as error:
                if not ready.done():
                    ready.set_exception(error)
                raise
            finally:
                await client.close_all_sessions()

        # a bare asyncio task: an anyio task group's child runs in a cancel scope of its own (anyio/_core/_tasks.py:325),
        # which the session's scope left open above it could not exit either
        holder = asyncio.create_task(hold())
        session = self.session = await ready

        async def list_tools() -> set[str]:
            return {tool.name for tool in await session.list_tools()}

        async def call_tool(call: CallData, timeout_s: float) -> dict[str, Any]:
            result = await session.call_tool(call.tool, call.args, read_timeout_seconds=timedelta(seconds=timeout_s))
            return {"result": result.structuredContent, "isError": result.isError is True}

        try:
            yield Connection(list_tools, call_tool)
        finally:
            done.set()
            with anyio.CancelScope(shield=True):
                await holder

if __name__ == "__main__":
    sys.exit(main(McpUse(), sys.argv[1:]))
