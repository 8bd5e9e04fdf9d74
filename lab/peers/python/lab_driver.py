# The lab's one Python client driver: it runs a SessionPlan (lab/plan/behaviour.ts; lab_plan.py) and writes
# DriverEvent lines (lab/plan/driver-events.ts; lab_events.py), whatever the SDK or framework: an adapter brings that.
#
# A new Python peer is five things (README.md in this folder says more):
#  1. lab/peers/<name>/requirements.txt, hash-pinned, made as lab/peers/py1/requirements.txt's header says;
#  2. one entry in lab/peers/python/envs.ts (name, requirements, its venv under build/, the distribution shown);
#  3. an adapter, lab/peers/<name>/client.py (or an existing one reused: py130 runs py1's): a subclass of
#     `Adapter` below, ending in `sys.exit(main(TheAdapter(), sys.argv[1:]))`;
#  4. its ClientPeer (pythonClient(...), lab/peers/python/peer.ts) in lab/peers/<name>/index.ts, a line in registry.ts;
#  5. its expectations, by hand from the installed source: expected/<scenario>.sdk.<name>.json, expected/card/<name>.*.
#
# An adapter knows only its SDK: how to build the client with the driver's callbacks (each handed a send_nested,
# the nested request as that SDK sends it from inside a callback), how to call a tool, and its errors. The driver owns
# the rest: the pipe (lab_pipe.py; --http URL: the SDK's own HTTP client, lab_http.py), the plan's steps, the events.
from __future__ import annotations

import argparse
import asyncio
import sys
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager, nullcontext
from dataclasses import dataclass
from typing import Any

import anyio
from pydantic import ValidationError

from lab_events import Events, one_line
from lab_http import sdk_http_streams
from lab_pipe import Wire, own_stdio
from lab_relay import relayed_command
from lab_plan import AnswerData, Behaviour, CallData, Nested, SessionPlan

# Why the client gave up on a call (CallData.giveUpAfterMs): the words of lab/peers/call-book.ts GIVE_UP_REASON.
GIVE_UP_REASON = "the client gave up on the call while its form was open"

# Sends the plan's nested request the SDK's way; the tool names a tools/list returned (a ping: none). Raises as the SDK does.
NestedSend = Callable[[Nested], Awaitable[set[str]]]


@dataclass(frozen=True)
class Connection:
    """A negotiated client, as the driver uses it. call_tool(call, timeout_s) -> {"result": structured content,
    "isError": bool}; it raises what the SDK raises (the driver records it)."""
    list_tools: Callable[[], Awaitable[set[str]]]
    call_tool: Callable[[CallData, float], Awaitable[dict[str, Any]]]


class Adapter:
    """One SDK generation or framework. Override what differs; every member is read by the driver only."""
    prog = "client.py"  # the stderr lines' prefix
    description = "client peer driver for the reentrancy lab"
    # how a withdrawal (notifications/cancelled) reaches the callback: callback.aborted's reason, after the exception's name
    abort_reason = "the handler's scope was cancelled"
    sdk_error: type[BaseException] = Exception  # the SDK's protocol error: its str() is the SDK's own words
    wire: Wire  # its framing of one JSON-RPC line

    def code(self, error: BaseException) -> int | None:
        """The JSON-RPC error code an SDK error carries; None for any other exception."""
        return None

    def arguments(self, parser: argparse.ArgumentParser) -> None:
        """Flags of its own, besides --plan and --events."""

    def configure(self, args: argparse.Namespace) -> None:
        """Reads its flags."""

    def refusal(self, plan: SessionPlan) -> str | None:
        """What it cannot run, said before anything is sent (exit 2); None when it can."""
        return None

    def log(self, events: Events) -> None:
        """Its logging: warnings to stderr, and whatever the SDK says that the events should keep."""

    def connect(self, driver: Driver, read: Any, write: Any) -> AbstractAsyncContextManager[Connection]:
        """Builds the client on the driver's streams with the driver's callbacks, negotiates, yields a Connection;
        leaving it closes the session."""
        raise NotImplementedError

    # A framework that takes no streams, only a server command to spawn, sets spawns = True and overrides
    # connect_command instead: its command is lab_relay.py, joined to the driver's own pipe.
    spawns = False
    opens_pipe = False  # True: it opens own_stdio(self.wire) on a loop of its own (strands); connect() gets no streams

    def connect_command(self, driver: Driver, command: list[str]) -> AbstractAsyncContextManager[Connection]:
        """As connect, for a framework that spawns its server: command[0] is the program, command[1:] its args."""
        raise NotImplementedError


