# Client peer `semantic-kernel`: Semantic Kernel 1.45.0's MCP plugin (on mcp 1.30.0), the adapter of the lab's one
# Python driver (lab/peers/python/lab_driver.py runs the plan and writes the events). Lines cited are the venv's
# site-packages (build/venvs/semantic-kernel), semantic_kernel/connectors/mcp.py unless named.
#
# The plugin (MCPPluginBase, :237) is the object an SK agent calls: connect() builds mcp 1.30.0's ClientSession on the
# streams get_mcp_client() yields (:327-345; abstract, :601-604: here the driver's own pipe), initializes it, lists
# tools and prompts (:361-364) and registers each tool as a kernel function wrapping plugin.call_tool (:597).
# Its one callback is sampling (:341, :384-486): with consent (a sampling_consent_callback, :415) it asks the
# kernel's ChatCompletionClientBase (:427-460), here LabChat, the lab's scripted service (no model, no network).
# There is no elicitation and no roots callback: mcp 1.30.0's defaults refuse them and declare neither
# (mcp/client/session.py:160-180).
# CLI: client.py --plan PLAN.json --events EVENTS.jsonl
from __future__ import annotations

import json
import logging
import os
import sys
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from contextvars import ContextVar
from datetime import timedelta
from importlib.metadata import version
from typing import Any, ClassVar

from mcp import types
from mcp.client.session import ClientSession
from mcp.shared.context import RequestContext
from semantic_kernel import Kernel
from semantic_kernel.connectors.ai.chat_completion_client_base import ChatCompletionClientBase
from semantic_kernel.connectors.mcp import MCPPluginBase
from semantic_kernel.contents import ChatHistory, ChatMessageContent, AuthorRole

