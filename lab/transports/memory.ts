// Opens a session's transport in memory: the calculate server in this process, linked to the
// client through observable receive loops.
import { createCalculateServer } from "../peers/ts1/calculate-server.js";
import { createLinkedPair } from "./linked.js";
import type { OpenTransport } from "../session/session.js";

export const openMemoryTransport: OpenTransport = async (recorder, options) => {
  const pair = createLinkedPair(recorder, options.dispatch, options.onDeadlock);
  const mcp = createCalculateServer();
  mcp.server.onerror = (error) => recorder.event("server", "sdk.error", { detail: { message: error.message } });
  await mcp.connect(pair.server);
  return {
    client: pair.client,
    close: async () => {
      await mcp.close();
      return {};
    },
  };
};
