# Client peer driver `py` / `py-inline` / `py-modern` (mcp 2.3.0) speaking MCP over its own stdin/stdout.
# It executes a SessionPlan (lab/plan/behaviour.ts) and writes DriverEvent lines (lab/plan/driver-events.ts).
# CLI: client.py --plan PLAN.json --events EVENTS.jsonl [--inline | --modern]
#   --inline: elicitation/create parks the read loop; --modern: the high-level Client pinned to 2026-07-28 (modern.py)
from __future__ import annotations

import argparse
import logging
import sys
from collections.abc import Awaitable, Callable
from typing import Any

import anyio
import mcp_types as types
from mcp.client.session import ClientRequestContext, ClientSession
from mcp.shared.exceptions import MCPError
from mcp.shared.jsonrpc_dispatcher import JSONRPCDispatcher
from mcp_types.version import HANDSHAKE_PROTOCOL_VERSIONS, LATEST_HANDSHAKE_VERSION, MODERN_PROTOCOL_VERSIONS
from pydantic import ValidationError

from modern import GivenStreams, RoundObservingClient
from driver_events import Events, SdkLogNotes, one_line
from pipe import own_stdio
from plan import SYNTHETIC_MODEL, SYNTHETIC_ROOTS, SYNTHETIC_TEXT, AnswerData, Behaviour, CallData, Nested, SessionPlan
from sampling import plain_turn

CLIENT_INFO = types.Implementation(name="reentrancy-lab-client-py", version="0.1.0")
# Why the client gave up on a call (CallData.giveUpAfterMs): the words of lab/peers/call-book.ts GIVE_UP_REASON.
GIVE_UP_REASON = "the client gave up on the call while its form was open"
INLINE = frozenset({"elicitation/create"})  # the SDK's documented inline ordering (1.x receive loop)
MODERN = "2026-07-28"


def error_detail(error: BaseException) -> dict[str, Any]:
    code = error.code if isinstance(error, MCPError) else None
    return {"code": code, "message": str(error), "type": type(error).__name__}