sys.path.insert(1, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
from lab_driver import Connection, Driver, main  # noqa: E402  (the one Python driver)
from lab_events import Events  # noqa: E402
from lab_mcp1 import Mcp1Adapter, note_message  # noqa: E402  (what the 1.x adapters share)
from lab_plan import SYNTHETIC_MODEL, SYNTHETIC_TEXT, CallData, Nested  # noqa: E402

Context = RequestContext[ClientSession, Any]
PLUGIN = "lab"
# Why the plan's other capabilities cannot be declared (the driver notes them, as the no-form peers do).
DECLARES = ("semantic-kernel 1.45.0 builds its ClientSession with a sampling_callback only (connectors/mcp.py:334-343); "
            "mcp 1.30.0 declares elicitation and roots only for a callback that is not its default (mcp/client/session.py:160-180)")
# the sampling request being answered: set by LabPlugin.sampling_callback, read by LabChat in the same await
SAMPLING: ContextVar[Context] = ContextVar("sampling")


class LabChat(ChatCompletionClientBase):
    """The lab's kernel chat-completion service: SK awaits it inside its sampling callback (:457-460). It runs the
    driver's turn (the plan's nested request) and answers the synthetic completion's words; no model is called."""
    turn: ClassVar[Callable[[Context], Awaitable[bool]] | None] = None

    async def _inner_get_chat_message_contents(self, chat_history: ChatHistory, settings: Any) -> list[ChatMessageContent]:
        assert LabChat.turn is not None
        if not await LabChat.turn(SAMPLING.get()):
            # SK answers any exception of its service as ErrorData INTERNAL_ERROR "Failed to get chat message content: ..." (:461-465)
            raise RuntimeError("no sampling planned for this call")
        return [ChatMessageContent(role=AuthorRole.ASSISTANT, content=SYNTHETIC_TEXT)]


class LabPlugin(MCPPluginBase):
    """The plugin on the driver's pipe: get_mcp_client is the subclass's one duty (:601-604; MCPStdioPlugin's spawns a
    command, :717-728). sampling_callback is SK's own, called unchanged; the override only lets LabChat see the request."""
    streams: tuple[Any, Any]

    @asynccontextmanager
    async def get_mcp_client(self) -> AsyncIterator[tuple[Any, Any]]:  # type: ignore[override]
        yield self.streams

    async def sampling_callback(self, context: Context, params: types.CreateMessageRequestParams) -> Any:
        SAMPLING.set(context)
        return await super().sampling_callback(context, params)


def structured(contents: list[Any]) -> Any:
    """What plugin.call_tool returns is kernel contents made from the result's content blocks only (:95-99):
    structuredContent and isError are dropped. The servers write the structured result as the one text block's
    JSON (lab/peers/ts1/ask-form.ts:34), so it is read back from there; anything else is kept as its texts."""
    texts = [getattr(item, "text", None) for item in contents]
    if len(texts) == 1 and isinstance(texts[0], str):
        try:
            return json.loads(texts[0])
        except ValueError:
            pass
    return texts


class SemanticKernelClient(Mcp1Adapter):
    prog = "semantic-kernel client.py"
    description = f"semantic-kernel {version('semantic-kernel')} client peer driver for the reentrancy lab"
    driver: Driver
    plugin: LabPlugin

    def log(self, events: Events) -> None:
        logging.basicConfig(stream=sys.stderr, level=logging.WARNING, format=f"{self.prog} %(name)s: %(message)s")

    async def send_nested(self, nested: Nested) -> set[str]:
        """The nested request on the session the plugin hands out (plugin.session, :275, :356). SK's own listing,
        plugin.load_tools(), swallows every error (:583-588) and takes no limit, so it could not show a failure."""
        session = self.plugin.session
        assert session is not None
        is_list = nested.method == "tools/list"
        # the plan's limit per request, as 1.30.0's send_request takes it (shared/session.py:283-303: McpError 408)
        result = await session.send_request(types.ClientRequest(types.ListToolsRequest() if is_list else types.PingRequest()),
                                            types.ListToolsResult if is_list else types.EmptyResult,
                                            request_read_timeout_seconds=timedelta(milliseconds=nested.timeoutMs))
        return {tool.name for tool in result.tools} if isinstance(result, types.ListToolsResult) else set()

    async def turn(self, context: Context) -> bool:
        return await self.driver.turn(context.request_id, "sampling/createMessage", self.send_nested)

    async def consent(self, plugin_name: str, params: types.CreateMessageRequestParams) -> bool:
        """The consent SK asks before any sampling (:396-418); without it every request is refused."""
        return True

    @asynccontextmanager
    async def connect(self, driver: Driver, read: Any, write: Any) -> AsyncIterator[Connection]:
        """connect() negotiates, lists tools and prompts (:327-366); every request's read timeout is the plan's limit
        (request_timeout, :338). The kernel holds LabChat as its default service (:433-442)."""
        self.driver = driver
        asked = sorted(set(driver.plan.capabilities) - {"sampling"})
        if asked:
            driver.events.write("note", detail={"notDeclared": asked, "why": DECLARES})
        LabChat.turn = self.turn
        kernel = Kernel(services=[LabChat(service_id="default", ai_model_id=SYNTHETIC_MODEL)])
        plugin = self.plugin = LabPlugin(name=PLUGIN, kernel=kernel, request_timeout=driver.plan.callTimeoutMs / 1000,
                                         sampling_consent_callback=self.consent)
        plugin.streams = (read, write)
        # what the loop hands the message handler (a late reply): SK's own handler logs it (:520-522), kept as a note too
        handler = plugin.message_handler

        async def on_message(message: Any) -> None:
            note_message(driver.events, message)
            await handler(message)

        plugin.message_handler = on_message  # type: ignore[method-assign]
        await plugin.connect()
        kernel.add_plugin(plugin, plugin_name=PLUGIN)
        try:
            async def list_tools() -> set[str]:
                # what the agent sees: the kernel functions connect() registered from its own tools/list (:583-599)
                return set(kernel.get_plugin(PLUGIN).functions)

            async def call_tool(call: CallData, timeout_s: float) -> dict[str, Any]:
                # the function each kernel function wraps (:597); no per-call limit: the session's request_timeout
                return {"result": structured(await plugin.call_tool(call.tool, **call.args)), "isError": False}

            yield Connection(list_tools, call_tool)
        finally:
            await plugin.close()


if __name__ == "__main__":
    sys.exit(main(SemanticKernelClient(), sys.argv[1:]))
