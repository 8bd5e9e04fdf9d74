# Client peer driver `py1`: the MCP Python SDK 1.29.0 ClientSession as shipped, over its own stdin/stdout.
# It executes a SessionPlan (lab/plan/behaviour.ts; plan.py of lab/peers/py, pure pydantic) and writes
# DriverEvent lines (lab/plan/driver-events.ts). Nothing of the lab's loop models applies: the receive loop
# is 1.29.0's own (mcp/shared/session.py:351-434 awaits each inbound request's handler inline, :376).
# CLI: client.py --plan PLAN.json --events EVENTS.jsonl
from __future__ import annotations

import argparse
import logging
import os
import sys
from collections.abc import Awaitable, Callable
from datetime import timedelta
from typing import Any

import anyio
from mcp import types
from mcp.client.session import ClientSession
from mcp.shared.context import RequestContext
from mcp.shared.exceptions import McpError
from mcp.shared.version import SUPPORTED_PROTOCOL_VERSIONS
from pydantic import ValidationError

from pipe import own_stdio

sys.path.append(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "py"))
from driver_events import Events, one_line  # noqa: E402  (the one event writer, shared)
from plan import SYNTHETIC_MODEL, SYNTHETIC_ROOTS, SYNTHETIC_TEXT, AnswerData, Behaviour, CallData, Nested, SessionPlan  # noqa: E402  (shared with the 2.3.0 driver)
from sampling import plain_turn  # noqa: E402  (shared with the 2.3.0 driver)

CLIENT_INFO = types.Implementation(name="reentrancy-lab-client-py1", version="0.1.0")
# Why the client gave up on a call (CallData.giveUpAfterMs): the words of lab/peers/call-book.ts GIVE_UP_REASON.
GIVE_UP_REASON = "the client gave up on the call while its form was open"


def error_detail(error: BaseException) -> dict[str, Any]:
    code = error.error.code if isinstance(error, McpError) else None
    return {"code": code, "message": str(error), "type": type(error).__name__}


