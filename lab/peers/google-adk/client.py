# Client peers `google-adk` and `google-adk-mcp1`: google-adk 2.15.0's McpToolset, the object an ADK agent's tools
# come from, the adapter of the lab's one Python driver (lab/peers/python/lab_driver.py). One file, two venvs: ADK
# spans both mcp majors itself (google/adk/dependencies/_mcp.py), mcp 2.3.0 as `google-adk[mcp]` resolves alone and
# 1.30.0 beside langchain-mcp-adapters. Sources: build/venvs/<peer>/lib/python3.11/site-packages/.
# McpToolset takes only a server command (StdioConnectionParams, mcp_session_manager.py:321-331; stdio_client
# :1384): the command is the lab's relay (lab_relay.py), joined to the driver's own pipe.
# CLI: client.py --plan PLAN.json --events EVENTS.jsonl [--peer google-adk|google-adk-mcp1]
from __future__ import annotations

import argparse
import os
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from importlib.metadata import version
from typing import Any

import anyio
from google.adk.agents.invocation_context import InvocationContext
from google.adk.sessions import InMemorySessionService
from google.adk.tools.mcp_tool import McpToolset, StdioConnectionParams
from google.adk.tools.mcp_tool.mcp_tool import McpTool
from google.adk.tools.tool_context import ToolContext
from mcp import StdioServerParameters