class Driver:
    def __init__(self, plan: SessionPlan, events: Events, inline: bool, modern: bool) -> None:
        self.plan, self.events, self.inline, self.modern = plan, events, inline, modern
        # set once connected: on 2026-07-28 a callback answers an input request embedded in a result
        self.embedded = False
        self.listed: set[str] = set()
        self.label = ""
        self.callbacks = 0
        # callbacks still running, by the call they serve (awaitCallbacks waits for them)
        self.running: dict[str, set[anyio.Event]] = {}
        # set when the current call's first form opens: its giveUpAfterMs counts from then
        self.form_opened: anyio.Event | None = None

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

    async def sampling(self, context: ClientRequestContext,
                       params: types.CreateMessageRequestParams) -> types.CreateMessageResult | types.ErrorData:
        """The sampling callback: think, nest if planned, then the lab's synthetic completion (no model is called)."""
        self.callbacks += 1
        plan = next((c.sampling for c in self.plan.calls if c.label == self.label), None)
        if not await plain_turn(self.events, context.request_id, "sampling/createMessage", self.callbacks, self.label, plan,
                                lambda nested: self.nested(context.session, nested)):
            return types.ErrorData(code=types.INVALID_REQUEST, message="no sampling planned for this call")
        return types.CreateMessageResult(role="assistant", content=types.TextContent(type="text", text=SYNTHETIC_TEXT),
                                         model=SYNTHETIC_MODEL, stop_reason="endTurn")

    async def roots(self, context: ClientRequestContext) -> types.ListRootsResult | types.ErrorData:
        """The roots callback: the same steps, then the lab's two synthetic roots."""
        self.callbacks += 1
        plan = next((c.roots for c in self.plan.calls if c.label == self.label), None)
        if not await plain_turn(self.events, context.request_id, "roots/list", self.callbacks, self.label, plan,
                                lambda nested: self.nested(context.session, nested)):
            return types.ErrorData(code=types.INVALID_REQUEST, message="no roots planned for this call")
        return types.ListRootsResult(roots=[types.Root(uri=uri, name=name) for uri, name in SYNTHETIC_ROOTS])

    async def elicitation(self, context: ClientRequestContext,
                          params: types.ElicitRequestParams) -> types.ElicitResult | types.ErrorData:
        self.callbacks += 1
        call = self.label
        ids: dict[str, Any] = {"id": context.request_id, "method": "elicitation/create"}
        # On 2026-07-28 the id is the input request's key (client.py:926), not a JSON-RPC id: nothing crossed the wire.
        where: dict[str, Any] = {"n": self.callbacks, "call": call, **({"embedded": True} if self.embedded else {})}
        self.events.write("callback.entered", **ids, detail=where)
        if self.form_opened is not None:
            self.form_opened.set()
        done = anyio.Event()
        self.running.setdefault(call, set()).add(done)
        behaviour = next((c.callback for c in self.plan.calls if c.label == call), None)
        try:
            if behaviour is None:  # no behaviour for this call: the SDK's own default callback's answer
                raise MCPError(types.INVALID_REQUEST, "Elicitation not supported")
            answer = await self.behave(context.session, behaviour)
        except anyio.get_cancelled_exc_class() as error:
            # peer_cancel_mode="interrupt" (the default): on notifications/cancelled for this request the
            # SDK cancels the handler's scope (jsonrpc_dispatcher.py:640-645); the callback sees it as the
            # cancellation exception at its await. It can only leave: the answer would be dropped (:749).
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

    async def call_tool(self, call: CallData, send: Callable[[], Awaitable[types.CallToolResult]]) -> dict[str, Any]:
        """One tools/call, as tool.result records it. giveUpAfterMs, counted from the call's first form
        opening: cancel the scope call_tool runs in; the SDK then sends notifications/cancelled
        ("caller cancelled") for the request and re-raises the cancellation (jsonrpc_dispatcher.py:443-452)."""
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
            if self.modern:
                await self.run_modern(read, write, timeout, callback)
                return
            options: dict[str, Any] = {"read_timeout_seconds": timeout, "elicitation_callback": callback,
                                       "client_info": CLIENT_INFO,
                                       **({"sampling_callback": self.sampling} if "sampling" in self.plan.capabilities else {}),
                                       **({"list_roots_callback": self.roots} if "roots" in self.plan.capabilities else {})}
            session = (ClientSession(dispatcher=JSONRPCDispatcher(read, write, inline_methods=INLINE), **options)
                       if self.inline else ClientSession(read, write, **options))
            async with session:
                await self.initialize(session)
                if self.plan.listToolsFirst:
                    self.listed = {tool.name for tool in (await session.list_tools()).tools}
                await self.calls(lambda call: session.call_tool(call.tool, call.args, read_timeout_seconds=timeout), timeout)
            self.events.write("note", detail={"sessionClosed": True})

    async def run_modern(self, read: Any, write: Any, timeout: float, callback: Any) -> None:
        """Client(transport, mode="2026-07-28"): the pin adopts a synthesized DiscoverResult with no
        server/discover probe and no initialize (client.py:462-467); each request then carries the era,
        client info and capabilities in its _meta (session.py:153-170). Capabilities are the SDK's own:
        elicitation {form, url} whenever a callback is set (session.py:634-638), not the plan's."""
        client = RoundObservingClient(GivenStreams(read, write), mode=MODERN, read_timeout_seconds=timeout,
                                      elicitation_callback=callback, client_info=CLIENT_INFO)
        client.on_round = lambda kind, n, keys: self.events.write(
            f"round.{kind}", method="tools/call", detail={"call": self.label, "round": n, "keys": keys})
        version: str | None = None
        try:
            await client.__aenter__()
            version = client.protocol_version
        finally:
            era = None if version is None else "modern" if version in MODERN_PROTOCOL_VERSIONS else "legacy"
            self.events.write("protocol.negotiated",
                              detail={"negotiation": MODERN, "protocolVersion": version, "era": era})
        try:
            self.embedded = version in MODERN_PROTOCOL_VERSIONS
            if self.plan.listToolsFirst:
                self.listed = {tool.name for tool in (await client.list_tools()).tools}
            await self.calls(lambda call: client.call_tool(call.tool, call.args, read_timeout_seconds=timeout), timeout)
        finally:
            await client.__aexit__(None, None, None)
        self.events.write("note", detail={"sessionClosed": True})

    async def calls(self, send: Callable[[CallData], Awaitable[types.CallToolResult]], timeout: float) -> None:
        for call in self.plan.calls:
            self.label = call.label
            self.events.write("call.started", detail={"call": call.label})
            outcome = await self.call_tool(call, lambda: send(call))
            self.events.write("tool.result", detail={"call": call.label, **outcome})
            if call.awaitCallbacks:
                # A call that gave up may leave its form open: the next call waits for it (bounded).
                with anyio.fail_after(timeout):
                    for done in list(self.running.get(call.label, ())):
                        await done.wait()


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description="mcp 2.3.0 client peer driver for the reentrancy lab")
    parser.add_argument("--plan", required=True)
    parser.add_argument("--events", required=True)
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--inline", action="store_true", help="elicitation/create runs inline in the read loop")
    mode.add_argument("--modern", action="store_true", help="the high-level Client pinned to 2026-07-28")
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
        anyio.run(Driver(plan, events, args.inline, args.modern).run)
    except Exception as error:
        while isinstance(error, ExceptionGroup) and len(error.exceptions) == 1:
            error = error.exceptions[0]
        events.write("note", detail={"sessionError": error_detail(error)})
        print(f"client.py: session failed: {type(error).__name__}: {one_line(error)}", file=sys.stderr)
        return 1
    finally:
        events.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
