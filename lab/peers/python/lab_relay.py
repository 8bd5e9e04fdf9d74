# For a framework that only spawns its MCP server as a command (google-adk, langchain-mcp-adapters, mcp-use,
# fast-agent): the command it is handed is this file, run as a script, and joins the driver's own pipe. The
# framework's SDK then reads and writes the lab's stdio exactly as it would a server's: the relay copies bytes
# (no parsing, no reframing) and the lab still records every frame on its side of the pipe.
#
# In the driver: `async with relayed_command(events) as command:` listens on a Unix socket of its own, yields
# the argv to hand the framework, and pumps bytes between the one child that connects and the driver's own
# stdin/stdout. A second connection (a framework that spawns its server again) is refused and noted.
# As a script: `python -S -B lab_relay.py SOCKET` copies its stdin to SOCKET and SOCKET to its stdout.
from __future__ import annotations

import os
import socket
import sys
import tempfile
import threading
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

CHUNK = 1 << 16


def _child(path: str) -> int:
    """The relay as the framework's spawned server: stdin -> socket, socket -> stdout, until either ends."""
    conn = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    conn.connect(path)

    def up() -> None:
        try:
            while chunk := os.read(0, CHUNK):
                conn.sendall(chunk)
        except OSError:
            pass
        try:
            conn.shutdown(socket.SHUT_WR)
        except OSError:
            pass

    threading.Thread(target=up, daemon=True).start()
    while chunk := conn.recv(CHUNK):
        view = memoryview(chunk)
        while view:
            view = view[os.write(1, view):]
    return 0


@asynccontextmanager
async def relayed_command(events: Any) -> AsyncIterator[list[str]]:
    """The argv a framework spawns as its server, joined to this process's own stdin/stdout while the block runs."""
    import anyio  # the driver's venvs have it; the child above must start without site-packages

    from lab_pipe import own_fds, write_all

    wire_in, wire_out = own_fds()
    folder = tempfile.mkdtemp(prefix="lab-relay-")
    path = os.path.join(folder, "s")
    listener = await anyio.create_unix_listener(path)
    joined = False

    async def pump(stream: Any) -> None:
        async def down() -> None:  # the lab's frames to the framework's server process
            while True:
                await anyio.wait_readable(wire_in)
                try:
                    chunk = os.read(wire_in, CHUNK)
                except BlockingIOError:
                    continue
                if not chunk:
                    await stream.send_eof()
                    return
                await stream.send(chunk)

        async def up() -> None:  # what the framework's SDK writes, to the lab
            async for chunk in stream:
                await write_all(wire_out, chunk)

        async with anyio.create_task_group() as tg:
            tg.start_soon(down)
            await up()
            tg.cancel_scope.cancel()

    async def serve(stream: Any) -> None:
        nonlocal joined
        async with stream:
            if joined:
                events.write("note", detail={"relay": "refused a second connection: the framework spawned its server again"})
                return
            joined = True
            await pump(stream)

    try:
        async with anyio.create_task_group() as tg:
            tg.start_soon(listener.serve, serve)
            try:
                yield [sys.executable, "-S", "-B", os.path.abspath(__file__), path]
            finally:
                tg.cancel_scope.cancel()
    finally:
        await listener.aclose()
        for name in (path, folder):
            try:
                (os.unlink if name == path else os.rmdir)(name)
            except OSError:
                pass


if __name__ == "__main__":
    if len(sys.argv) != 2:
        print("usage: lab_relay.py SOCKET", file=sys.stderr)
        sys.exit(2)
    sys.exit(_child(sys.argv[1]))
