# Client peer driver `py` / `py-inline` (mcp 2.3.0 ClientSession) speaking MCP over its own stdin/stdout.
# It executes a SessionPlan (lab/peers/behaviour.ts) and writes DriverEvent lines (lab/peers/driver-events.ts).
# CLI: client.py --plan PLAN.json --events EVENTS.jsonl [--inline]   (--inline: elicitation/create parks the read loop)
from __future__ import annotations

import argparse
import json
import logging
import os
import sys
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any, Literal

import anyio
import mcp_types as types
from anyio.streams.memory import MemoryObjectReceiveStream, MemoryObjectSendStream
from mcp.client.session import ClientRequestContext, ClientSession
from mcp.shared.exceptions import MCPError
from mcp.shared.jsonrpc_dispatcher import JSONRPCDispatcher
from mcp.shared.message import SessionMessage
from mcp_types.version import HANDSHAKE_PROTOCOL_VERSIONS, LATEST_HANDSHAKE_VERSION
from pydantic import BaseModel, ConfigDict, Field, ValidationError

CLIENT_INFO = types.Implementation(name="reentrancy-lab-client-py", version="0.1.0")
WRITER_DRAIN_BOUND_S = 2.0
INLINE = frozenset({"elicitation/create"})  # the SDK's documented inline ordering (1.x receive loop)


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class AnswerData(_Strict):
    action: Literal["accept", "decline", "cancel"]
    content: dict[str, Any] | None = None


class Nested(_Strict):
    method: Literal["tools/list", "ping"]
    timeoutMs: int = Field(ge=1, le=60_000)


class Behaviour(_Strict):
    delayMs: int | None = Field(default=None, ge=0, le=10_000)
    nested: Nested | None = None
    needTool: str | None = None
    answer: AnswerData
    otherwise: AnswerData | None = None


class CallData(_Strict):
    label: str = Field(min_length=1)
    tool: str = "calculate"
    args: dict[str, Any] = Field(default_factory=dict)
    callback: Behaviour | None = None


class SessionPlan(_Strict):
    scenario: str = Field(min_length=1)
    capabilities: dict[str, Any]
    listToolsFirst: bool
    calls: list[CallData] = Field(min_length=1)
    callTimeoutMs: int = Field(ge=1)


class Events:
    """One JSON object per line, flushed; t_ns is read as the line is written, right when the thing happens."""

    def __init__(self, path: str) -> None:
        self._file = open(path, "w", encoding="utf-8")

    def write(self, kind: str, *, id: int | str | None = None, method: str | None = None,
              detail: dict[str, Any] | None = None) -> None:
        event = {"t_ns": time.monotonic_ns(), "kind": kind, "id": id, "method": method, "detail": detail}
        self._file.write(json.dumps({key: value for key, value in event.items() if value is not None}) + "\n")
        self._file.flush()

    def close(self) -> None:
        self._file.close()


class SdkLogNotes(logging.Handler):
    """Keeps the dispatcher's own word on late replies and abandoned waiters as `note` events."""

    KEPT = ("dropping response", "waiter for request id", "courtesy cancel", "gave up")

    def __init__(self, events: Events) -> None:
        super().__init__(logging.DEBUG)
        self.events = events

    def emit(self, record: logging.LogRecord) -> None:
        message = record.getMessage()
        if record.levelno >= logging.WARNING or message.startswith(self.KEPT):
            self.events.write("note", detail={"sdkLog": message, "logger": record.name, "level": record.levelname})


def error_detail(error: BaseException) -> dict[str, Any]:
    code = error.code if isinstance(error, MCPError) else None
    return {"code": code, "message": str(error), "type": type(error).__name__}


