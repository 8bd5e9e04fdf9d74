// Which layer refused an answer, read from a run: the words the vocabulary expectations, the
// contract table and the findings tables use (issue #16). One function, returning data.

export const LAYERS = ["none", "client SDK", "server SDK", "app", "server SDK, before sending"] as const;
export type Layer = (typeof LAYERS)[number];

type Reply = { error?: { code?: unknown } } | null | undefined;

/**
 * From the tool's result and the client's replies to elicitation/create ({result}, {error}, null):
 * - "client SDK": the client answered the elicitation/create with a JSON-RPC error;
 * - "server SDK, before sending": the server's SDK refused to send it at all (not_sent);
 * - "server SDK" / "app": the server's SDK check or the app's own check refused the content;
 * - "none": the answer was taken (accepted, or calculated for the calculate tool).
 * Undefined where no answer was refused or taken (declined, cancelled, unsupported, ...).
 */
export function layerOf(result: unknown, replies: readonly unknown[]): Layer | undefined {
  const r = (result ?? {}) as Record<string, unknown>;
  if ((replies as Reply[]).some((reply) => reply?.error !== undefined)) return "client SDK";
  if (r.status === "not_sent") return "server SDK, before sending";
  if (r.rejectedBy === "sdk") return "server SDK";
  if (r.rejectedBy === "app") return "app";
  if (r.status === "accepted" || r.status === "calculated") return "none";
  return undefined;
}
