# Two receive loops for a client, the lesson of notebook 04: each reads the frames from the
# server one at a time; they differ only in whether the loop waits for a request's handler.
import asyncio


async def wrong_loop(peer):
    """Wrong: awaits each inbound request's handler before it reads the next frame."""
    async for frame in peer.frames():
        if "method" in frame and "id" in frame:
            await peer.answer(frame)  # nothing else is read until the handler returns
        elif "id" in frame:
            peer.settle(frame)  # a reply to one of our requests


async def right_loop(peer):
    """Right: starts each inbound request's handler and reads on at once."""
    running = set()  # asyncio keeps only weak references to tasks
    async for frame in peer.frames():
        if "method" in frame and "id" in frame:
            task = asyncio.create_task(peer.answer(frame))  # runs beside the loop
            running.add(task)
            task.add_done_callback(running.discard)
        elif "id" in frame:
            peer.settle(frame)  # read even while a handler waits