@asynccontextmanager
async def own_stdio() -> AsyncIterator[tuple[MemoryObjectReceiveStream[SessionMessage | Exception],
                                             MemoryObjectSendStream[SessionMessage]]]:
    """The process's own stdin/stdout as SessionMessage streams. Not the SDK's stdio_server(): its reader
    parks in a worker thread (anyio.wrap_file) no cancel reaches, so leaving it waits for stdin's EOF. Here
    both ends are non-blocking fds awaited on the loop; fd 0/1 become /dev/null/stderr (no stray print on the wire)."""
    wire_in, wire_out = os.dup(0), os.dup(1)
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    os.dup2(2, 1)
    os.set_blocking(wire_in, False)
    os.set_blocking(wire_out, False)
    read_send, read_recv = anyio.create_memory_object_stream[SessionMessage | Exception](0)
    write_send, write_recv = anyio.create_memory_object_stream[SessionMessage](0)
    written = anyio.Event()

    async def reader() -> None:
        pending = b""
        async with read_send:
            while True:
                await anyio.wait_readable(wire_in)
                try:
                    chunk = os.read(wire_in, 1 << 16)
                except BlockingIOError:
                    continue
                if not chunk:
                    return
                *lines, pending = (pending + chunk).split(b"\n")
                for line in lines:
                    if not line.strip():
                        continue
                    try:
                        message = types.jsonrpc_message_adapter.validate_json(line, by_name=False)
                    except Exception as exc:  # the dispatcher's on_stream_exception sees it
                        await read_send.send(exc)
                        continue
                    await read_send.send(SessionMessage(message))

    async def writer() -> None:
        try:
            async with write_recv:
                async for item in write_recv:
                    data = (item.message.model_dump_json(by_alias=True, exclude_unset=True) + "\n").encode()
                    while data:
                        await anyio.wait_writable(wire_out)
                        try:
                            data = data[os.write(wire_out, data):]
                        except BlockingIOError:
                            continue
        finally:
            written.set()

    async with anyio.create_task_group() as tg:
        tg.start_soon(reader)
        tg.start_soon(writer)
        try:
            yield read_recv, write_send
        finally:
            # The session closed its write end; let the last frames out, then stop reading.
            await write_send.aclose()
            with anyio.move_on_after(WRITER_DRAIN_BOUND_S, shield=True):
                await written.wait()
            tg.cancel_scope.cancel()


