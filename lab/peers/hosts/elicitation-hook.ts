// claude-code-hook's Elicitation hook: Claude Code runs it as a command with the form on stdin
// ({hook_event_name:"Elicitation", mcp_server_name, message, mode, url, requested_schema}) and reads
// `hookSpecificOutput` {hookEventName, action, content} from its stdout (2.1.337's bundle: hYi, uoi).
// It thinks like a person would (answer.ts THINK_MS), then answers by the plan. A hook is a
// process of its own with no handle on the host's session: it cannot send a nested request.
// usage: node --import tsx elicitation-hook.ts  (stdin: the hook input)
import { formAnswer, THINK_MS } from "./answer.js";
import { runDriver, sleep } from "./driver-io.js";

type Json = Record<string, unknown>;

async function readStdin(): Promise<string> {
  let text = "";
  for await (const chunk of process.stdin) text += String(chunk);
  return text;
}

async function main(): Promise<void> {
  const input = JSON.parse(await readStdin()) as Json;
  if (input.hook_event_name !== "Elicitation") throw new Error(`not an Elicitation hook input: ${String(input.hook_event_name)}`);
  await sleep(THINK_MS);
  const answer = formAnswer({ mode: typeof input.mode === "string" ? input.mode : undefined, requestedSchema: input.requested_schema });
  process.stdout.write(`${JSON.stringify({ hookSpecificOutput: { hookEventName: "Elicitation", ...answer } })}\n`);
}

// exit 1 (runDriver) is a non-blocking hook error: the host goes on without this answer
runDriver("elicitation hook", main);
