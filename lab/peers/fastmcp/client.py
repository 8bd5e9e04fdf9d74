# Client peer driver `fastmcp`: FastMCP 4.0.10's public Client (on mcp 2.3.0) over its own stdin/stdout.
# It executes a SessionPlan (lab/plan/behaviour.ts; plan.py of lab/peers/py) and writes DriverEvent lines
# (lab/plan/driver-events.ts) through the one writer in lab/peers/py/driver_events.py. The callback is a
# FastMCP elicitation_handler, which fastmcp/client/elicitation.py:38-94 wraps into the mcp 2.3.0 callback
# that the SDK's JSONRPCDispatcher runs in a task of its own per inbound request (_spawn).
# CLI: client.py --plan PLAN.json --events EVENTS.jsonl [--mode legacy|auto]
from __future__ import annotations

import argparse
import logging
import os
import sys
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import Any

import anyio
import mcp_types as types
from fastmcp import Client
from fastmcp.client import ClientTransport
from fastmcp.client.elicitation import ElicitResult
from fastmcp.client.transports.base import TransportOptions
from mcp import ClientSession, MCPError
from mcp_types.version import MODERN_PROTOCOL_VERSIONS
from pydantic import ValidationError

sys.path.append(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "py"))
from driver_events import Events, SdkLogNotes, one_line  # noqa: E402  (the one event writer, shared)
from pipe import own_stdio  # noqa: E402  (mcp 2.3.0 streams, the same SDK as this venv's)
from plan import SYNTHETIC_MODEL, SYNTHETIC_ROOTS, SYNTHETIC_TEXT, AnswerData, Behaviour, CallData, Nested, SessionPlan  # noqa: E402
from sampling import plain_turn  # noqa: E402  (the Python drivers' one sampling and roots callback)

CLIENT_INFO = types.Implementation(name="reentrancy-lab-client-fastmcp", version="0.1.0")
# Why the client gave up on a call (CallData.giveUpAfterMs): the words of lab/peers/call-book.ts GIVE_UP_REASON.
GIVE_UP_REASON = "the client gave up on the call while its form was open"
# What ClientSession declares whenever a callback is set (mcp/client/session.py:634-636); FastMCP passes no other.
DECLARABLE = ({"form": {}}, {"form": {}, "url": {}})


class OwnStdio(ClientTransport):
    """The process's own stdin/stdout as a FastMCP transport. FastMCP's StdioTransport only spawns a server
    (transports/stdio.py); its public ClientTransport base (transports/base.py:80-123) is the way to bring
    other streams: connect_session yields an uninitialized ClientSession, as FastMCPTransport does
    (transports/memory.py:57-104), and the Client negotiates on it (client.py:826-833)."""

    @asynccontextmanager
    async def connect_session(self, *, transport_options: TransportOptions | None = None,
                              **session_kwargs: Any) -> AsyncIterator[ClientSession]:
        options = transport_options or TransportOptions()
        async with own_stdio() as (read, write):
            async with options.session_class(read_stream=read, write_stream=write, **session_kwargs) as session:
                yield session


def refusal(plan: SessionPlan) -> str | None:
    """What FastMCP's public Client cannot do, said before anything is sent; None when it can run the plan."""
    others = sorted(set(plan.capabilities) - {"elicitation", "sampling", "roots"})
    if others:
        return (f"capabilities {others}: the driver registers elicitation, sampling and roots handlers, and the Client "
                "derives every capability from the handlers it has (fastmcp/client/client.py:545-577)")
    declared = plan.capabilities.get("elicitation")
    if declared is not None and declared not in DECLARABLE:
        return (f"elicitation capability {declared}: the Client cannot declare it; ClientSession declares "
                "elicitation {form, url} whenever a callback is set (mcp/client/session.py:634-636)")
    return None


