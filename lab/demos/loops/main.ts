// The receive-loop demo: a server that, while handling tools/call, asks the client a question
// (elicitation/create); the client's callback first asks the server for tools/list. Run with
// the client's loop named: `npx tsx lab/demos/loops/main.ts wrong|right`. Prints what happened,
// in order (never a time: the order is the lesson); exits 0 either way, 2 on bad usage.
import { rightLoop, wrongLoop } from "./loops.js";
import { NESTED_LIMIT_MS, pair } from "./peer.js";

const which = process.argv[2];
if (which !== "wrong" && which !== "right") {
  console.error("error: name the client's loop: npx tsx lab/demos/loops/main.ts wrong|right");
  process.exit(2);
}
const { client, server } = pair();
let nestedCompleted = false;

server.handlers["tools/list"] = async () => {
  server.say("answers tools/list at once; the reply is on the pipe");
  return { tools: [{ name: "calculate" }] };
};
server.handlers["tools/call"] = async () => {
  server.say("handling tools/call, asks the client for two numbers (elicitation/create)");
  const answer = (await server.request("elicitation/create", { message: "two numbers?" })) as { action: string; content?: { a: number; b: number } };
  return answer.action === "accept" ? { value: answer.content!.a * answer.content!.b } : { value: null, action: answer.action };
};
client.handlers["elicitation/create"] = async () => {
  client.say(`callback runs, and first asks the same server for tools/list (limit ${NESTED_LIMIT_MS / 1000} s)`);
  try {
    await client.request("tools/list", {}, NESTED_LIMIT_MS);
    nestedCompleted = true;
    client.say("tools/list answered inside the callback; the callback answers accept 3 x 7");
    return { action: "accept", content: { a: 3, b: 7 } };
  } catch (error) {
    client.say(`${(error as Error).message}; the callback answers cancel`);
    return { action: "cancel" };
  }
};

void rightLoop(server); // the server reads on while its tools/call handler waits
void (which === "wrong" ? wrongLoop : rightLoop)(client);
client.say(`reads with the ${which} loop; calls tools/call`);
const result = (await client.request("tools/call", { name: "calculate" }).catch((e: Error) => ({ failed: e.message }))) as Record<string, unknown>;
client.say(`tools/call ended: ${JSON.stringify(result)}`);
client.say(nestedCompleted ? "the nested request completed" : "the nested request failed");
