# Client peers `py1` and `py130`: the MCP Python SDK 1.x ClientSession as shipped (1.29.0, 1.30.0: each runs this
# file in its own venv), the adapter of the lab's one Python driver (lab/peers/python/lab_driver.py runs the plan
# and writes the events). Nothing of the lab's loop models applies: the receive loop is the SDK's own (1.29.0:
# mcp/shared/session.py:351-434 awaits each inbound request's handler inline, :376; 1.30.0: the same lines).
# CLI: client.py --plan PLAN.json --events EVENTS.jsonl [--peer py130]
from __future__ import annotations

import argparse
import logging
import os
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import timedelta
from importlib.metadata import version
from typing import Any

from mcp import types
from mcp.client.session import ClientSession
from mcp.shared.context import RequestContext
from mcp.shared.version import SUPPORTED_PROTOCOL_VERSIONS

sys.path.insert(1, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
from lab_driver import Connection, Driver, NestedSend, main  # noqa: E402  (the one Python driver)
from lab_events import Events  # noqa: E402
from lab_mcp1 import Mcp1Adapter, completion, note_message, synthetic_roots  # noqa: E402  (what the 1.x adapters share)
from lab_plan import AnswerData, CallData, Nested  # noqa: E402

Context = RequestContext[ClientSession, Any]


async def send_nested(session: ClientSession, nested: Nested) -> set[str]:
    """The nested request with 1.x's per-request limit (shared/session.py:283-303: McpError 408 on expiry)."""
    is_list = nested.method == "tools/list"
    request = types.ClientRequest(types.ListToolsRequest() if is_list else types.PingRequest())
    result = await session.send_request(request, types.ListToolsResult if is_list else types.EmptyResult,
                                        request_read_timeout_seconds=timedelta(milliseconds=nested.timeoutMs))
    return {tool.name for tool in result.tools} if isinstance(result, types.ListToolsResult) else set()


def refused(what: str) -> Any:
    """The answer when the call planned no such callback: the SDK's error reply."""
    return lambda: types.ErrorData(code=types.INVALID_REQUEST, message=f"no {what} planned for this call")


def nested_in(context: Context) -> NestedSend:
    return lambda nested: send_nested(context.session, nested)


class Py1(Mcp1Adapter):
    prog = "py1 client.py"
    description = f"mcp {version('mcp')} client peer driver for the reentrancy lab"
    driver: Driver
    client_info = types.Implementation(name="reentrancy-lab-client-py1", version="0.1.0")

    def arguments(self, parser: argparse.ArgumentParser) -> None:
        # which peer this run is (one adapter, a venv each: py1, py130): its name on the wire and on stderr
        parser.add_argument("--peer", default="py1")

    def configure(self, args: argparse.Namespace) -> None:
        self.prog = f"{args.peer} client.py"
        self.client_info = types.Implementation(name=f"reentrancy-lab-client-{args.peer}", version="0.1.0")

    def log(self, events: Events) -> None:
        logging.basicConfig(stream=sys.stderr, level=logging.WARNING, format=f"{self.prog} %(name)s: %(message)s")

    async def elicitation(self, context: Context, params: types.ElicitRequestParams) -> types.ElicitResult | types.ErrorData:
        """Runs inside the receive loop's await (client/session.py:589-597): nothing else is read meanwhile."""
        answer = await self.driver.elicitation(context.request_id, nested_in(context), self.unplanned)
        if not isinstance(answer, AnswerData):
            return answer
        # Built without validation: content goes out exactly as the plan gives it; whatever refuses it is the
        # SDK (ClientResponse.validate_python, client/session.py:596) or the server.
        return types.ElicitResult.model_construct(**answer.fields())

    def unplanned(self) -> types.ErrorData:
        # the SDK's own default answer (client/session.py:85-92)
        return types.ErrorData(code=types.INVALID_REQUEST, message="Elicitation not supported")

    async def sampling(self, context: Context, params: types.CreateMessageRequestParams) -> types.CreateMessageResult | types.ErrorData:
        return await self.driver.answer(context.request_id, "sampling/createMessage", nested_in(context), completion, refused("sampling"))

    async def roots(self, context: Context) -> types.ListRootsResult | types.ErrorData:
        return await self.driver.answer(context.request_id, "roots/list", nested_in(context),
                                        lambda: types.ListRootsResult(roots=synthetic_roots()), refused("roots"))

    async def on_message(self, message: Any) -> None:
        """The message handler (client/session.py:614-619): what the loop hands on, e.g. a late reply as
        RuntimeError('Received response with an unknown request ID', shared/session.py:518)."""
        note_message(self.driver.events, message)

    async def on_log(self, params: types.LoggingMessageNotificationParams) -> None:
        self.driver.events.write("note", detail={"serverLog": params.data, "level": params.level})

    @asynccontextmanager
    async def connect(self, driver: Driver, read: Any, write: Any) -> AsyncIterator[Connection]:
        self.driver = driver
        timeout = timedelta(milliseconds=driver.plan.callTimeoutMs)
        session = ClientSession(read, write, read_timeout_seconds=timeout,
                                elicitation_callback=self.elicitation if driver.wants("elicitation") else None,
                                sampling_callback=self.sampling if driver.wants("sampling") else None,
                                list_roots_callback=self.roots if driver.wants("roots") else None,
                                logging_callback=self.on_log, message_handler=self.on_message, client_info=self.client_info)
        async with session:
            await self.initialize(session)

            async def list_tools() -> set[str]:
                return {tool.name for tool in (await session.list_tools()).tools}

            async def call_tool(call: CallData, timeout_s: float) -> dict[str, Any]:
                result = await session.call_tool(call.tool, call.args, read_timeout_seconds=timedelta(seconds=timeout_s))
                return {"result": result.structuredContent, "isError": result.isError is True}

            yield Connection(list_tools, call_tool)

    async def initialize(self, session: ClientSession) -> None:
        """initialize() as client/session.py:160-209 does it, but declaring exactly the plan's capabilities
        (the SDK's own declares elicitation {form, url} whenever a callback is set, :166-173)."""
        capabilities = types.ClientCapabilities.model_validate(self.driver.plan.capabilities)
        result = await session.send_request(
            types.ClientRequest(types.InitializeRequest(params=types.InitializeRequestParams(
                protocolVersion=types.LATEST_PROTOCOL_VERSION, capabilities=capabilities, clientInfo=self.client_info))),
            types.InitializeResult,
        )
        if result.protocolVersion not in SUPPORTED_PROTOCOL_VERSIONS:
            raise RuntimeError(f"Unsupported protocol version from the server: {result.protocolVersion}")
        await session.send_notification(types.ClientNotification(types.InitializedNotification()))
        self.driver.events.write("note", detail={"negotiatedProtocol": result.protocolVersion, "server": result.serverInfo.name})


if __name__ == "__main__":
    sys.exit(main(Py1(), sys.argv[1:]))
