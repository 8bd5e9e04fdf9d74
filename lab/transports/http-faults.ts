// Fault switches of the lab's HTTP server (lab/transports/http-server.ts), shared by the server,
// the HTTP child and the tests. Kept apart, with no imports, so naming them loads no HTTP code
// (the child's V8 snapshot cannot hold node:http: it is loaded only when a child serves HTTP).

/**
 * http-500:     the POST that carries `tools/call` is answered 500 and never reaches the SDK.
 * session-lost: when that POST arrives, the session is closed first (as after an expiry or a
 *               restart); the SDK's own transport then answers 404 "Session not found".
 * sse-garbage:  the GET stream starts with one event whose data is not JSON-RPC.
 */
export const HTTP_FAULTS = ["http-500", "session-lost", "sse-garbage"] as const;
export type HttpFault = (typeof HTTP_FAULTS)[number];
export const SSE_GARBAGE_DATA = "lab fault: this SSE event is not JSON-RPC";
export const HTTP_500_BODY = "lab fault: internal error for tools/call";
