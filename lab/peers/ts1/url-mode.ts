// URL mode: the server asks the client to send the user to a link instead of asking for a
// form. Whatever happens there stays out of band; the client only says whether the user agreed
// to go. Nothing real happens: the link points at a reserved domain (.invalid) and the lab
// reports the out-of-band part complete at once.
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { CalculateResult } from "../../plan/form.js";

export const URL_MESSAGE = "Synthetic: open this link to continue (nothing real happens there).";
/** What an accept means in URL mode (spec 2025-11-25, client/elicitation, URL mode). */
export const URL_ACCEPT_MEANING =
  "the user agreed to open the link; it does not say that anything there was done or finished, and nothing was computed";

export const urlFor = (elicitationId: string) => `https://lab.example.invalid/calculate/${elicitationId}`;

// elicitation ids must be unique within a server: counted per server instance
const asked = new WeakMap<Server, number>();

export async function askByUrl(server: Server, timeout: number): Promise<CalculateResult> {
  // Guarded like form mode: a client that did not declare url is never sent a URL request.
  // (elicitInput would refuse too, with a plain Error: server/index.js:344.)
  if (server.getClientCapabilities()?.elicitation?.url === undefined) {
    return { status: "unsupported", computed: false, value: null };
  }
  const n = (asked.get(server) ?? 0) + 1;
  asked.set(server, n);
  const elicitationId = `calculate-url-${n}`;
  const answer = await server.elicitInput(
    { mode: "url", message: URL_MESSAGE, url: urlFor(elicitationId), elicitationId },
    { timeout },
  );
  if (answer.action === "decline") return { status: "declined", computed: false, value: null };
  if (answer.action === "cancel") return { status: "cancelled", computed: false, value: null };
  // The out-of-band part would finish later (a browser, a webhook); in the lab nothing happens
  // there, so the server says at once that it is complete, with the same elicitationId.
  await server.createElicitationCompletionNotifier(elicitationId)();
  return { status: "url_accepted", computed: false, value: null, action: answer.action, meaning: URL_ACCEPT_MEANING };
}