class Driver:
    def __init__(self, plan: SessionPlan, events: Events, adapter: Adapter, url: str | None = None) -> None:
        self.plan, self.events, self.adapter, self.url = plan, events, adapter, url  # url: --http, else the pipe
        self.listed: set[str] = set()
        self.label = ""
        self.callbacks = 0
        # callbacks still running, by the call they serve (awaitCallbacks waits for them)
        self.running: dict[str, set[anyio.Event]] = {}
        # set when the current call's first form opens: its giveUpAfterMs counts from then
        self.form_opened: anyio.Event | None = None
        self.loop: asyncio.AbstractEventLoop | None = None  # the driver's own: signal() crosses to it
        self.ended = False  # set by an adapter when the lab's bound ended the session: no further call is sent

    def signal(self, event: anyio.Event) -> None:
        """Sets an event the driver's loop may await, from the callback's thread (not thread-safe from another)."""
        event.set() if self.loop in (None, asyncio.get_running_loop()) else self.loop.call_soon_threadsafe(event.set)  # type: ignore[union-attr]

    def wants(self, capability: str) -> bool:
        """The plan declares this capability: register its callback (a registered one declares it in most SDKs)."""
        return capability in self.plan.capabilities

    def error_detail(self, error: BaseException) -> dict[str, Any]:
        return {"code": self.adapter.code(error), "message": str(error), "type": type(error).__name__}

    async def nested(self, nested: Nested, send: NestedSend) -> set[str] | None:
        """The nested request, recorded as it leaves and as it ends; None when it failed."""
        self.events.write("nested.sent", method=nested.method)
        try:
            names = await send(nested)
        except Exception as error:
            self.events.write("nested.failed", method=nested.method, detail=self.error_detail(error))
            return None
        self.events.write("nested.ok", method=nested.method)
        return names

    async def elicitation(self, request_id: Any, send: NestedSend, refuse: Callable[[], Any], embedded: bool = False) -> Any:
        """The elicitation callback's steps: the plan's AnswerData; with no behaviour planned for the call, refuse()'s
        value (the SDK's own error answer, e.g. 1.x ErrorData) or its exception. `embedded`: on 2026-07-28 the id is
        an input request's key, not a JSON-RPC id (nothing crossed the wire)."""
        self.callbacks += 1
        call = self.label
        ids: dict[str, Any] = {"id": request_id, "method": "elicitation/create"}
        where: dict[str, Any] = {"n": self.callbacks, "call": call, **({"embedded": True} if embedded else {})}
        self.events.write("callback.entered", **ids, detail=where)
        if self.form_opened is not None:
            self.signal(self.form_opened)
        done = anyio.Event()
        self.running.setdefault(call, set()).add(done)
        behaviour = next((c.callback for c in self.plan.calls if c.label == call), None)
        try:
            if behaviour is None:
                refusal = refuse()
                self.events.write("callback.left", **ids, detail={**where, "error": f"{type(refusal).__name__}: {refusal.message}"})
                return refusal
            answer = await self.behave(behaviour, send)
        except anyio.get_cancelled_exc_class() as error:
            # A withdrawal cancels the scope the callback runs in (each adapter's abort_reason says whose); the callback
            # sees it as the cancellation exception at its await and can only leave: any answer would be dropped.
            if behaviour is not None and behaviour.watchAbort:
                self.events.write("callback.aborted", **ids,
                                  detail={**where, "reason": f"{type(error).__name__}: {self.adapter.abort_reason}"})
            self.events.write("callback.left", **ids, detail={**where, "error": type(error).__name__})
            raise
        except BaseException as error:
            self.events.write("callback.left", **ids, detail={**where, "error": f"{type(error).__name__}: {error}"})
            raise
        finally:
            self.running[call].discard(done)
            self.signal(done)
        self.events.write("callback.left", **ids, detail={**where, "action": answer.action})
        return answer

    async def turn(self, request_id: Any, method: str, send: NestedSend) -> bool:
        """The sampling or roots callback's steps: enter, think for the call's planned time, send the planned nested
        request (a failed one changes nothing else), leave. True when one was planned and the adapter may answer with
        lab_plan.py's synthetic answer (no model is called); False when none was."""
        self.callbacks += 1
        key = "sampling" if method == "sampling/createMessage" else "roots"
        plan = next((getattr(c, key) for c in self.plan.calls if c.label == self.label), None)
        ids: dict[str, Any] = {"id": request_id, "method": method}
        where: dict[str, Any] = {"n": self.callbacks, "call": self.label}
        self.events.write("callback.entered", **ids, detail=where)
        if plan is None:
            self.events.write("callback.left", **ids, detail={**where, "error": f"ErrorData: no {method} callback planned"})
            return False
        await anyio.sleep(plan.delayMs / 1000)
        if plan.nested is not None:
            await self.nested(plan.nested, send)
        self.events.write("callback.left", **ids, detail={**where, "action": "accept"})
        return True

    async def answer(self, request_id: Any, method: str, send: NestedSend, answer: Callable[[], Any], refuse: Callable[[], Any]) -> Any:
        """turn(), then the adapter's synthetic answer; when none was planned, its refusal (returned, or raised)."""
        return answer() if await self.turn(request_id, method, send) else refuse()

    async def behave(self, behaviour: Behaviour, send: NestedSend) -> AnswerData:
        otherwise = behaviour.otherwise or AnswerData(action="cancel")
        if behaviour.delayMs:
            await anyio.sleep(behaviour.delayMs / 1000)  # the plan's think time, not a stand-in
        known = self.listed
        if behaviour.nested is not None:
            names = await self.nested(behaviour.nested, send)
            if names is None:
                return otherwise
            if behaviour.nested.method == "tools/list":
                known = names
        if behaviour.needTool is not None and behaviour.needTool not in known:
            return otherwise
        return behaviour.answer

    async def call_tool(self, call: CallData, send: Callable[[], Awaitable[dict[str, Any]]]) -> dict[str, Any]:
        """One tools/call, as tool.result records it. giveUpAfterMs, counted from the call's first form opening:
        cancel the scope the call runs in; what the SDK then does (a courtesy notifications/cancelled in 2.x, only
        dropping its response stream in 1.x) is the SDK's own and shows on the wire."""
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
                        outcome = await send()
                    except anyio.get_cancelled_exc_class() as error:
                        cancelled = type(error).__name__
                        raise
                    except Exception as error:
                        sdk = isinstance(error, self.adapter.sdk_error)
                        message = str(error) if sdk else f"{type(error).__name__}: {error}"
                        outcome = {"error": {"code": self.adapter.code(error), "message": message}}
                    timers.cancel_scope.cancel()
        finally:
            self.form_opened = None
        if cancelled is not None and call_scope.cancelled_caught:
            outcome = {"error": {"code": None, "message": f"{cancelled}: {GIVE_UP_REASON} (its cancel scope was cancelled)"}}
        return outcome

    @asynccontextmanager
    async def connection(self) -> AsyncIterator[Connection]:
        """The adapter's client on the lab's pipe or URL: on the driver's streams, or through the relay it spawns."""
        if self.adapter.spawns:
            async with relayed_command(self.events) as command, self.adapter.connect_command(self, command) as connection:
                yield connection
        else:  # opens_pipe: the adapter opens it on its framework's loop
            pipe = nullcontext((None, None)) if self.adapter.opens_pipe else sdk_http_streams(self.url) if self.url else own_stdio(self.adapter.wire)
            async with pipe as (read, write), self.adapter.connect(self, read, write) as connection:
                yield connection

    async def run(self) -> None:
        self.loop = asyncio.get_running_loop()
        timeout_s = self.plan.callTimeoutMs / 1000
        async with self.connection() as connection:
            if self.plan.listToolsFirst:
                self.listed = await connection.list_tools()
            for call in self.plan.calls:
                if self.ended:
                    break
                self.label = call.label
                self.events.write("call.started", detail={"call": call.label})
                outcome = await self.call_tool(call, lambda: connection.call_tool(call, timeout_s))
                self.events.write("tool.result", detail={"call": call.label, **outcome})
                if call.awaitCallbacks:
                    # A call that gave up may leave its form open: the next call waits for it (bounded).
                    with anyio.fail_after(timeout_s):
                        for done in list(self.running.get(call.label, ())):
                            await done.wait()
        self.events.write("note", detail={"sessionClosed": True})


