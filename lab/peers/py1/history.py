# The history adapter: one 1.x driver for every mcp 1.x release that has client callbacks (1.3.0 to 1.30.0), run by
# `history --client py` in each release's own venv (build/history/py/<version>/). Where the public API changed, the
# table below says which call it uses from which release; each row is checked against the installed source
# (inspect.signature) before anything is sent, so a wrong row fails the run, naming the release.
# CLI: history.py --plan PLAN.json --events EVENTS.jsonl
from __future__ import annotations

import inspect
import os
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import timedelta
from importlib.metadata import version
from types import SimpleNamespace
from typing import Any

import anyio
from mcp import types
from mcp.client.session import ClientSession
from mcp.shared.session import BaseSession
from mcp.shared.version import SUPPORTED_PROTOCOL_VERSIONS

sys.path.insert(1, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
from lab_driver import Connection, Driver, NestedSend, main  # noqa: E402  (the one Python driver)
from lab_events import Events  # noqa: E402
from lab_mcp1 import Mcp1Adapter, completion, note_message, refused, synthetic_roots, unsupported  # noqa: E402
from lab_pipe import Wire  # noqa: E402
from lab_plan import AnswerData, CallData, Nested  # noqa: E402

# (first release, where, name): the keyword exists from that release on (read at each boundary release's
# mcp/client/session.py ClientSession.__init__ and mcp/shared/session.py BaseSession.send_request).
API = (
    ((1, 3, 0), "ClientSession", "sampling_callback"),
    ((1, 3, 0), "ClientSession", "list_roots_callback"),
    ((1, 5, 0), "ClientSession", "logging_callback"),
    ((1, 6, 0), "ClientSession", "message_handler"),
    ((1, 7, 0), "ClientSession", "client_info"),
    ((1, 7, 0), "send_request", "request_read_timeout_seconds"),  # before: only the session's read_timeout_seconds
    ((1, 8, 0), "send_request", "metadata"),  # and the streams carry SessionMessage (mcp/shared/message.py)
    ((1, 10, 0), "ClientSession", "elicitation_callback"),
)
# 1.4.0 alone: the streams carry types.MessageFrame(message, raw) (mcp/types.py:186, shared/session.py:324); 1.4.1 reverts.
FRAMED = ((1, 4, 0), (1, 4, 1))
RELEASE = tuple(int(part) for part in version("mcp").split(".")[:3])
IS_FRAMED = FRAMED[0] <= RELEASE < FRAMED[1]
PARAMS = {"ClientSession": inspect.signature(ClientSession.__init__).parameters,
          "send_request": inspect.signature(BaseSession.send_request).parameters}


def has(name: str) -> bool:
    """The table's answer for this release (the installed source must agree: api_mismatch)."""
    return any(row[2] == name and RELEASE >= row[0] for row in API)


def api_mismatch() -> str | None:
    wrong = [f"{name} (table: from {'.'.join(map(str, first))}; installed: {'present' if name in PARAMS[where] else 'absent'})"
             for first, where, name in API if (name in PARAMS[where]) != (RELEASE >= first)]
    if hasattr(types, "MessageFrame") != IS_FRAMED:
        wrong.append(f"MessageFrame (table: 1.4.0 only; installed: {'present' if hasattr(types, 'MessageFrame') else 'absent'})")
    return f"the API table disagrees with mcp {version('mcp')}: {', '.join(wrong)}" if wrong else None


async def send_nested(session: ClientSession, nested: Nested) -> set[str]:
    """The nested request: 1.7.0+ with the SDK's per-request limit (McpError 408 on expiry); before, send_request takes
    none, so the callback's own limit (anyio.fail_after) bounds it."""
    is_list = nested.method == "tools/list"
    request = types.ClientRequest(types.ListToolsRequest(method="tools/list") if is_list else types.PingRequest(method="ping"))
    kind = types.ListToolsResult if is_list else types.EmptyResult
    limit = timedelta(milliseconds=nested.timeoutMs)
    if has("request_read_timeout_seconds"):
        result = await session.send_request(request, kind, request_read_timeout_seconds=limit)
    else:
        with anyio.fail_after(limit.total_seconds()):
            result = await session.send_request(request, kind)
    return {tool.name for tool in result.tools} if isinstance(result, types.ListToolsResult) else set()


def nested_in(context: Any) -> NestedSend:
    return lambda nested: send_nested(context.session, nested)


class History(Mcp1Adapter):
    prog = f"py {version('mcp')} history.py"
    description = f"mcp {version('mcp')} history client driver for the reentrancy lab"
    driver: Driver
    client_info = types.Implementation(name="reentrancy-lab-client-history", version="0.1.0")
    if IS_FRAMED:  # the writer's items have .message already
        wire = Wire(parse=Mcp1Adapter.wire.parse, dump=Mcp1Adapter.wire.dump, session_message=lambda message: types.MessageFrame(message=message, raw=None))
    elif not has("metadata"):  # before 1.8.0: the read stream carries the message itself, not a SessionMessage
        wire = Wire(parse=Mcp1Adapter.wire.parse, dump=Mcp1Adapter.wire.dump, session_message=lambda message: message)

    def refusal(self, plan: Any) -> str | None:
        return api_mismatch()

    def log(self, events: Events) -> None:
        events.write("note", detail={"mcp": version("mcp"), "api": [name for _, _, name in API if has(name)]})

    async def elicitation(self, context: Any, params: Any) -> Any:
        answer = await self.driver.elicitation(context.request_id, nested_in(context), unsupported)
        return types.ElicitResult.model_construct(**answer.fields()) if isinstance(answer, AnswerData) else answer

    async def sampling(self, context: Any, params: Any) -> Any:
        return await self.driver.answer(context.request_id, "sampling/createMessage", nested_in(context), completion, refused("sampling"))

    async def roots(self, context: Any) -> Any:
        return await self.driver.answer(context.request_id, "roots/list", nested_in(context),
                                        lambda: types.ListRootsResult(roots=synthetic_roots()), refused("roots"))

    async def on_message(self, message: Any) -> None:
        note_message(self.driver.events, message)

    def options(self) -> dict[str, Any]:
        """ClientSession's keywords, each only from the release the table gives."""
        wants, plan = self.driver.wants, self.driver.plan
        chosen = {"sampling_callback": self.sampling if wants("sampling") else None,
                  "list_roots_callback": self.roots if wants("roots") else None,
                  "elicitation_callback": self.elicitation if wants("elicitation") else None,
                  "message_handler": self.on_message, "client_info": self.client_info}
        return {"read_timeout_seconds": timedelta(milliseconds=plan.callTimeoutMs),
                **{name: value for name, value in chosen.items() if has(name)}}

    @asynccontextmanager
    async def connect(self, driver: Driver, read: Any, write: Any) -> AsyncIterator[Connection]:
        self.driver = driver
        async with anyio.create_task_group() as group:
            if not has("metadata") and not IS_FRAMED:  # the pipe's writer reads item.message: wrap what the session writes
                send, receive = anyio.create_memory_object_stream(0)
                group.start_soon(forward, receive, write)
                write = send
            async with ClientSession(read, write, **self.options()) as session:
                await self.initialize(session)

                async def list_tools() -> set[str]:
                    return {tool.name for tool in (await session.list_tools()).tools}

                async def call_tool(call: CallData, timeout_s: float) -> dict[str, Any]:
                    with anyio.fail_after(timeout_s):
                        result = await session.call_tool(call.tool, call.args)
                    return {"result": getattr(result, "structuredContent", None), "isError": result.isError is True}

                yield Connection(list_tools, call_tool)
            group.cancel_scope.cancel()

    async def initialize(self, session: ClientSession) -> None:
        """initialize() declaring exactly the plan's capabilities (extra fields are allowed in every release's types)."""
        capabilities = types.ClientCapabilities.model_validate(self.driver.plan.capabilities)
        result = await session.send_request(
            types.ClientRequest(types.InitializeRequest(method="initialize", params=types.InitializeRequestParams(
                protocolVersion=types.LATEST_PROTOCOL_VERSION, capabilities=capabilities, clientInfo=self.client_info))),
            types.InitializeResult,
        )
        if result.protocolVersion not in SUPPORTED_PROTOCOL_VERSIONS:
            raise RuntimeError(f"Unsupported protocol version from the server: {result.protocolVersion}")
        await session.send_notification(types.ClientNotification(types.InitializedNotification(method="notifications/initialized")))
        self.driver.events.write("note", detail={"negotiatedProtocol": result.protocolVersion, "server": result.serverInfo.name})


async def forward(receive: Any, write: Any) -> None:
    async with receive:
        async for message in receive:
            await write.send(SimpleNamespace(message=message))


if __name__ == "__main__":
    sys.exit(main(History(), sys.argv[1:]))
