# A tiny JSON-RPC peer for the receive-loop demos (no SDK): frames over an in-process pipe,
# requests with a bounded wait, a handler per method. Which loop reads the frames is loops.py's.
import asyncio

NESTED_LIMIT_S = 0.5  # how long a callback's nested request waits, as the lab's callbacks do
CALL_LIMIT_S = 10.0  # any other request: long enough never to decide the demo


class Peer:
    def __init__(self, name, inbox, outbox):
        self.name, self.inbox, self.outbox = name, inbox, outbox
        self.handlers, self.pending, self.gave_up, self.next_id = {}, {}, {}, 1

    def say(self, line):
        print(f"{self.name}: {line}", flush=True)

    def send(self, frame):
        self.outbox.put_nowait(frame)

    async def frames(self):
        while True:
            yield await self.inbox.get()

    async def request(self, method, params=None, limit_s=CALL_LIMIT_S):
        """Sends a request; raises TimeoutError when no reply was read within its limit."""
        request_id, self.next_id = self.next_id, self.next_id + 1
        reply = self.pending[request_id] = asyncio.get_running_loop().create_future()
        self.send({"jsonrpc": "2.0", "id": request_id, "method": method, "params": params or {}})
        try:
            return (await asyncio.wait_for(reply, limit_s))["result"]
        except asyncio.TimeoutError:
            self.pending.pop(request_id, None)
            self.gave_up[request_id] = method
            raise TimeoutError(f"{method} #{request_id} timed out: no reply read within its limit")

    def settle(self, reply):
        """A reply was read: it resolves its request, or it came after the request gave up."""
        waiting = self.pending.pop(reply["id"], None)
        if waiting is None:
            method = self.gave_up.get(reply["id"], "?")
            self.say(f"reads the reply to {method} #{reply['id']} only now, after its request gave up: dropped")
        else:
            waiting.set_result(reply)

    async def answer(self, request):
        """Runs the handler of an inbound request and sends its reply."""
        result = await self.handlers[request["method"]](request["params"])
        self.send({"jsonrpc": "2.0", "id": request["id"], "result": result})


def pair():
    up, down = asyncio.Queue(), asyncio.Queue()
    return Peer("client", down, up), Peer("server", up, down)
