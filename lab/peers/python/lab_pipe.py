# The driver's own stdin/stdout as the SessionMessage streams a client session reads and writes, for every
# Python SDK generation: the adapter hands in its SDK's framing of one JSON-RPC line (Wire), as its own stdio
# transport frames it (mcp 2.3.0: jsonrpc_message_adapter, exclude_unset; 1.x: JSONRPCMessage, exclude_none,
# mcp/client/stdio/__init__.py:155/172 in 1.29.0). Pure anyio: no SDK import here.
from __future__ import annotations

import os
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any

import anyio
from anyio.streams.memory import MemoryObjectReceiveStream, MemoryObjectSendStream

WRITER_DRAIN_BOUND_S = 2.0


@dataclass(frozen=True)
class Wire:
    """One SDK's framing: parse a line into its JSONRPCMessage (raises on a bad one), dump one back to
    JSON, and wrap a parsed message as the SessionMessage its session reads."""
    parse: Callable[[bytes], Any]
    dump: Callable[[Any], str]
    session_message: Callable[[Any], Any]


def own_fds() -> tuple[int, int]:
    """The process's stdin/stdout as two non-blocking fds of the driver's own; fd 0/1 become /dev/null and
    stderr, so no stray print reaches the wire."""
    wire_in, wire_out = os.dup(0), os.dup(1)
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    os.dup2(2, 1)
    os.set_blocking(wire_in, False)
    os.set_blocking(wire_out, False)
    return wire_in, wire_out


async def write_all(fd: int, data: bytes) -> None:
    """Writes all of data to a non-blocking fd, awaiting it on the loop."""
    view = memoryview(data)
    while view:
        await anyio.wait_writable(fd)
        try:
            view = view[os.write(fd, view):]
        except BlockingIOError:
            continue


@asynccontextmanager
async def own_stdio(wire: Wire) -> AsyncIterator[tuple[MemoryObjectReceiveStream[Any], MemoryObjectSendStream[Any]]]:
    """The process's own stdin/stdout as SessionMessage streams. Not the SDK's stdio_server(): its reader
    parks in a worker thread (anyio.wrap_file) no cancel reaches, so leaving it waits for stdin's EOF. Here
    both ends are non-blocking fds awaited on the loop (own_fds)."""
    wire_in, wire_out = own_fds()
    read_send, read_recv = anyio.create_memory_object_stream[Any](0)
    write_send, write_recv = anyio.create_memory_object_stream[Any](0)
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
                        message = wire.parse(line)
                    except Exception as exc:  # the session's loop sees it (2.x on_stream_exception, 1.x message handler)
                        await read_send.send(exc)
                        continue
                    await read_send.send(wire.session_message(message))

    async def writer() -> None:
        try:
            async with write_recv:
                async for item in write_recv:
                    await write_all(wire_out, (wire.dump(item.message) + "\n").encode())
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
