// Streamable HTTP for a client driver in another process (its `http` command): the lab serves the server peer,
// in this process, behind its real HTTP server (http-server.ts) and records every frame on the server's side of
// the SDK's server transport, as it does on its side of a driver's pipe (process.ts): never the driver's word for
// the wire. The driver connects with its SDK's own HTTP client to the URL it is given and writes nothing on stdout.
// A server frame reaches the client one HTTP hop after the wire records it (over a pipe: one write), so on a very
// busy machine a reply the wire shows before a 0.5 s limit can still reach a concurrent client too late.
import type { Recorder } from "../history/timeline.js";
import { withBound } from "../plan/bounds.js";
import type { OpenTransport } from "../plan/session.js";
import { releaseScratch } from "../scratch.js";
import { StdioChild } from "./child-process.js";
import { DELETE_BOUND_MS, endpointUrl, GET_OPEN_BOUND_MS } from "./http.js";
import { serveStreamableHttp } from "./http-server.js";
import { isListening } from "./listening.js";
import { ObservedTransport } from "./observed.js";
import { planFiles, takeDriverEvents } from "./process.js";

export const openProcessHttp: OpenTransport = async (recorder, pairing) => {
  const { client, server } = pairing;
  const driver = client.driver;
  if (driver.kind !== "process" || !driver.http) throw new Error(`client ${client.name} has no HTTP driver`);
  if (!server.inProcess) throw new Error(`server ${server.name} cannot run in this process, where a process client's HTTP session is served`);
  await driver.prepare?.();
  const http = await serveStreamableHttp({ callsWaitForGetMs: GET_OPEN_BOUND_MS });
  const peer = server.inProcess(recorder);
  await peer.connect(new ObservedTransport("server", http.transport, recorder));
  const url = endpointUrl(http.port).href;
  const { planFile, eventsFile } = planFiles(pairing);
  const child = new StdioChild(driver.http(planFile, eventsFile, url), {
    line: (line) => child.bad(line, "a client driver over HTTP writes nothing on stdout"),
    badLine: (line, reason) => note(recorder, { stdoutError: line, reason }),
    // a driver ends its session by exiting: only another end is worth a note
    closed: (exitCode, signal) => void (exitCode !== 0 && note(recorder, { childExited: { exitCode, signal } })),
  });
  const stop = () => withBound(Promise.all([peer.close(), http.close()]), DELETE_BOUND_MS * 2, "stopping the lab's HTTP server");
  // a driver that cannot start leaves no server listening
  await child.spawned().catch(async (error: unknown) => (await stop().catch(() => undefined), releaseScratch(planFile), Promise.reject(error)));
  return {
    driverDone: child.waitExit(),
    close: async () => {
      const evidence = await child.close();
      // the driver's SDK ended the session (its DELETE) as it left; a driver that died did not
      await stop();
      const driverEvents = takeDriverEvents(eventsFile, recorder);
      releaseScratch(planFile);
      return { kind: "relay" as const, driver: evidence, driverEvents, served: { url, portReleased: !isListening(http.port) } };
    },
  };
};

const note = (recorder: Recorder, detail: Record<string, unknown>) => recorder.event("server", "note", { detail });