class Driver:
    def __init__(self, plan: SessionPlan, events: Events) -> None:
        self.plan, self.events = plan, events
        self.listed: set[str] = set()
        self.label = ""
        self.callbacks = 0
        self.running: dict[str, set[anyio.Event]] = {}
        self.form_opened: anyio.Event | None = None

    async def nested(self, session: ClientSession, nested: Nested) -> types.ListToolsResult | None:
        """The nested request with 1.29.0's per-request limit (shared/session.py:283-303: McpError 408 on expiry)."""
        is_list = nested.method == "tools/list"
        request = types.ClientRequest(types.ListToolsRequest() if is_list else types.PingRequest())
        result_type = types.ListToolsResult if is_list else types.EmptyResult
        self.events.write("nested.sent", method=nested.method)
        try:
            result = await session.send_request(request, result_type,
                                                request_read_timeout_seconds=timedelta(milliseconds=nested.timeoutMs))
        except Exception as error:
            self.events.write("nested.failed", method=nested.method, detail=error_detail(error))
            return None
        self.events.write("nested.ok", method=nested.method)
        return result if isinstance(result, types.ListToolsResult) else types.ListToolsResult(tools=[])

    async def sampling(self, context: RequestContext[ClientSession, Any],
                       params: types.CreateMessageRequestParams) -> types.CreateMessageResult | types.ErrorData:
        """The sampling callback: think, nest if planned, then the lab's synthetic completion (no model is called)."""
        self.callbacks += 1
        plan = next((c.sampling for c in self.plan.calls if c.label == self.label), None)
        if not await plain_turn(self.events, context.request_id, "sampling/createMessage", self.callbacks, self.label, plan,
                                lambda nested: self.nested(context.session, nested)):
            return types.ErrorData(code=types.INVALID_REQUEST, message="no sampling planned for this call")
        return types.CreateMessageResult(role="assistant", content=types.TextContent(type="text", text=SYNTHETIC_TEXT),
                                         model=SYNTHETIC_MODEL, stopReason="endTurn")

    async def roots(self, context: RequestContext[ClientSession, Any]) -> types.ListRootsResult | types.ErrorData:
        """The roots callback: the same steps, then the lab's two synthetic roots."""
        self.callbacks += 1
        plan = next((c.roots for c in self.plan.calls if c.label == self.label), None)
        if not await plain_turn(self.events, context.request_id, "roots/list", self.callbacks, self.label, plan,
                                lambda nested: self.nested(context.session, nested)):
            return types.ErrorData(code=types.INVALID_REQUEST, message="no roots planned for this call")
        return types.ListRootsResult(roots=[types.Root(uri=uri, name=name) for uri, name in SYNTHETIC_ROOTS])

    async def elicitation(self, context: RequestContext[ClientSession, Any],
                          params: types.ElicitRequestParams) -> types.ElicitResult | types.ErrorData:
        """Runs inside the receive loop's await (client/session.py:589-597): nothing else is read meanwhile."""
        self.callbacks += 1
        call = self.label
        ids: dict[str, Any] = {"id": context.request_id, "method": "elicitation/create"}
        where: dict[str, Any] = {"n": self.callbacks, "call": call}
        self.events.write("callback.entered", **ids, detail=where)
        if self.form_opened is not None:
            self.form_opened.set()
        done = anyio.Event()
        self.running.setdefault(call, set()).add(done)
        behaviour = next((c.callback for c in self.plan.calls if c.label == call), None)
        try:
            if behaviour is None:  # no behaviour for this call: the SDK's own default answer (client/session.py:85-92)
                self.events.write("callback.left", **ids, detail={**where, "error": "ErrorData: Elicitation not supported"})
                return types.ErrorData(code=types.INVALID_REQUEST, message="Elicitation not supported")
            answer = await self.behave(context.session, behaviour)
        except anyio.get_cancelled_exc_class() as error:
            # The responder's own cancel scope (shared/session.py:96-101), cancelled by the loop on the peer's
            # notifications/cancelled (:403-406), which the loop can read only when this callback has returned.
            if behaviour is not None and behaviour.watchAbort:
                self.events.write("callback.aborted", **ids,
                                  detail={**where, "reason": f"{type(error).__name__}: the responder's scope was cancelled"})
            self.events.write("callback.left", **ids, detail={**where, "error": type(error).__name__})
            raise
        except BaseException as error:
            self.events.write("callback.left", **ids, detail={**where, "error": f"{type(error).__name__}: {error}"})
            raise
        finally:
            self.running[call].discard(done)
            done.set()
        self.events.write("callback.left", **ids, detail={**where, "action": answer.action})
        # Built without validation: content goes out exactly as the plan gives it; whatever refuses it is the
        # SDK (ClientResponse.validate_python, client/session.py:596) or the server.
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

    async def on_message(self, message: Any) -> None:
        """The message handler (client/session.py:614-619): what the loop hands on, e.g. a late reply as
        RuntimeError('Received response with an unknown request ID', shared/session.py:518)."""
        if isinstance(message, Exception):
            text = " ".join(str(message).split())
            late = "unknown request ID" in text
            self.events.write("note", detail={"sdkMessage": text[:300], "type": type(message).__name__,
                                              **({"lateReply": True} if late else {})})

    async def on_log(self, params: types.LoggingMessageNotificationParams) -> None:
        self.events.write("note", detail={"serverLog": params.data, "level": params.level})

    async def call_tool(self, call: CallData, send: Callable[[], Awaitable[types.CallToolResult]]) -> dict[str, Any]:
        """One tools/call. giveUpAfterMs, counted from the call's first form opening: cancel the scope the call
        runs in; 1.29.0's send_request then only drops its response stream (shared/session.py:310-314)."""
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
                        message = str(error) if isinstance(error, McpError) else f"{type(error).__name__}: {error}"
                        outcome = {"error": {"code": error_detail(error)["code"], "message": message}}
                    else:
                        outcome = {"result": result.structuredContent, "isError": result.isError is True}
                    timers.cancel_scope.cancel()
        finally:
            self.form_opened = None
        if cancelled is not None and call_scope.cancelled_caught:
            outcome = {"error": {"code": None, "message": f"{cancelled}: {GIVE_UP_REASON} (its cancel scope was cancelled)"}}
        return outcome

    async def initialize(self, session: ClientSession) -> None:
        """initialize() as client/session.py:160-209 does it, but declaring exactly the plan's capabilities
        (the SDK's own declares elicitation {form, url} whenever a callback is set, :166-173)."""
        capabilities = types.ClientCapabilities.model_validate(self.plan.capabilities)
        result = await session.send_request(
            types.ClientRequest(types.InitializeRequest(params=types.InitializeRequestParams(
                protocolVersion=types.LATEST_PROTOCOL_VERSION, capabilities=capabilities, clientInfo=CLIENT_INFO))),
            types.InitializeResult,
        )
        if result.protocolVersion not in SUPPORTED_PROTOCOL_VERSIONS:
            raise RuntimeError(f"Unsupported protocol version from the server: {result.protocolVersion}")
        await session.send_notification(types.ClientNotification(types.InitializedNotification()))
        self.events.write("note", detail={"negotiatedProtocol": result.protocolVersion, "server": result.serverInfo.name})

    async def run(self) -> None:
        timeout = timedelta(milliseconds=self.plan.callTimeoutMs)
        callback = self.elicitation if "elicitation" in self.plan.capabilities else None
        async with own_stdio() as (read, write):
            sampling = self.sampling if "sampling" in self.plan.capabilities else None
            session = ClientSession(read, write, read_timeout_seconds=timeout, elicitation_callback=callback,
                                    sampling_callback=sampling,
                                    list_roots_callback=self.roots if "roots" in self.plan.capabilities else None,
                                    logging_callback=self.on_log, message_handler=self.on_message,
                                    client_info=CLIENT_INFO)
            async with session:
                await self.initialize(session)
                if self.plan.listToolsFirst:
                    self.listed = {tool.name for tool in (await session.list_tools()).tools}
                for call in self.plan.calls:
                    self.label = call.label
                    self.events.write("call.started", detail={"call": call.label})
                    outcome = await self.call_tool(call, lambda: session.call_tool(call.tool, call.args, read_timeout_seconds=timeout))
                    self.events.write("tool.result", detail={"call": call.label, **outcome})
                    if call.awaitCallbacks:
                        with anyio.fail_after(timeout.total_seconds()):
                            for done in list(self.running.get(call.label, ())):
                                await done.wait()
            self.events.write("note", detail={"sessionClosed": True})


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description="mcp 1.29.0 client peer driver for the reentrancy lab")
    parser.add_argument("--plan", required=True)
    parser.add_argument("--events", required=True)
    args = parser.parse_args(argv)
    try:
        with open(args.plan, encoding="utf-8") as file:
            plan = SessionPlan.model_validate_json(file.read())
    except (OSError, ValidationError) as error:
        first = error.errors()[0] if isinstance(error, ValidationError) else None
        reason = f"{'.'.join(map(str, first['loc'])) or '(root)'}: {first['msg']}" if first else error
        print(f"py1 client.py: bad plan {args.plan}: {reason}", file=sys.stderr)
        return 2
    events = Events(args.events)
    logging.basicConfig(stream=sys.stderr, level=logging.WARNING, format="py1 client.py %(name)s: %(message)s")
    try:
        anyio.run(Driver(plan, events).run)
    except Exception as error:
        while isinstance(error, ExceptionGroup) and len(error.exceptions) == 1:
            error = error.exceptions[0]
        events.write("note", detail={"sessionError": error_detail(error)})
        print(f"py1 client.py: session failed: {type(error).__name__}: {one_line(error)}", file=sys.stderr)
        return 1
    finally:
        events.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
