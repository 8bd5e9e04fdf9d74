// Stdio, whichever side is a process. An in-process client gets its server peer's child
// (lab/transports/stdio.ts). A client driver in another process talks MCP on its own stdin and
// stdout: the lab plays the server end there, recording every frame itself (never taking the
// driver's word for the wire), with the server peer in this process; or, when the server is a
// child too, relays between the two children and records each frame as it passes.
import { readFileSync, writeFileSync } from "node:fs";
import type { Recorder } from "../history/timeline.js";
import type { InProcessServer } from "../peers/types.js";
import { readDriverEvents } from "../peers/read-driver-events.js";
import { sessionPlan } from "../session/scenario.js";
import { CALL_TIMEOUT_MS, type OpenTransport, type Pairing } from "../session/session.js";
import { ObservedTransport } from "./observed.js";
import { childEventsFile, releaseScratch } from "../scratch.js";
import { openStdioTransport, StdioCarrier } from "./stdio.js";

export const openProcessTransport: OpenTransport = async (recorder, pairing) => {
  const driver = pairing.client.driver;
  if (driver.kind === "in-process") return openStdioTransport(recorder, pairing);
  await driver.prepare?.();
  const planFile = childEventsFile("plan.json");
  const eventsFile = childEventsFile("events.jsonl");
  writeFileSync(planFile, JSON.stringify(sessionPlan(pairing.scenario, CALL_TIMEOUT_MS)));
  const clientSide = new StdioCarrier(driver.command(planFile, eventsFile), "server", recorder, true);
  await clientSide.child.spawned();
  const serverSide = await connectServer(recorder, pairing, clientSide);
  return {
    driverDone: clientSide.child.waitExit(),
    close: async () => {
      const driverEvidence = await clientSide.child.close();
      const serverEvidence = await serverSide.close();
      let sessionErrors: string[] = [];
      try {
        sessionErrors = readDriverEvents(readFileSync(eventsFile, "utf8"), recorder, eventsFile);
      } catch (error) {
        sessionErrors = [`the driver wrote no events file (${(error as Error).message})`];
      }
      releaseScratch(planFile);
      releaseScratch(eventsFile);
      return { ...serverEvidence, driver: driverEvidence, driverEventsFile: eventsFile, sessionErrors };
    },
  };
};

async function connectServer(
  recorder: Recorder,
  pairing: Pairing,
  clientSide: StdioCarrier,
): Promise<{ close(): Promise<Record<string, unknown>> }> {
  const { server } = pairing;
  if (server.inProcess) {
    const peer: InProcessServer = server.inProcess(recorder);
    await peer.connect(new ObservedTransport("server", clientSide, recorder));
    return { close: async () => (await peer.close(), {}) };
  }
  if (!server.child) throw new Error(`server peer ${server.name} can run neither here nor as a child`);
  await server.child.prepare?.();
  // Relay: both peers are children; the lab records each frame once, as it passes.
  const serverSide = new StdioCarrier(server.child.command({ eventsFile: undefined, faults: [] }), "client", recorder);
  await serverSide.child.spawned();
  clientSide.onmessage = (message) => {
    recorder.received("client", message);
    void serverSide.send(message).catch(() => undefined);
  };
  serverSide.onmessage = (message) => {
    recorder.received("server", message);
    void clientSide.send(message).catch(() => undefined);
  };
  // the driver ending its session ends the server's stdin too
  clientSide.onclose = () => void serverSide.close();
  return { close: async () => ({ server: await serverSide.child.close() }) };
}
