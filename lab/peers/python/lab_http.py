# The driver's --http URL mode: the SDK's own Streamable HTTP client transport, to the URL the lab serves its server
# peer at (lab/transports/process-http.ts). Its name per release (mcp/client/streamable_http.py): streamablehttp_client
# from 1.8.0 (the module's first release; deprecated from 1.24.0), streamable_http_client from 1.24.0 (2.x: only
# that one). The newer is taken where both exist; each yields (read, write, ...): the session's streams.
from __future__ import annotations

import importlib
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any


@asynccontextmanager
async def sdk_http_streams(url: str) -> AsyncIterator[tuple[Any, Any]]:
    """The SDK client's streams on `url`; leaving ends the session as the SDK does (its DELETE, terminate_on_close)."""
    module = importlib.import_module("mcp.client.streamable_http")  # ImportError before 1.8.0: no HTTP client
    client = getattr(module, "streamable_http_client", None) or module.streamablehttp_client
    async with client(url) as streams:
        yield streams[0], streams[1]