def main(adapter: Adapter, argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=adapter.description)
    parser.add_argument("--plan", required=True)
    parser.add_argument("--events", required=True)
    parser.add_argument("--http", help="the URL of the lab's Streamable HTTP server: connect there, not on stdio")
    adapter.arguments(parser)
    args = parser.parse_args(argv)
    adapter.configure(args)
    try:
        with open(args.plan, encoding="utf-8") as file:
            plan = SessionPlan.model_validate_json(file.read())
    except (OSError, ValidationError) as error:
        first = error.errors()[0] if isinstance(error, ValidationError) else None
        reason = f"{'.'.join(map(str, first['loc'])) or '(root)'}: {first['msg']}" if first else error
        print(f"{adapter.prog}: bad plan {args.plan}: {reason}", file=sys.stderr)
        return 2
    refused = adapter.refusal(plan) or ("it has no HTTP mode" if args.http and (adapter.spawns or adapter.opens_pipe) else None)
    if refused is not None:
        print(f"{adapter.prog}: plan {plan.scenario} refused: {refused}", file=sys.stderr)
        return 2
    events = Events(args.events)
    adapter.log(events)
    driver = Driver(plan, events, adapter, args.http)
    try:
        anyio.run(driver.run)
    except Exception as error:
        while isinstance(error, ExceptionGroup) and len(error.exceptions) == 1:
            error = error.exceptions[0]
        events.write("note", detail={"sessionError": driver.error_detail(error)})
        print(f"{adapter.prog}: session failed: {type(error).__name__}: {one_line(error)}", file=sys.stderr)
        return 1
    finally:
        events.close()
    return 0
