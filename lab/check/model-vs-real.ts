// Is the `serial` model faithful? The ts1 client behind the lab's model of the Python 1.x loop,
// and the real Python SDK 2.3.0 client with its own inline dispatch (py-inline), run the same
// nested scenario. The same facts are read from both runs; every difference is named, and it is
// allowed only with a reason that says why it is not a difference of ordering.
import { cancelledRequestId, isRequest } from "../history/frames.js";
import type { TimelineEvent, WireFrame } from "../history/timeline.js";
import { replyTo, resultsOf } from "./verify.js";

export interface StoryFacts {
  /** the nested reply is on the wire before the callback gives up */
  replyBeforeLimit: boolean;
  /** the callback gives up at its limit, and answers only then */
  nestedFails: boolean;
  /** the nested request's error code */
  errorCode: number | null;
  first: unknown;
  recovery: unknown;
  /** a notifications/cancelled names the nested request */
  cancelNotice: boolean;
  /** how the late reply ends: reported as an error, logged, or not seen */
  lateReply: "reported to onerror" | "dropped with a debug log" | "not seen";
}

export function storyFacts(run: { events: TimelineEvent[]; wire: WireFrame[] }): StoryFacts {
  const failed = run.events.find((e) => e.kind === "nested.failed");
  const elicit = run.wire.find((f) => f.from === "server" && isRequest(f.label) && f.label.method === "elicitation/create");
  const nested = run.wire.find((f) => elicit && f.index > elicit.index && f.from === "client" && isRequest(f.label) && f.label.method === "tools/list");
  const reply = nested && replyTo(run.wire, nested);
  const client = run.events.filter((e) => e.side === "client");
  const results = resultsOf(run.events);
  return {
    replyBeforeLimit: reply !== undefined && failed !== undefined && reply.t < failed.t,
    nestedFails: failed !== undefined,
    errorCode: typeof failed?.detail?.code === "number" ? failed.detail.code : null,
    first: results.first,
    recovery: results.recovery,
    cancelNotice: nested !== undefined && run.wire.some((f) => f.from === "client" && f.label.method === "notifications/cancelled" && cancelledRequestId(f.message) === nested.label.id),
    lateReply: client.some((e) => e.kind === "reply.late" || (e.kind === "sdk.error" && /unknown message ID/i.test(String(e.detail?.message))))
      ? "reported to onerror"
      : client.some((e) => e.kind === "note" && /dropping response/.test(String(e.detail?.sdkLog ?? "")))
        ? "dropped with a debug log"
        : "not seen",
  };
}

/** Differences that are each SDK's own reporting, not the ordering the model stands for. */
const ALLOWED: Partial<Record<keyof StoryFacts, string>> = {
  lateReply:
    "both drop the late reply; how they say so is each SDK's own choice (TS 1.32.2 protocol.js _onresponse calls onerror; Python 2.3.0 jsonrpc_dispatcher.py:678-681 logs at debug). The model keeps the TS SDK's reporting because it models only the loop.",
};

export interface ModelVerdict {
  ok: boolean;
  facts: { fact: keyof StoryFacts; model: unknown; real: unknown; same: boolean; allowed?: string }[];
}

export function compareModelWithReal(model: StoryFacts, real: StoryFacts): ModelVerdict {
  const facts = (Object.keys(model) as (keyof StoryFacts)[]).map((fact) => {
    const same = JSON.stringify(model[fact]) === JSON.stringify(real[fact]);
    const allowed = same ? undefined : ALLOWED[fact];
    return { fact, model: model[fact], real: real[fact], same, ...(allowed && { allowed }) };
  });
  return { ok: facts.every((f) => f.same || f.allowed !== undefined), facts };
}

export function renderModelVerdict(v: ModelVerdict): string {
  const lines = [`${v.ok ? "PASS" : "FAIL"} the serial model (ts1 under serial) against real code (py-inline: Python SDK 2.3.0, inline elicitation), nested:`];
  for (const f of v.facts) {
    const mark = f.same ? "same" : f.allowed ? "differs, allowed" : "DIFFERS";
    lines.push(`  ${mark.padEnd(16)} ${f.fact}: model ${JSON.stringify(f.model)} · real ${JSON.stringify(f.real)}`);
    if (f.allowed) lines.push(`                   why allowed: ${f.allowed}`);
  }
  return lines.join("\n");
}
