// The v2 Client with the multi-round-trip (2026-07-28) rounds made visible. 2.4.0 has no public
// callback for them: the driver (runInputRequiredDriver, core) only reports a round through the
// call's `onprogress`, which also puts a progressToken on the wire and gives no keys. The seam
// is Protocol's protected extension point `_resolveNonCompleteResult(decoded, flow)`: the Client
// overrides it to start the driver, and `flow.retry` is the one path every retry leg takes.
// Wrapping it here sees each round's keys at the moment the SDK handles them, and changes nothing
// the SDK sends. A history release (lab/peers/ts2/history-client.ts) passes its own Client and predicate.
import { Client, isInputRequiredResult } from "@modelcontextprotocol/client";

export type RoundEvent =
  | { kind: "input_required"; round: number; keys: string[]; method: string }
  | { kind: "answered"; round: number; keys: string[]; method: string };

type ResolveArgs = Parameters<Client["_resolveNonCompleteResult"]>;

const keysOf = (value: unknown): string[] =>
  value !== null && typeof value === "object" && !Array.isArray(value) ? Object.keys(value) : [];

/** The observing subclass of `Base` (the lab's Client, or a history release's), `isInputRequired` from the same package. */
export function roundObserving(Base: typeof Client, isInputRequired: typeof isInputRequiredResult) {
  return class RoundObservingClient extends Base {
    /** Called synchronously when a round starts (input_required decoded) and when it is answered (retry sent). */
    onRound: ((event: RoundEvent) => void) | undefined;

    protected override _resolveNonCompleteResult(decoded: ResolveArgs[0], flow: ResolveArgs[1]): Promise<unknown> {
      const method = flow.request.method;
      let round = 1;
      this.onRound?.({ kind: "input_required", round, keys: keysOf(decoded.inputRequests), method });
      const retry = flow.retry;
      const observed: ResolveArgs[1] = {
        ...flow,
        retry: async (params, legOptions) => {
          this.onRound?.({ kind: "answered", round, keys: keysOf(params?.["inputResponses"]), method });
          const result = await retry(params, legOptions);
          if (isInputRequired(result)) {
            round += 1;
            this.onRound?.({ kind: "input_required", round, keys: keysOf(result.inputRequests), method });
          }
          return result;
        },
      };
      return super._resolveNonCompleteResult(decoded, observed);
    }
  };
}

export const RoundObservingClient = roundObserving(Client, isInputRequiredResult);
export type RoundObservingClient = InstanceType<typeof RoundObservingClient>;
