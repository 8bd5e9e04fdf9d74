# The driver's own stdin/stdout (lab_pipe.own_stdio, already open) as a FastMCP transport, for every adapter built on
# FastMCP's Client (fastmcp 4.x on mcp 2.x, 3.x on mcp 1.x: pydantic-ai's MCPToolset takes either). Imported only
# where fastmcp is installed.
from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from fastmcp.client import ClientTransport
from mcp import ClientSession

try:  # 4.x: the session the connecting Client wants built (VersionAwareClientSession by default, base.py:149)
    from fastmcp.client.transports.base import TransportOptions
except ImportError:  # 3.x: none; mcp's ClientSession
    TransportOptions = None


class OwnStdio(ClientTransport):
    """FastMCP's StdioTransport only spawns a server (transports/stdio.py); its public ClientTransport base
    (4.x transports/base.py:159-200, 3.x :36-66) is the way to bring other streams: connect_session yields an
    uninitialized ClientSession, as FastMCPTransport does (transports/memory.py), and the Client negotiates on it.
    4.x hands in transport_options (whose session_class is the session to build); 3.x only the session's kwargs."""

    def __init__(self, read: Any, write: Any) -> None:
        self.streams = (read, write)

    @asynccontextmanager
    async def connect_session(self, *, transport_options: Any = None, **session_kwargs: Any) -> AsyncIterator[ClientSession]:
        options = transport_options or (TransportOptions() if TransportOptions is not None else None)
        session_class = getattr(options, "session_class", ClientSession)
        read, write = self.streams
        async with session_class(read_stream=read, write_stream=write, **session_kwargs) as session:
            yield session


# What ClientSession declares whenever a callback is set (2.3.0 mcp/client/session.py:634-636, 1.30.0 :166-174).
DECLARABLE = ({"form": {}}, {"form": {}, "url": {}})


def refusal(plan: Any, who: str, derives: str, declares: str) -> str | None:
    """What a FastMCP Client cannot run: a capability it has no handler for (it derives each from its handlers,
    `derives` cites where), or an elicitation capability other than what ClientSession declares (`declares`)."""
    others = sorted(set(plan.capabilities) - {"elicitation", "sampling", "roots"})
    if others:
        return (f"{who} cannot run it: capabilities {others}: the driver registers elicitation, sampling and roots "
                f"handlers, and the Client derives every capability from the handlers it has ({derives})")
    declared = plan.capabilities.get("elicitation")
    if declared is not None and declared not in DECLARABLE:
        return (f"{who} cannot run it: elicitation capability {declared}: the Client cannot declare it; ClientSession "
                f"declares elicitation {{form, url}} whenever a callback is set ({declares})")
    return None


def refused(what: str) -> Any:
    """The answer when the call planned no such callback: an exception, which FastMCP's wrapper answers as -32603."""
    def refuse() -> Any:
        raise RuntimeError(f"no {what} planned for this call")
    return refuse
