// Load the lab puts on its own machine: K worker threads that each keep one core busy with
// arithmetic. Every worker is bounded in time twice over: it stops by itself when its lease
// runs out (the lab renews the lease while it wants the load, so a lab that stops renewing,
// stuck or gone, lets go of the cores within LEASE_MS), and never outlives `boundMs`. The lab
// stops them by their own handles (Worker.terminate()), never by name.
import { Worker } from "node:worker_threads";
import { within } from "../transports/child-process.js";

/** A worker that is not renewed for this long stops by itself. */
export const LEASE_MS = 5_000;
/** How long stop() waits for each worker to exit after terminate(). */
export const STOP_WAIT_MS = 5_000;

// Plain CommonJS, evaluated as the worker's script: no loader, no imports from the lab.
const BUSY_LOOP = `
const { workerData, parentPort } = require("node:worker_threads");
const lease = new BigInt64Array(workerData.lease);
const hardDeadline = workerData.hardDeadline;
let x = 1;
let released = false;
parentPort.postMessage("busy");
for (;;) {
  for (let i = 0; i < 200000; i++) x = (x * 1103515245 + 12345) % 2147483648;
  const now = Date.now();
  const until = Atomics.load(lease, 0);
  // a lease of 0 is stop() letting go: the worker was stopped, it did not stop by itself
  if (until === 0n) { released = true; break; }
  if (now > hardDeadline || BigInt(now) > until) break;
}
parentPort.postMessage({ stoppedByItself: !released, x });
`;

export interface LoadReport {
  workers: number;
  /** workers that had already stopped by themselves (lease or bound ran out) when stop() came */
  stoppedByThemselves: number;
  /** workers that did not exit within STOP_WAIT_MS of terminate() */
  stuck: number;
}

export interface Load {
  readonly workers: number;
  /** the thread ids of the workers, for the reader and for tests */
  readonly threadIds: readonly number[];
  /** Resolves once every worker reported that its busy loop is running. */
  started(): Promise<void>;
  /** Resolves once every worker has exited (by itself, or after stop()). */
  exited(): Promise<void>;
  /** Terminates every worker by its handle and waits (bounded) for each to exit. */
  stop(): Promise<LoadReport>;
}

export interface LoadOptions {
  /** no worker outlives this, renewed or not */
  boundMs: number;
  leaseMs?: number;
  /** false: the lab never renews the lease (tests: a lab that stopped renewing) */
  renew?: boolean;
}

export function startLoad(count: number, options: LoadOptions): Load {
  const leaseMs = options.leaseMs ?? LEASE_MS;
  const lease = new BigInt64Array(new SharedArrayBuffer(8));
  const renew = () => Atomics.store(lease, 0, BigInt(Date.now() + leaseMs));
  renew();
  const hardDeadline = Date.now() + options.boundMs;
  const renewal = options.renew === false ? undefined : setInterval(renew, Math.max(50, Math.floor(leaseMs / 5)));
  renewal?.unref();

  const workers = Array.from({ length: count }, () => new Worker(BUSY_LOOP, { eval: true, workerData: { lease: lease.buffer, hardDeadline } }));
  const byThemselves = new Set<Worker>();
  const exited = workers.map((worker) => new Promise<void>((resolve) => worker.once("exit", () => resolve())));
  const busy = workers.map(
    (worker) =>
      new Promise<void>((resolve, reject) => {
        worker.on("message", (m: unknown) => {
          if (m === "busy") resolve();
          else if ((m as { stoppedByItself?: boolean }).stoppedByItself) byThemselves.add(worker);
        });
        worker.once("error", reject);
        worker.once("exit", () => reject(new Error("a load worker exited before it started")));
      }),
  );
  // A worker that fails to start must not become an unhandled rejection; started() reports it.
  for (const b of busy) b.catch(() => {});

  return {
    workers: count,
    threadIds: workers.map((w) => w.threadId),
    started: async () => {
      if (!(await within(Promise.all(busy), STOP_WAIT_MS))) throw new Error(`load workers did not start within ${STOP_WAIT_MS} ms`);
      await Promise.all(busy);
    },
    exited: async () => {
      await Promise.all(exited);
    },
    stop: async () => {
      clearInterval(renewal);
      // Nothing renews the lease any more; terminate() ends each worker now, by its handle.
      Atomics.store(lease, 0, 0n);
      let stuck = 0;
      await Promise.all(
        workers.map(async (worker, i) => {
          await worker.terminate();
          if (!(await within(exited[i]!, STOP_WAIT_MS))) stuck++;
        }),
      );
      return { workers: count, stoppedByThemselves: byThemselves.size, stuck };
    },
  };
}
