# Client peer `fast-agent`: fast-agent-mcp 0.2.36 (the newest that installs on Python 3.11; 0.10.x needs >= 3.12 and
# pins mcp==2.3.0) on mcp 1.10.1, the adapter of the lab's one Python driver. Lines cited are the venv's site-packages
# (build/venvs/fast-agent). The client is the framework's own: MCPAggregator (mcp_agent/mcp/mcp_aggregator.py:98-120),
# the base every fast-agent Agent is, whose list_tools and call_tool an agent's LLM calls, with persistent connections
# (its default, :101) through the context's MCPConnectionManager. It takes only a server command from its settings
# (MCPServerSettings, mcp_agent/config.py:57-74; stdio_client, mcp_agent/mcp/mcp_connection_manager.py:319-330): the
# command is the lab's relay (lab/peers/python/lab_relay.py), joined to the lab's pipe.
# Callbacks: its session (MCPAgentClientSession, mcp_agent/mcp/mcp_agent_client_session.py:60-100) registers no
# elicitation callback (mcp 1.10.1's default refuses and declares none, mcp/client/session.py:73-80, :139-140); sampling
# is fast-agent's own sample() running a model (mcp_agent/mcp/sampling.py:63-150), here its no-network PassthroughLLM
# as the default model; no roots (none configured). No callback of the lab's runs, so nothing can nest.
# CLI: client.py --plan PLAN.json --events EVENTS.jsonl
from __future__ import annotations

import logging
import os
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from importlib.metadata import version
from typing import Any

from mcp_agent.config import LoggerSettings, MCPServerSettings, MCPSettings, Settings
from mcp_agent.context import initialize_context
from mcp_agent.mcp.mcp_aggregator import MCPAggregator

sys.path.insert(1, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
from lab_driver import Connection, Driver, main  # noqa: E402  (the one Python driver)
from lab_events import Events  # noqa: E402
from lab_mcp1 import Mcp1Adapter  # noqa: E402  (what the 1.x adapters share)
from lab_plan import CallData  # noqa: E402

SERVER = "lab"
DECLARES = ("fast-agent-mcp 0.2.36's MCPAgentClientSession passes no elicitation callback to mcp 1.10.1's ClientSession "
            "(mcp_agent/mcp/mcp_agent_client_session.py:75-100), which then declares none (mcp/client/session.py:137-141); "
            "roots only for a server configured with roots (:75)")


class FastAgentClient(Mcp1Adapter):
    prog = "fast-agent client.py"
    description = f"fast-agent-mcp {version('fast-agent-mcp')} (mcp {version('mcp')}) client peer driver for the reentrancy lab"
    spawns = True

    def log(self, events: Events) -> None:
        logging.basicConfig(stream=sys.stderr, level=logging.WARNING, format=f"{self.prog} %(name)s: %(message)s")

    @asynccontextmanager
    async def connect_command(self, driver: Driver, command: list[str]) -> AsyncIterator[Connection]:
        """The settings an app's fastagent.config.yaml holds, as objects: one stdio server (the relay) whose every
        request's read timeout is the plan's limit (read_timeout_seconds, mcp_connection_manager.py:162-171), no
        console output, and `passthrough` as the default model, which auto_sampling (config.py:314, on by default)
        makes the sampling model (sampling.py:83-118): no network. Entering the aggregator connects, initializes and
        lists tools (and prompts, when offered) once (mcp_aggregator.py:71-92, :191-300)."""
        asked = sorted(set(driver.plan.capabilities) - {"sampling"})
        if asked:
            driver.events.write("note", detail={"notDeclared": asked, "why": DECLARES})
        limit = max(1, round(driver.plan.callTimeoutMs / 1000))  # an int of seconds (config.py:74)
        server = MCPServerSettings(name=SERVER, transport="stdio", command=command[0], args=command[1:], read_timeout_seconds=limit)
        settings = Settings(mcp=MCPSettings(servers={SERVER: server}), default_model="passthrough",
                            logger=LoggerSettings(type="none", progress_display=False, show_chat=False, show_tools=False))
        context = await initialize_context(settings, store_globally=True)
        aggregator = MCPAggregator(server_names=[SERVER], connection_persistence=True, context=context, name="lab-agent")
        await aggregator.__aenter__()
        try:
            async def list_tools() -> set[str]:
                # the aggregator's own map, filled when it connected (no request): names are "<server>-<tool>"
                return {tool.name.removeprefix(f"{SERVER}-") for tool in (await aggregator.list_tools()).tools}

            async def call_tool(call: CallData, timeout_s: float) -> dict[str, Any]:
                # by its namespaced name, as an agent's LLM calls it (mcp_aggregator.py:536-544); the server's limit applies
                result = await aggregator.call_tool(f"{SERVER}-{call.tool}", call.args)
                return {"result": result.structuredContent, "isError": result.isError is True}

            yield Connection(list_tools, call_tool)
        finally:
            await aggregator.__aexit__(None, None, None)


if __name__ == "__main__":
    sys.exit(main(FastAgentClient(), sys.argv[1:]))