sys.path.insert(1, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
from lab_driver import Connection, Driver, main  # noqa: E402  (the one Python driver)
from lab_plan import AnswerData, CallData, Nested, SessionPlan, undeclarable  # noqa: E402

MCP2 = int(version("mcp").split(".")[0]) >= 2
if MCP2:
    import mcp_types as types
    from lab_mcp2 import Mcp2Adapter as SdkAdapter, completion  # noqa: E402  (what the 2.x adapters share)
else:
    from mcp import types  # type: ignore[no-redef]
    from lab_mcp1 import Mcp1Adapter as SdkAdapter, completion  # type: ignore[assignment]  # noqa: E402

# Why the plan's other capabilities (roots) cannot be declared, noted as semantic-kernel's driver does.
NOT_DECLARED = ("McpToolset takes elicitation and sampling callbacks only (mcp_toolset.py:176-178; the message_handler "
                "2.15.0 adds, :181, declares nothing) and lets the SDK's initialize declare them (session_context.py:63); "
                "no roots callback reaches ClientSession (:454-463)")


def refused(what: str) -> Any:
    """The answer when the call planned no such callback: the SDK's error reply (ADK passes the callback as is)."""
    return lambda: types.ErrorData(code=types.INVALID_REQUEST, message=f"no {what} planned for this call")


class GoogleAdk(SdkAdapter):  # type: ignore[valid-type, misc]
    """The SDK's own callbacks, passed by McpToolset (mcp_toolset.py:176-178) through MCPSessionManager to
    ClientSession (session_context.py:454-463): what runs them is the resolved mcp's loop, 1.x's inline await or
    2.x's spawned task; ADK adds nothing between."""
    prog = "google-adk client.py"
    description = f"google-adk {version('google-adk')} (on mcp {version('mcp')}) client peer driver for the reentrancy lab"
    spawns = True
    driver: Driver
    toolset: McpToolset
    tools: dict[str, McpTool]

    def arguments(self, parser: argparse.ArgumentParser) -> None:
        parser.add_argument("--peer", default="google-adk")

    def configure(self, args: argparse.Namespace) -> None:
        self.prog = f"{args.peer} client.py"

    def refusal(self, plan: SessionPlan) -> str | None:
        # ADK's _connect calls the SDK's own initialize (session_context.py:63) and passes nothing else
        return undeclarable(plan, "McpToolset", "mcp/client/session.py:634-636" if MCP2 else "mcp/client/session.py:166-174")

    async def send_nested(self, context: Any, nested: Nested) -> set[str]:
        """tools/list through the framework: toolset.get_tools() (mcp_toolset.py:505-531), as an agent lists its
        tools. From inside a callback create_session holds _session_lock only while it finds the pooled session
        (mcp_session_manager.py:1460; one key for stdio, :983), so it is this session. get_tools takes no timeout:
        ADK's own limit is the connection's timeout, the session's read timeout (session_context.py:458) and an
        asyncio.wait_for around the call (mcp_toolset.py:429); @retry_on_errors lists once more after an
        McpError, not after a cancellation or wait_for's TimeoutError raised from one (mcp_session_manager.py:251-272,
        :575-589). The plan's limit is the caller's own scope around the await, as an app would bound it. ADK has no ping of its own:
        a ping goes on the session the SDK hands the callback (context.session)."""
        with anyio.fail_after(nested.timeoutMs / 1000):
            if nested.method == "tools/list":
                return {tool.name for tool in await self.toolset.get_tools()}
            await context.session.send_ping()
            return set()

    async def elicitation(self, context: Any, params: Any) -> Any:
        answer = await self.driver.elicitation(context.request_id, lambda nested: self.send_nested(context, nested), self.unplanned)
        if not isinstance(answer, AnswerData):
            return answer
        # content exactly as the plan gives it: whatever refuses it is the SDK's result check or the server
        return types.ElicitResult.model_construct(**answer.fields())

    def unplanned(self) -> Any:
        return types.ErrorData(code=types.INVALID_REQUEST, message="Elicitation not supported")

    async def sampling(self, context: Any, params: Any) -> Any:
        return await self.driver.answer(context.request_id, "sampling/createMessage",
                                        lambda nested: self.send_nested(context, nested), completion, refused("sampling"))

    @asynccontextmanager
    async def connect_command(self, driver: Driver, command: list[str]) -> AsyncIterator[Connection]:
        """The toolset on the relay command. Its timeout is the plan's call limit: the connection's, every request's
        read timeout (session_context.py:458) and get_tools' wait_for (mcp_toolset.py:429); ADK's default is 5 s
        (mcp_session_manager.py:331). The session opens on first use (create_session, :1436-1460)."""
        self.driver, self.tools = driver, {}
        asked = sorted(set(driver.plan.capabilities) - {"elicitation", "sampling"})
        if asked:  # run all the same, as a user's ADK agent would: the server sees them undeclared
            driver.events.write("note", detail={"notDeclared": asked, "why": NOT_DECLARED})
        params = StdioConnectionParams(server_params=StdioServerParameters(command=command[0], args=command[1:]),
                                       timeout=driver.plan.callTimeoutMs / 1000)
        sampling = driver.plan.capabilities.get("sampling")
        self.toolset = McpToolset(connection_params=params,
                                  elicitation_callback=self.elicitation if driver.wants("elicitation") else None,
                                  sampling_callback=self.sampling if sampling is not None else None,
                                  sampling_capabilities=types.SamplingCapability.model_validate(sampling) if sampling is not None else None)
        context = await tool_context()
        try:
            async def list_tools() -> set[str]:
                self.tools = {tool.name: tool for tool in await self.toolset.get_tools() if isinstance(tool, McpTool)}
                return set(self.tools)

            async def call_tool(call: CallData, timeout_s: float) -> dict[str, Any]:
                if call.tool not in self.tools:
                    await list_tools()  # an agent lists its tools before the model picks one (no plan here skips it)
                # run_async as the agent's flow calls it (flows/llm_flows/tools/_caller.py:685); it answers an
                # McpError or any Exception as {"error": ...} (mcp_tool.py:654-662), never raising. Since 2.15.0 it
                # retries once on a fresh session only when the server reports its session terminated (an HTTP 404,
                # mcp_tool.py:731-750, mcp_session_manager.py:288-295): never on this pipe
                result = await self.tools[call.tool].run_async(args=call.args, tool_context=context)
                if isinstance(result, dict) and set(result) == {"error"}:
                    return {"error": {"code": None, "message": str(result["error"])}}
                # the dump keeps 1.x's key names on both majors (_dump_mcp_model, mcp_tool.py:150-161)
                return {"result": result.get("structuredContent"), "isError": result.get("isError") is True}

            yield Connection(list_tools, call_tool)
        finally:
            await self.toolset.close()


async def tool_context() -> ToolContext:
    """A ToolContext as the flow builds one (_caller.py:108): an invocation on ADK's in-memory session service, no
    agent and no model (McpTool.run_async reads it only for confirmation, credentials and headers, none set here)."""
    service = InMemorySessionService()
    session = await service.create_session(app_name="reentrancy-lab", user_id="lab")
    invocation = InvocationContext(session_service=service, invocation_id="lab-invocation", session=session)
    return ToolContext(invocation, function_call_id="lab-call")


if __name__ == "__main__":
    sys.exit(main(GoogleAdk(), sys.argv[1:]))
