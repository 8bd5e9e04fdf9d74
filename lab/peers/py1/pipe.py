# The driver's own stdin/stdout as the SessionMessage streams a 1.29.0 session reads and writes
# (mcp.shared.message.SessionMessage, anyio memory streams, as mcp/client/stdio/__init__.py:155/172
# frames them: one JSONRPCMessage per line, model_dump_json(by_alias=True, exclude_none=True)).
from __future__ import annotations

import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import anyio
from anyio.streams.memory import MemoryObjectReceiveStream, MemoryObjectSendStream
from mcp import types
from mcp.shared.message import SessionMessage

WRITER_DRAIN_BOUND_S = 2.0


@asynccontextmanager
async def own_stdio() -> AsyncIterator[tuple[MemoryObjectReceiveStream[SessionMessage | Exception],
                                             MemoryObjectSendStream[SessionMessage]]]:
    """Non-blocking fds awaited on the loop (the SDK's stdio reader parks in a worker thread no cancel
    reaches); fd 0/1 become /dev/null/stderr, so no stray print reaches the wire."""
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
                        message = types.JSONRPCMessage.model_validate_json(line)
                    except Exception as exc:  # the session's _receive_loop hands it to the message handler
                        await read_send.send(exc)
                        continue
                    await read_send.send(SessionMessage(message))

    async def writer() -> None:
        try:
            async with write_recv:
                async for item in write_recv:
                    data = (item.message.model_dump_json(by_alias=True, exclude_none=True) + "\n").encode()
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
            await write_send.aclose()
            with anyio.move_on_after(WRITER_DRAIN_BOUND_S, shield=True):
                await written.wait()
            tg.cancel_scope.cancel()
