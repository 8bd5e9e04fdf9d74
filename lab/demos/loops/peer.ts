// A tiny JSON-RPC peer for the receive-loop demos (no SDK): frames over an in-process pipe,
// requests with a bounded wait, a handler per method. Which loop reads the frames is loops.ts's.

export interface Frame {
  jsonrpc: "2.0";
  id?: number;
  method?: string;
  params?: unknown;
  result?: unknown;
}
type Handler = (params: unknown) => Promise<unknown>;

/** How long a callback's nested request waits for its reply, as the lab's callbacks do. */
export const NESTED_LIMIT_MS = 500;
/** How long any other request waits: long enough never to decide the demo. */
export const CALL_LIMIT_MS = 10_000;

/** One direction of the pipe: frames in the order they were put, read one at a time. */
export class Pipe implements AsyncIterable<Frame> {
  private frames: Frame[] = [];
  private waiting: ((frame: Frame) => void) | undefined;
  put(frame: Frame): void {
    const reader = this.waiting;
    this.waiting = undefined;
    if (reader) reader(frame);
    else this.frames.push(frame);
  }
  async *[Symbol.asyncIterator](): AsyncIterator<Frame> {
    for (;;) yield this.frames.shift() ?? (await new Promise<Frame>((read) => (this.waiting = read)));
  }
}

export class Peer {
  private nextId = 1;
  private readonly pending = new Map<number, { method: string; done: (reply: Frame) => void }>();
  /** requests that gave up waiting, by id: their replies may still come */
  private readonly gaveUp = new Map<number, string>();
  handlers: Record<string, Handler> = {};
  constructor(
    readonly name: string,
    readonly inbox: Pipe,
    private readonly outbox: Pipe,
  ) {}

  say(line: string): void {
    console.log(`${this.name}: ${line}`);
  }

  send(frame: Frame): void {
    this.outbox.put(frame);
  }

  /** Sends a request; rejects when no reply was read within its limit. */
  request(method: string, params: unknown = {}, limitMs = CALL_LIMIT_MS): Promise<unknown> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        this.gaveUp.set(id, method);
        reject(new Error(`${method} #${id} timed out: no reply read within its limit`));
      }, limitMs);
      this.pending.set(id, { method, done: (reply) => (clearTimeout(timer), resolve(reply.result)) });
      this.send({ jsonrpc: "2.0", id, method, params });
    });
  }

  /** A reply was read: it resolves its request, or it came after the request gave up. */
  settle(reply: Frame): void {
    const waiting = this.pending.get(reply.id!);
    if (!waiting) return this.say(`reads the reply to ${this.gaveUp.get(reply.id!) ?? "?"} #${String(reply.id)} only now, after its request gave up: dropped`);
    this.pending.delete(reply.id!);
    waiting.done(reply);
  }

  /** Runs the handler of an inbound request and sends its reply. */
  async answer(request: Frame): Promise<void> {
    const result = await this.handlers[request.method!]!(request.params);
    this.send({ jsonrpc: "2.0", id: request.id!, result });
  }
}

/** A client and a server joined by two pipes. */
export function pair(): { client: Peer; server: Peer } {
  const up = new Pipe();
  const down = new Pipe();
  return { client: new Peer("client", down, up), server: new Peer("server", up, down) };
}
