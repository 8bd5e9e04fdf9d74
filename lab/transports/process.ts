// Stdio, whichever side is a process. An in-process client gets its server peer's child
// (lab/transports/stdio.ts). A client driver in another process talks MCP on its own stdin and
// stdout: the lab plays the server end there, recording every frame itself (never taking the
// driver's word for the wire), with the server peer in this process; or, when the server is a
// child too, relays between the two children and records each frame as it passes.
import { readFileSync, writeFileSync } from "node:fs";
import { basename } from "node:path";
import type { Recorder } from "../history/timeline.js";
import type { ChildEvidence, DriverEventsEvidence } from "../plan/evidence.js";
import type { InProcessServer } from "../plan/peer.js";
import { readDriverEvents } from "../plan/read-driver-events.js";
import { sessionPlan } from "../plan/scenario.js";
import { CALL_TIMEOUT_MS } from "../plan/bounds.js";
import { type OpenTransport, type TransportPairing } from "../plan/session.js";
import { ObservedTransport } from "./observed.js";
import { childEventsFile, releaseScratch } from "../scratch.js";
import { openStdioTransport, spawnToInitialized, StdioCarrier } from "./stdio.js";

export const openProcessTransport: OpenTransport = async (recorder, pairing) => {
  const driver = pairing.client.driver;
  if (driver.kind === "in-process") return openStdioTransport(recorder, pairing);
  await driver.prepare?.();
  const { planFile, eventsFile } = planFiles(pairing);
  const clientSide = new StdioCarrier(driver.command(planFile, eventsFile), "server", recorder, true);
  await clientSide.child.spawned();
  const serverSide = await connectServer(recorder, pairing, clientSide);
  return {
    driverDone: clientSide.child.waitExit(),
    close: async () => {
      const driverEvidence = await clientSide.child.close();
      const spawnToInitializedMs = spawnToInitialized(recorder, clientSide.child);
      const serverEvidence = await serverSide.close();
      const driverEvents = takeDriverEvents(eventsFile, recorder);
      releaseScratch(planFile);
      const driver = { ...driverEvidence, ...(spawnToInitializedMs !== undefined && { spawnToInitializedMs }) };
      return { kind: "relay" as const, driver, driverEvents, ...(serverEvidence && { server: serverEvidence }) };
    },
  };
};

async function connectServer(
  recorder: Recorder,
  pairing: TransportPairing,
  clientSide: StdioCarrier,
): Promise<{ close(): Promise<ChildEvidence | undefined> }> {
  const { server } = pairing;
  if (server.inProcess) {
    const peer: InProcessServer = server.inProcess(recorder);
    await peer.connect(new ObservedTransport("server", clientSide, recorder));
    // the driver ended its session: end its input, as a stdio server exiting on that EOF would
    // (Kotlin's Client.close() waits for its read loop, which waits for exactly this)
    clientSide.onstdoutend = () => clientSide.child.endStdinAsPeer();
    return { close: async () => (await peer.close(), undefined) };
  }
  if (!server.child) throw new Error(`server peer ${server.name} can run neither here nor as a child`);
  await server.child.prepare?.();
  // Relay: both peers are children; the lab records each frame once, as it passes.
  const serverSide = new StdioCarrier(server.child.command({ eventsFile: undefined, faults: [] }), "client", recorder);
  await serverSide.child.spawned();
  // Each line goes on exactly as it was read: a parsed and re-serialized frame could differ in
  // its bytes (JSON.parse turns 3.0 into 3), and the peers must see what the other one sent.
  clientSide.online = (line, message) => {
    recorder.received("client", message);
    void serverSide.sendLine(`${line}\n`).catch(() => undefined);
  };
  serverSide.online = (line, message) => {
    recorder.received("server", message);
    void clientSide.sendLine(`${line}\n`).catch(() => undefined);
  };
  // the driver ending its session ends the server's stdin too; the server's exit then ends the
  // driver's input (its stdout's EOF), as when the client spawned that server itself
  clientSide.onclose = () => void serverSide.close();
  clientSide.onstdoutend = () => void serverSide.close();
  serverSide.onstdoutend = () => clientSide.child.endStdinAsPeer();
  return { close: async () => serverSide.child.close() };
}

/** The scratch files a driver process is handed: its plan, written now, and the events file it writes. */
export function planFiles(pairing: TransportPairing): { planFile: string; eventsFile: string } {
  const planFile = childEventsFile("plan.json");
  writeFileSync(planFile, JSON.stringify(sessionPlan(pairing.scenario, CALL_TIMEOUT_MS)));
  return { planFile, eventsFile: childEventsFile("events.jsonl") };
}

/** The most of a bad events file the run output keeps (its head: the lines problems name). */
export const EVENTS_KEEP_CHARS = 64 * 1024;

/** Reads, validates and merges the driver's events, then removes the scratch file: its evidence lives on in the run output. */
export function takeDriverEvents(file: string, recorder: Recorder): DriverEventsEvidence {
  const name = basename(file);
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    return { file: name, lines: 0, problems: [`the driver wrote no events file (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`] };
  } finally {
    releaseScratch(file);
  }
  const problems = readDriverEvents(text, recorder, name);
  const lines = text.split("\n").filter((l) => l.trim() !== "").length;
  if (problems.length === 0) return { file: name, lines, problems };
  return { file: name, lines, problems, text: text.slice(0, EVENTS_KEEP_CHARS), ...(text.length > EVENTS_KEEP_CHARS && { truncated: true }) };
}