class Driver:
    def __init__(self, plan: SessionPlan, events: Events, inline: bool) -> None:
        self.plan, self.events, self.inline = plan, events, inline
        self.listed: set[str] = set()
        self.label = ""
        self.callbacks = 0

    async def nested(self, session: ClientSession, nested: Nested) -> types.ListToolsResult | None:
        """Sends the nested request with the SDK's own per-request timeout; None when it failed."""
        request: types.ClientRequest = types.ListToolsRequest() if nested.method == "tools/list" else types.PingRequest()
        result_type = types.ListToolsResult if nested.method == "tools/list" else types.EmptyResult
        self.events.write("nested.sent", method=nested.method)
        try:
            result = await session.send_request(request, result_type, request_read_timeout_seconds=nested.timeoutMs / 1000)
        except Exception as error:
            self.events.write("nested.failed", method=nested.method, detail=error_detail(error))
            return None
        self.events.write("nested.ok", method=nested.method)
        return result if isinstance(result, types.ListToolsResult) else types.ListToolsResult(tools=[])

    async def elicitation(self, context: ClientRequestContext,
                          params: types.ElicitRequestParams) -> types.ElicitResult | types.ErrorData:
        self.callbacks += 1
        ids: dict[str, Any] = {"id": context.request_id, "method": "elicitation/create"}
        where = {"n": self.callbacks, "call": self.label}
        self.events.write("callback.entered", **ids, detail=where)
        behaviour = next((c.callback for c in self.plan.calls if c.label == self.label), None)
        try:
            if behaviour is None:  # no behaviour for this call: the SDK's own default callback's answer
                raise MCPError(types.INVALID_REQUEST, "Elicitation not supported")
            answer = await self.behave(context.session, behaviour)
        except BaseException as error:
            self.events.write("callback.left", **ids, detail={**where, "error": f"{type(error).__name__}: {error}"})
            raise
        self.events.write("callback.left", **ids, detail={**where, "action": answer.action})
        # Built without validation: content goes out exactly as the plan gives it, wrong types and all,
        # so whatever refuses it is the SDK's own result check (ClientSession._on_request).
        fields = {"action": answer.action} if answer.content is None else {"action": answer.action, "content": answer.content}
        return types.ElicitResult.model_construct(**fields)

    async def behave(self, session: ClientSession, behaviour: Behaviour) -> AnswerData:
        otherwise = behaviour.otherwise or AnswerData(action="cancel")
        if behaviour.delayMs:
            await anyio.sleep(behaviour.delayMs / 1000)  # the plan's think time, not a stand-in
        known = self.listed
        if behaviour.nested is not None:
            result = await self.nested(session, behaviour.nested)
            if result is None:
                return otherwise
            if behaviour.nested.method == "tools/list":
                known = {tool.name for tool in result.tools}
        if behaviour.needTool is not None and behaviour.needTool not in known:
            return otherwise
        return behaviour.answer

    async def initialize(self, session: ClientSession) -> None:
        """initialize() as the SDK does it, but declaring exactly the plan's capabilities."""
        capabilities = types.ClientCapabilities.model_validate(self.plan.capabilities)
        result = await session.send_request(
            types.InitializeRequest(params=types.InitializeRequestParams(
                protocol_version=LATEST_HANDSHAKE_VERSION, capabilities=capabilities, client_info=CLIENT_INFO)),
            types.InitializeResult,
        )
        if result.protocol_version not in HANDSHAKE_PROTOCOL_VERSIONS:
            raise RuntimeError(f"Unsupported protocol version from the server: {result.protocol_version}")
        session.adopt(result)
        await session.send_notification(types.InitializedNotification())
        self.events.write("note", detail={"negotiatedProtocol": session.protocol_version,
                                          "server": result.server_info.name, "inline": self.inline})

    async def run(self) -> None:
        timeout = self.plan.callTimeoutMs / 1000
        callback = self.elicitation if "elicitation" in self.plan.capabilities else None
        async with own_stdio() as (read, write):
            options: dict[str, Any] = {"read_timeout_seconds": timeout, "elicitation_callback": callback,
                                       "client_info": CLIENT_INFO}
            session = (ClientSession(dispatcher=JSONRPCDispatcher(read, write, inline_methods=INLINE), **options)
                       if self.inline else ClientSession(read, write, **options))
            async with session:
                await self.initialize(session)
                if self.plan.listToolsFirst:
                    self.listed = {tool.name for tool in (await session.list_tools()).tools}
                for call in self.plan.calls:
                    self.label = call.label
                    self.events.write("call.started", detail={"call": call.label})
                    try:
                        result = await session.call_tool(call.tool, call.args, read_timeout_seconds=timeout)
                    except Exception as error:
                        message = str(error) if isinstance(error, MCPError) else f"{type(error).__name__}: {error}"
                        outcome: dict[str, Any] = {"error": {"code": error_detail(error)["code"], "message": message}}
                    else:
                        outcome = {"result": result.structured_content, "isError": result.is_error is True}
                    self.events.write("tool.result", detail={"call": call.label, **outcome})
            self.events.write("note", detail={"sessionClosed": True})


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description="mcp 2.3.0 client peer driver for the reentrancy lab")
    parser.add_argument("--plan", required=True)
    parser.add_argument("--events", required=True)
    parser.add_argument("--inline", action="store_true", help="elicitation/create runs inline in the read loop")
    args = parser.parse_args(argv)
    try:
        with open(args.plan, encoding="utf-8") as file:
            plan = SessionPlan.model_validate_json(file.read())
    except (OSError, ValidationError) as error:
        first = error.errors()[0] if isinstance(error, ValidationError) else None
        reason = f"{'.'.join(map(str, first['loc'])) or '(root)'}: {first['msg']}" if first else error
        print(f"client.py: bad plan {args.plan}: {reason}", file=sys.stderr)
        return 2
    events = Events(args.events)
    logging.basicConfig(stream=sys.stderr, format="client.py %(name)s: %(message)s")
    logging.getLogger().handlers[0].setLevel(logging.WARNING)
    logging.getLogger("mcp.shared.jsonrpc_dispatcher").setLevel(logging.DEBUG)
    logging.getLogger("mcp.shared.jsonrpc_dispatcher").addHandler(SdkLogNotes(events))
    try:
        anyio.run(Driver(plan, events, args.inline).run)
    except Exception as error:
        while isinstance(error, ExceptionGroup) and len(error.exceptions) == 1:
            error = error.exceptions[0]
        events.write("note", detail={"sessionError": error_detail(error)})
        print(f"client.py: session failed: {type(error).__name__}: {error}", file=sys.stderr)
        return 1
    finally:
        events.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
