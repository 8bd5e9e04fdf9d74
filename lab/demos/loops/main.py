# The receive-loop demo: a server that, while handling tools/call, asks the client a question
# (elicitation/create); the client's callback first asks the server for tools/list. Run with
# the client's loop named: `python3 lab/demos/loops/main.py wrong|right`. Prints what happened,
# in order (never a time: the order is the lesson); exits 0 either way, 2 on bad usage.
import asyncio
import json
import sys

from loops import right_loop, wrong_loop
from peer import NESTED_LIMIT_S, pair


async def main(which):
    client, server = pair()
    nested = {"completed": False}

    async def tools_list(_params):
        server.say("answers tools/list at once; the reply is on the pipe")
        return {"tools": [{"name": "calculate"}]}

    async def tools_call(_params):
        server.say("handling tools/call, asks the client for two numbers (elicitation/create)")
        answer = await server.request("elicitation/create", {"message": "two numbers?"})
        if answer["action"] == "accept":
            return {"value": answer["content"]["a"] * answer["content"]["b"]}
        return {"value": None, "action": answer["action"]}

    async def elicitation(_params):
        client.say(f"callback runs, and first asks the same server for tools/list (limit {NESTED_LIMIT_S} s)")
        try:
            await client.request("tools/list", limit_s=NESTED_LIMIT_S)
        except TimeoutError as error:
            client.say(f"{error}; the callback answers cancel")
            return {"action": "cancel"}
        nested["completed"] = True
        client.say("tools/list answered inside the callback; the callback answers accept 3 x 7")
        return {"action": "accept", "content": {"a": 3, "b": 7}}

    server.handlers.update({"tools/list": tools_list, "tools/call": tools_call})
    client.handlers["elicitation/create"] = elicitation
    loops = [asyncio.create_task(right_loop(server)), asyncio.create_task((wrong_loop if which == "wrong" else right_loop)(client))]
    client.say(f"reads with the {which} loop; calls tools/call")
    result = await client.request("tools/call", {"name": "calculate"})
    client.say(f"tools/call ended: {json.dumps(result, separators=(',', ':'))}")
    client.say("the nested request completed" if nested["completed"] else "the nested request failed")
    for loop in loops:
        loop.cancel()


if __name__ == "__main__":
    if sys.argv[1:] not in (["wrong"], ["right"]):
        print("error: name the client's loop: python3 lab/demos/loops/main.py wrong|right", file=sys.stderr)
        sys.exit(2)
    asyncio.run(main(sys.argv[1]))
