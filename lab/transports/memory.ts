// Opens a session's transport in memory: the server peer in this process, linked to the client
// through the lab's recording transport (the session wraps the client end with its loop model).
import { type OpenTransport } from "../plan/session.js";
import { linkedEnds } from "./linked.js";

export const openMemoryTransport: OpenTransport = async (recorder, pairing) => {
  if (!pairing.server.inProcess) throw new Error(`server peer ${pairing.server.name} cannot run in this process`);
  if (pairing.client.driver.kind !== "in-process") throw new Error(`client peer ${pairing.client.name} runs in its own process: use stdio`);
  const pair = linkedEnds(recorder);
  const server = pairing.server.inProcess(recorder);
  await server.connect(pair.server);
  return {
    client: pair.client,
    close: async () => {
      await server.close();
      return { kind: "memory" as const };
    },
  };
};
