# Client peer `langchain-py`: langchain-mcp-adapters 0.3.2's MultiServerMCPClient on mcp 1.30.0 (as pip resolves it
# alone: it pins mcp>=1.24,<2), the adapter of the lab's one Python driver. The framework hands the mcp ClientSession
# itself out as its API (client.session(name), langchain_mcp_adapters/client.py:129-164), so the calls go through that
# session, the one an app keeps (`async with client.session("lab") as s`, then load_mcp_tools(s), tools.py:539-596).
# The framework takes only a server command (sessions.py:82-85, stdio_client at :269): the command is the lab's relay
# (lab/peers/python/lab_relay.py), joined to the lab's pipe.
#
# Its default, a session per tool call (client.get_tools(), client.py:166; each tool opens create_session per call,
# tools.py:358, :460), spawns the server once per call; the relay lets one server process join the lab's pipe, so
# that mode is not a run here but a finding (notebooks/reference/findings-python-stack.md): the nested request of a
# callback in it is the same inline await on a session of its own, the serial loop is the same.
# CLI: client.py --plan PLAN.json --events EVENTS.jsonl
from __future__ import annotations

import logging
import os
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import timedelta
from importlib.metadata import version
from typing import Any

from langchain_mcp_adapters.callbacks import CallbackContext, Callbacks
from langchain_mcp_adapters.client import MultiServerMCPClient
from langchain_mcp_adapters.tools import load_mcp_tools
from mcp import ClientSession, types
from mcp.shared.context import RequestContext

sys.path.insert(1, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
from lab_backstop import backstopped  # noqa: E402  (the lab's bound where the framework sets none)
from lab_driver import Connection, Driver, main  # noqa: E402  (the one Python driver)
from lab_events import Events  # noqa: E402
from lab_mcp1 import Mcp1Adapter, note_message, undeclarable, unsupported  # noqa: E402  (what the 1.x adapters share)
from lab_plan import AnswerData, CallData, Nested, SessionPlan  # noqa: E402


class LangchainPy(Mcp1Adapter):
    prog = "langchain-py client.py"
    description = f"langchain-mcp-adapters {version('langchain-mcp-adapters')} (mcp {version('mcp')}) client peer driver"
    spawns = True
    driver: Driver
    session: ClientSession | None = None

    def refusal(self, plan: SessionPlan) -> str | None:
        # client.session() initializes with mcp's own initialize (client.py:160-162). Sampling and roots: the framework
        # has no such callback (callbacks.py:97-102): the session declares neither, as an app's would, and mcp's
        # defaults answer any such request with an error
        return undeclarable(plan, "langchain-mcp-adapters")

    def log(self, events: Events) -> None:
        logging.basicConfig(stream=sys.stderr, level=logging.WARNING, format=f"{self.prog} %(name)s: %(message)s")

    async def send_nested(self, nested: Nested) -> set[str]:
        """The nested request on the session the framework handed out (the one the callback's context carries):
        tools/list through the framework's own load_mcp_tools (tools.py:539-596, session.list_tools at :343), a ping
        as the session's send_ping (mcp/client/session.py:238). Neither takes a limit and the session has none
        (create_session passes session_kwargs as given, sessions.py:269; mcp 1.30.0's default is no read timeout,
        shared/session.py:284-291): the lab's backstop ends the wait (lab_backstop.py)."""
        assert self.session is not None
        session = self.session
        if nested.method == "tools/list":
            return {tool.name for tool in await load_mcp_tools(session)}
        await session.send_ping()
        return set()

    async def elicitation(self, mcp_context: RequestContext[ClientSession, Any], params: types.ElicitRequestParams,
                          context: CallbackContext) -> types.ElicitResult | types.ErrorData:
        """Callbacks.on_elicitation (callbacks.py:71-84), wrapped into mcp's elicitation_callback by to_mcp_format
        (:124-132): it runs inside 1.30.0's receive loop's await (shared/session.py:376, client/session.py:596-604)."""
        answer = await self.driver.elicitation(mcp_context.request_id, lambda n: backstopped(n, self.send_nested), unsupported)
        if not isinstance(answer, AnswerData):
            return answer
        # Built without validation, as py1's: what refuses a wrong answer is the SDK (client/session.py:596) or the server.
        return types.ElicitResult.model_construct(**answer.fields())

    async def on_log(self, params: types.LoggingMessageNotificationParams, context: CallbackContext) -> None:
        self.driver.events.write("note", detail={"serverLog": params.data, "level": params.level})

    async def on_message(self, message: Any) -> None:
        note_message(self.driver.events, message)

    @asynccontextmanager
    async def connect_command(self, driver: Driver, command: list[str]) -> AsyncIterator[Connection]:
        """One stdio connection whose command is the relay. session_kwargs is the framework's own seam for the
        ClientSession's arguments (sessions.py:125-126): the message handler, so that a late reply is seen."""
        self.driver = driver
        callbacks = Callbacks(on_elicitation=self.elicitation if driver.wants("elicitation") else None, on_logging_message=self.on_log)
        client = MultiServerMCPClient({"lab": {"transport": "stdio", "command": command[0], "args": command[1:],
                                               "session_kwargs": {"message_handler": self.on_message}}}, callbacks=callbacks)
        async with client.session("lab") as session:  # initialized by mcp's own initialize (client.py:160-162)
            self.session = session

            async def list_tools() -> set[str]:
                return {tool.name for tool in await load_mcp_tools(session)}

            async def call_tool(call: CallData, timeout_s: float) -> dict[str, Any]:
                result = await session.call_tool(call.tool, call.args, read_timeout_seconds=timedelta(seconds=timeout_s))
                return {"result": result.structuredContent, "isError": result.isError is True}

            yield Connection(list_tools, call_tool)


if __name__ == "__main__":
    sys.exit(main(LangchainPy(), sys.argv[1:]))