def error_detail(error: BaseException) -> dict[str, Any]:
    code = error.code if isinstance(error, MCPError) else None
    return {"code": code, "message": str(error), "type": type(error).__name__}


class Driver:
    def __init__(self, plan: SessionPlan, events: Events, mode: str) -> None:
        self.plan, self.events, self.mode = plan, events, mode
        self.listed: set[str] = set()
        self.label = ""
        self.callbacks = 0
        self.running: dict[str, set[anyio.Event]] = {}
        self.form_opened: anyio.Event | None = None
        self.client: Client[OwnStdio] | None = None

    def connect(self) -> Client[OwnStdio]:
        """The Client, built on the loop (its session state holds anyio events, client.py:218-232)."""
        handler = self.elicitation if "elicitation" in self.plan.capabilities else None
        limit = self.plan.callTimeoutMs / 1000  # every request's read timeout (client.py:499, :558)
        # A sampling_handler or roots declares its capability (client.py:563-568); none is passed unplanned.
        sampling = self.sampling if "sampling" in self.plan.capabilities else None
        roots = self.roots if "roots" in self.plan.capabilities else None
        self.client = Client(OwnStdio(), elicitation_handler=handler, sampling_handler=sampling, roots=roots,
                             timeout=limit, init_timeout=limit, client_info=CLIENT_INFO, mode=self.mode)
        return self.client

    async def nested(self, nested: Nested) -> types.ListToolsResult | None:
        """The nested request through the Client itself. list_tools_mcp() and ping() take no timeout
        (fastmcp/client/mixins/tools.py:34-39, client.py:1399-1402) and the Client's one timeout is every
        request's: the plan's limit is the caller's own scope around the await, as an app would bound it.
        On expiry FastMCP cancels its call task (client.py:1222-1226), the SDK sends its courtesy cancel
        ("caller cancelled", jsonrpc_dispatcher.py:443-452) and fail_after raises TimeoutError."""
        self.events.write("nested.sent", method=nested.method)
        try:
            assert self.client is not None
            with anyio.fail_after(nested.timeoutMs / 1000):
                if nested.method == "tools/list":
                    result = await self.client.list_tools_mcp()
                else:
                    await self.client.ping()
                    result = types.ListToolsResult(tools=[])
        except Exception as error:
            self.events.write("nested.failed", method=nested.method, detail=error_detail(error))
            return None
        self.events.write("nested.ok", method=nested.method)
        return result

    async def elicitation(self, message: str, response_type: Any, params: types.ElicitRequestParams,
                          context: Any) -> ElicitResult[Any]:
        """FastMCP's ElicitationHandler (elicitation.py:26-35); `context` is the SDK's ClientRequestContext."""
        self.callbacks += 1
        call = self.label
        ids: dict[str, Any] = {"id": context.request_id, "method": "elicitation/create"}
        # Under mode='auto' on a 2026-07-28 server the id is an input request's key, not a wire id (client.py:1294-1302).
        embedded = self.client is not None and self.client.protocol_version in MODERN_PROTOCOL_VERSIONS
        where: dict[str, Any] = {"n": self.callbacks, "call": call, **({"embedded": True} if embedded else {})}
        self.events.write("callback.entered", **ids, detail=where)
        if self.form_opened is not None:
            self.form_opened.set()
        done = anyio.Event()
        self.running.setdefault(call, set()).add(done)
        behaviour = next((c.callback for c in self.plan.calls if c.label == call), None)
        try:
            if behaviour is None:  # no behaviour for this call: the wrapper turns any Exception into -32603 (:88-92)
                raise RuntimeError("Elicitation not supported")
            answer = await self.behave(behaviour)
        except anyio.get_cancelled_exc_class() as error:
            # A withdrawal cancels the handler's scope (jsonrpc_dispatcher.py:640-645); FastMCP's wrapper catches
            # only Exception (elicitation.py:88), so the cancellation passes through it and nothing is answered.
            if behaviour is not None and behaviour.watchAbort:
                self.events.write("callback.aborted", **ids,
                                  detail={**where, "reason": f"{type(error).__name__}: the handler's scope was cancelled"})
            self.events.write("callback.left", **ids, detail={**where, "error": type(error).__name__})
            raise
        except BaseException as error:
            self.events.write("callback.left", **ids, detail={**where, "error": f"{type(error).__name__}: {error}"})
            raise
        finally:
            self.running[call].discard(done)
            done.set()
        self.events.write("callback.left", **ids, detail={**where, "action": answer.action})
        # The plan's answer as an ElicitResult (T = Any); FastMCP then builds and validates the SDK's
        # ElicitResult from it (elicitation.py:66-86): whatever it refuses goes out as -32603.
        return ElicitResult(action=answer.action, content=answer.content)

    async def sampling(self, messages: list[Any], params: Any, context: Any) -> types.CreateMessageResult:
        """FastMCP's SamplingHandler (sampling/__init__.py:23-31): its wrapper answers any Exception as -32603 (:62-66)."""
        self.callbacks += 1
        plan = next((c.sampling for c in self.plan.calls if c.label == self.label), None)
        if not await plain_turn(self.events, context.request_id, "sampling/createMessage", self.callbacks, self.label, plan, self.nested):
            raise RuntimeError("no sampling planned for this call")
        return types.CreateMessageResult(role="assistant", content=types.TextContent(type="text", text=SYNTHETIC_TEXT),
                                         model=SYNTHETIC_MODEL, stop_reason="endTurn")

    async def roots(self, context: Any) -> list[types.Root]:
        """FastMCP's RootsHandler (roots.py:15-18), a function so that it runs per request."""
        self.callbacks += 1
        plan = next((c.roots for c in self.plan.calls if c.label == self.label), None)
        if not await plain_turn(self.events, context.request_id, "roots/list", self.callbacks, self.label, plan, self.nested):
            raise RuntimeError("no roots planned for this call")
        return [types.Root(uri=uri, name=name) for uri, name in SYNTHETIC_ROOTS]

    async def behave(self, behaviour: Behaviour) -> AnswerData:
        otherwise = behaviour.otherwise or AnswerData(action="cancel")
        if behaviour.delayMs:
            await anyio.sleep(behaviour.delayMs / 1000)  # the plan's think time, not a stand-in
        known = self.listed
        if behaviour.nested is not None:
            result = await self.nested(behaviour.nested)
            if result is None:
                return otherwise
            if behaviour.nested.method == "tools/list":
                known = {tool.name for tool in result.tools}
        if behaviour.needTool is not None and behaviour.needTool not in known:
            return otherwise
        return behaviour.answer

    async def call_tool(self, call: CallData, send: Callable[[], Awaitable[types.CallToolResult]]) -> dict[str, Any]:
        """One tools/call, as tool.result records it. giveUpAfterMs, counted from the call's first form opening:
        cancel the scope call_tool_mcp runs in; FastMCP cancels its own call task (client.py:1222-1226) and the
        SDK sends notifications/cancelled ("caller cancelled", jsonrpc_dispatcher.py:443-452)."""
        opened = self.form_opened = anyio.Event()
        cancelled: str | None = None
        outcome: dict[str, Any] = {}

        async def give_up(after_s: float, scope: anyio.CancelScope) -> None:
            await opened.wait()
            await anyio.sleep(after_s)  # the plan's limit, the stimulus
            scope.cancel()

        try:
            with anyio.CancelScope() as call_scope:
                async with anyio.create_task_group() as timers:
                    if call.giveUpAfterMs is not None:
                        timers.start_soon(give_up, call.giveUpAfterMs / 1000, call_scope)
                    try:
                        result = await send()
                    except anyio.get_cancelled_exc_class() as error:
                        cancelled = type(error).__name__
                        raise
                    except Exception as error:
                        message = str(error) if isinstance(error, MCPError) else f"{type(error).__name__}: {error}"
                        outcome = {"error": {"code": error_detail(error)["code"], "message": message}}
                    else:
                        outcome = {"result": result.structured_content, "isError": result.is_error is True}
                    timers.cancel_scope.cancel()
        finally:
            self.form_opened = None
        if cancelled is not None and call_scope.cancelled_caught:
            outcome = {"error": {"code": None, "message": f"{cancelled}: {GIVE_UP_REASON} (its cancel scope was cancelled)"}}
        return outcome

    async def run(self) -> None:
        timeout = self.plan.callTimeoutMs / 1000
        client = self.connect()
        version: str | None = None
        try:
            await client.__aenter__()  # negotiates by self.mode (client.py:839-891)
            version = client.protocol_version
        finally:
            era = None if version is None else "modern" if version in MODERN_PROTOCOL_VERSIONS else "legacy"
            self.events.write("protocol.negotiated", detail={"negotiation": self.mode, "protocolVersion": version, "era": era})
        try:
            if self.plan.listToolsFirst:
                self.listed = {tool.name for tool in await client.list_tools()}
            for call in self.plan.calls:
                self.label = call.label
                self.events.write("call.started", detail={"call": call.label})
                # call_tool_mcp: the raw result, isError kept (call_tool raises ToolError on it, tools.py:281-338)
                outcome = await self.call_tool(call, lambda: client.call_tool_mcp(call.tool, call.args, timeout=timeout))
                self.events.write("tool.result", detail={"call": call.label, **outcome})
                if call.awaitCallbacks:
                    # A call that gave up may leave its form open: the next call waits for it (bounded).
                    with anyio.fail_after(timeout):
                        for done in list(self.running.get(call.label, ())):
                            await done.wait()
        finally:
            await client.__aexit__(None, None, None)
        self.events.write("note", detail={"sessionClosed": True})


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description="FastMCP 4.0.10 client peer driver for the reentrancy lab")
    parser.add_argument("--plan", required=True)
    parser.add_argument("--events", required=True)
    # legacy: the plans are written for 2025-11-25 (server-to-client elicitation/create); auto probes server/discover
    parser.add_argument("--mode", choices=("legacy", "auto"), default="legacy")
    args = parser.parse_args(argv)
    try:
        with open(args.plan, encoding="utf-8") as file:
            plan = SessionPlan.model_validate_json(file.read())
    except (OSError, ValidationError) as error:
        first = error.errors()[0] if isinstance(error, ValidationError) else None
        reason = f"{'.'.join(map(str, first['loc'])) or '(root)'}: {first['msg']}" if first else error
        print(f"fastmcp client.py: bad plan {args.plan}: {reason}", file=sys.stderr)
        return 2
    refused = refusal(plan)
    if refused is not None:
        print(f"fastmcp client.py: plan {plan.scenario} refused: FastMCP's public Client cannot run it: {refused}", file=sys.stderr)
        return 2
    events = Events(args.events)
    logging.basicConfig(stream=sys.stderr, format="fastmcp client.py %(name)s: %(message)s")
    logging.getLogger().handlers[0].setLevel(logging.WARNING)
    logging.getLogger("mcp.shared.jsonrpc_dispatcher").setLevel(logging.DEBUG)
    logging.getLogger("mcp.shared.jsonrpc_dispatcher").addHandler(SdkLogNotes(events))
    try:
        anyio.run(Driver(plan, events, args.mode).run)  # asyncio: the Client runs its session in an asyncio task
    except Exception as error:
        while isinstance(error, ExceptionGroup) and len(error.exceptions) == 1:
            error = error.exceptions[0]
        events.write("note", detail={"sessionError": error_detail(error)})
        print(f"fastmcp client.py: session failed: {type(error).__name__}: {one_line(error)}", file=sys.stderr)
        return 1
    finally:
        events.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
