# Client peer `py` / `py-inline` / `py-modern`: mcp 2.3.0, the adapter of the lab's one Python driver
# (lab/peers/python/lab_driver.py runs the plan and writes the events; this file knows only the SDK).
# CLI: client.py --plan PLAN.json --events EVENTS.jsonl [--inline | --modern]
#   --inline: elicitation/create parks the read loop; --modern: the high-level Client pinned to 2026-07-28 (modern.py)
from __future__ import annotations

import argparse
import os
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import mcp_types as types
from mcp.client.session import ClientRequestContext, ClientSession
from mcp.shared.exceptions import MCPError
from mcp.shared.jsonrpc_dispatcher import JSONRPCDispatcher
from mcp_types.version import HANDSHAKE_PROTOCOL_VERSIONS, LATEST_HANDSHAKE_VERSION, MODERN_PROTOCOL_VERSIONS

from modern import GivenStreams, RoundObservingClient

sys.path.insert(1, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
from lab_driver import Connection, Driver, NestedSend, main  # noqa: E402  (the one Python driver)
from lab_mcp2 import Mcp2Adapter, completion, send_nested, synthetic_roots  # noqa: E402  (what the 2.x adapters share)
from lab_plan import CallData  # noqa: E402

CLIENT_INFO = types.Implementation(name="reentrancy-lab-client-py", version="0.1.0")
INLINE = frozenset({"elicitation/create"})  # the SDK's documented inline ordering (1.x receive loop)
MODERN = "2026-07-28"


def outcome(result: types.CallToolResult) -> dict[str, Any]:
    return {"result": result.structured_content, "isError": result.is_error is True}


def refused(what: str) -> Any:
    """The answer when the call planned no such callback: the SDK's error reply."""
    return lambda: types.ErrorData(code=types.INVALID_REQUEST, message=f"no {what} planned for this call")


def nested_in(context: ClientRequestContext) -> NestedSend:
    return lambda nested: send_nested(context.session, nested)


class Py2(Mcp2Adapter):
    prog = "client.py"
    description = "mcp 2.3.0 client peer driver for the reentrancy lab"
    inline = modern = embedded = False
    driver: Driver

    def arguments(self, parser: argparse.ArgumentParser) -> None:
        mode = parser.add_mutually_exclusive_group()
        mode.add_argument("--inline", action="store_true", help="elicitation/create runs inline in the read loop")
        mode.add_argument("--modern", action="store_true", help="the high-level Client pinned to 2026-07-28")

    def configure(self, args: argparse.Namespace) -> None:
        self.inline, self.modern = args.inline, args.modern

    async def elicitation(self, context: ClientRequestContext,
                          params: types.ElicitRequestParams) -> types.ElicitResult | types.ErrorData:
        # On 2026-07-28 the id is the input request's key (client.py:926), not a JSON-RPC id.
        answer = await self.driver.elicitation(context.request_id, nested_in(context), self.unplanned, embedded=self.embedded)
        # Built without validation: content goes out exactly as the plan gives it, wrong types and all,
        # so whatever refuses it is the SDK's own result check (ClientSession._on_request).
        return types.ElicitResult.model_construct(**answer.fields())

    def unplanned(self) -> Any:
        raise MCPError(types.INVALID_REQUEST, "Elicitation not supported")  # the SDK's own default callback's answer

    async def sampling(self, context: ClientRequestContext,
                       params: types.CreateMessageRequestParams) -> types.CreateMessageResult | types.ErrorData:
        return await self.driver.answer(context.request_id, "sampling/createMessage", nested_in(context), completion, refused("sampling"))

    async def roots(self, context: ClientRequestContext) -> types.ListRootsResult | types.ErrorData:
        return await self.driver.answer(context.request_id, "roots/list", nested_in(context),
                                        lambda: types.ListRootsResult(roots=synthetic_roots()), refused("roots"))

    def connect(self, driver: Driver, read: Any, write: Any) -> Any:
        self.driver = driver
        return self.connect_modern(read, write) if self.modern else self.connect_session(read, write)

    @asynccontextmanager
    async def connect_session(self, read: Any, write: Any) -> AsyncIterator[Connection]:
        driver = self.driver
        timeout = driver.plan.callTimeoutMs / 1000
        options: dict[str, Any] = {"read_timeout_seconds": timeout, "client_info": CLIENT_INFO,
                                   "elicitation_callback": self.elicitation if driver.wants("elicitation") else None,
                                   **({"sampling_callback": self.sampling} if driver.wants("sampling") else {}),
                                   **({"list_roots_callback": self.roots} if driver.wants("roots") else {})}
        session = (ClientSession(dispatcher=JSONRPCDispatcher(read, write, inline_methods=INLINE), **options)
                   if self.inline else ClientSession(read, write, **options))
        async with session:
            await self.initialize(session)

            async def call_tool(call: CallData, timeout_s: float) -> dict[str, Any]:
                return outcome(await session.call_tool(call.tool, call.args, read_timeout_seconds=timeout_s))

            yield Connection(lambda: names(session.list_tools()), call_tool)

    async def initialize(self, session: ClientSession) -> None:
        """initialize() as the SDK does it, but declaring exactly the plan's capabilities."""
        capabilities = types.ClientCapabilities.model_validate(self.driver.plan.capabilities)
        result = await session.send_request(
            types.InitializeRequest(params=types.InitializeRequestParams(
                protocol_version=LATEST_HANDSHAKE_VERSION, capabilities=capabilities, client_info=CLIENT_INFO)),
            types.InitializeResult,
        )
        if result.protocol_version not in HANDSHAKE_PROTOCOL_VERSIONS:
            raise RuntimeError(f"Unsupported protocol version from the server: {result.protocol_version}")
        session.adopt(result)
        await session.send_notification(types.InitializedNotification())
        self.driver.events.write("note", detail={"negotiatedProtocol": session.protocol_version,
                                                 "server": result.server_info.name, "inline": self.inline})

    @asynccontextmanager
    async def connect_modern(self, read: Any, write: Any) -> AsyncIterator[Connection]:
        """Client(transport, mode="2026-07-28"): the pin adopts a synthesized DiscoverResult with no
        server/discover probe and no initialize (client.py:462-467); each request then carries the era,
        client info and capabilities in its _meta (session.py:153-170). Capabilities are the SDK's own:
        elicitation {form, url} whenever a callback is set (session.py:634-638), not the plan's."""
        driver = self.driver
        client = RoundObservingClient(GivenStreams(read, write), mode=MODERN, read_timeout_seconds=driver.plan.callTimeoutMs / 1000,
                                      elicitation_callback=self.elicitation if driver.wants("elicitation") else None,
                                      client_info=CLIENT_INFO)
        client.on_round = lambda kind, n, keys: driver.events.write(
            f"round.{kind}", method="tools/call", detail={"call": driver.label, "round": n, "keys": keys})
        version: str | None = None
        try:
            await client.__aenter__()
            version = client.protocol_version
        finally:
            era = None if version is None else "modern" if version in MODERN_PROTOCOL_VERSIONS else "legacy"
            driver.events.write("protocol.negotiated", detail={"negotiation": MODERN, "protocolVersion": version, "era": era})
        try:
            self.embedded = version in MODERN_PROTOCOL_VERSIONS

            async def call_tool(call: CallData, timeout_s: float) -> dict[str, Any]:
                return outcome(await client.call_tool(call.tool, call.args, read_timeout_seconds=timeout_s))

            yield Connection(lambda: names(client.list_tools()), call_tool)
        finally:
            await client.__aexit__(None, None, None)


async def names(listing: Any) -> set[str]:
    return {tool.name for tool in (await listing).tools}


if __name__ == "__main__":
    sys.exit(main(Py2(), sys.argv[1:]))
