// The events a client driver in another process writes (one JSON object per line, to a file the
// lab names). The lab validates every line against this schema when it reads the file; a line
// that does not fit fails the run with the line's number and the reason.
import { z } from "zod";

const Detail = z.record(z.string(), z.unknown());

export const DriverEvent = z.strictObject({
  /** CLOCK_MONOTONIC in ns (Python time.monotonic_ns(), Node process.hrtime.bigint()) */
  t_ns: z.int().min(0),
  kind: z.enum([
    "call.started", // detail: {call}
    "callback.entered", // id, method "elicitation/create", detail: {n, call, embedded?} (embedded: an input request's key, no wire id)
    "callback.left", // id, method, detail: {n, call, action} or {n, call, error}
    "callback.aborted", // id, method, detail: {n, call, reason}: the callback saw its abort (Behaviour.watchAbort)
    "nested.sent", // method
    "nested.ok", // method
    "nested.failed", // method, detail: {code: number|null, message, type}
    "tool.result", // detail: {call, result, isError} or {call, error: {code, message}}
    "protocol.negotiated", // detail: {negotiation, protocolVersion: string|null, era: "legacy"|"modern"|null}
    "round.input_required", // method "tools/call", detail: {call, round, keys}: a result asked for input
    "round.answered", // method "tools/call", detail: {call, round, keys}: the retry carrying the answers
    "frame.dispatched", // id and/or method as the frame carries them: the driver's transport handed this inbound frame to the SDK (the lab links it to its wire frame)
    "note", // detail: anything the driver wants kept
  ]),
  id: z.union([z.int(), z.string()]).optional(),
  method: z.string().optional(),
  detail: Detail.optional(),
});
export type DriverEvent = z.infer<typeof DriverEvent>;
