// What a TypeScript client driver keeps about its calls across their callbacks (lab/peers/
// behaviour.ts CallData): the current call's give-up limit, armed when its first form opens (so the
// form is open when the client gives up, however loaded the machine), and the callbacks still
// running for each call (awaitCallbacks waits for them, bounded by the caller).

/** Why the client gave up on a call (CallData.giveUpAfterMs); the SDK puts it in notifications/cancelled.
 *  Every driver uses these words (lab/peers/py/client.py too). */
export const GIVE_UP_REASON = "the client gave up on the call while its form was open";

export class CallBook {
  private readonly running = new Map<string, Set<Promise<void>>>();
  private giveUp: { controller: AbortController; ms: number; timer?: NodeJS.Timeout } | undefined;

  /** A call starts; with a give-up limit, the signal to pass to the SDK (armed later, by its first form). */
  start(giveUpAfterMs: number | undefined): AbortSignal | undefined {
    this.giveUp = giveUpAfterMs === undefined ? undefined : { controller: new AbortController(), ms: giveUpAfterMs };
    return this.giveUp?.controller.signal;
  }

  /** A callback of `call` enters: arms the give-up timer once; returns what to call when it leaves. */
  enter(call: string): () => void {
    if (this.giveUp && !this.giveUp.timer) {
      const { controller, ms } = this.giveUp;
      this.giveUp.timer = setTimeout(() => controller.abort(GIVE_UP_REASON), ms);
    }
    let done!: () => void;
    const settled = new Promise<void>((resolve) => (done = resolve));
    const open = this.running.get(call) ?? new Set();
    this.running.set(call, open.add(settled));
    return () => {
      open.delete(settled);
      done();
    };
  }

  /** The call returned or failed: its limit no longer applies. */
  end(): void {
    clearTimeout(this.giveUp?.timer);
    this.giveUp = undefined;
  }

  /** Settles when every callback of `call` still running has left. */
  settled(call: string): Promise<unknown> {
    return Promise.all(this.running.get(call) ?? []);
  }
}
