// Two receive loops for a client, the lesson of notebook 04: each reads the frames from the
// server one at a time; they differ only in whether the loop waits for a request's handler.
import type { Peer } from "./peer.js";

/** Wrong: awaits each inbound request's handler before it reads the next frame. */
export async function wrongLoop(peer: Peer): Promise<void> {
  for await (const frame of peer.inbox) {
    if (frame.method !== undefined && frame.id !== undefined) {
      await peer.answer(frame); // nothing else is read until the handler returns
    } else if (frame.id !== undefined) peer.settle(frame); // a reply to one of our requests
  }
}

/** Right: starts each inbound request's handler and reads on at once. */
export async function rightLoop(peer: Peer): Promise<void> {
  for await (const frame of peer.inbox) {
    if (frame.method !== undefined && frame.id !== undefined) {
      void peer.answer(frame); // runs beside the loop; its reply is sent when it is done
    } else if (frame.id !== undefined) peer.settle(frame); // read even while a handler waits
  }
}
