// Why the lab's v1-style transports (lab/transports/linked.ts, lab/transports/stdio.ts) need no
// adapter to carry the TypeScript SDK v2, checked by the compiler on every `tsc --noEmit`.
//
// v1 (@modelcontextprotocol/sdk 1.32.2, dist/esm/shared/transport.d.ts:30-98):
//   TransportSendOptions { relatedRequestId?, resumptionToken?, onresumptiontoken? }
//   Transport { start, send(message, options?), close, onclose?, onerror?,
//               onmessage?(message, extra?), sessionId?, setProtocolVersion? }
// v2 (@modelcontextprotocol/client 2.4.0, dist/index-BCNZS4Ap.d.mts:1662-1776; the server
// package declares the same at dist/mcp-BCJHyo7l.d.mts:1873-1987) adds, all optional:
//   TransportSendOptions.requestSignal (:1687), .onRequestStreamEnd (:1696), .headers (:1708)
//   Transport.hasPerRequestStream (:1742), Transport.setSupportedProtocolVersions (:1775)
// Both directions are assignable (below). At run time the additions are optional reads:
// Protocol.connect calls `setSupportedProtocolVersions?.()` (client src-CeKsbNLO.mjs:5864), a
// modern request gets a per-request AbortController only when `hasPerRequestStream === true`
// (:6180), and send's extra options are ignored by a transport that does not read them (:6256).
//
// What differs in BEHAVIOUR is on the v2 side, and the lab works with it as is:
// - Client 'auto' and pinned modes probe `server/discover` before Protocol.connect. On a non-SDK
//   transport they probe IN PLACE: ProbeWindow takes over onmessage/onerror/onclose, starts the
//   transport, then patches `transport.start` on the instance with a one-shot pass-through
//   (public-CvV4ZHkX.mjs:2237-2355). Only the SDK's own StdioClientTransport, recognised by its
//   stderr/pid accessors and an own `_dispose` on its prototype, probes on a spawned sibling
//   (:2217, :2501, :2519).
// - The v2 server serves 2026-07-28 only through a serving entry: a plain McpServer.connect()
//   leaves the instance unbound and its legacy codec answers server/discover with -32601
//   (server src-DdvbAHrR.mjs:6496), even when supportedProtocolVersions names 2026-07-28
//   (lab/demos/ts2-interop.ts runs it).
//   serveStdio(factory, { transport }) takes any Transport (stdio.d.mts:30) and binds an instance
//   per era (stdio.mjs:400-405): lab/peers/ts2/serve.ts.
import type { Transport as V2ClientTransport } from "@modelcontextprotocol/client";
import type { Transport as V1Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { Transport as V2ServerTransport } from "@modelcontextprotocol/server";

type Assignable<From, To> = [From] extends [To] ? true : false;
const check = <T extends true>(): T => true as T;

// Checked by the compiler only (tsc --noEmit): nothing imports this file at run time.
check<Assignable<V1Transport, V2ClientTransport>>();
check<Assignable<V1Transport, V2ServerTransport>>();
check<Assignable<V2ClientTransport, V1Transport>>();
check<Assignable<V2ServerTransport, V1Transport>>();
