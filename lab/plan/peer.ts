// What a peer is: an SDK's client or server behind one small interface, so adding an SDK is
// writing one driver. A client driver executes a session plan (lab/plan/behaviour.ts), in this
// process over a Transport the lab hands it, or as a program in another process that talks MCP
// on its stdin/stdout and writes its events to a file the lab names. A server peer runs in this
// process (connected to a Transport), as a stdio child, or both.
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { LoopModel } from "../history/receive-loop.js";
import type { Recorder } from "../history/timeline.js";
import type { Scenario } from "./scenario.js";

/** A program to start, with its arguments and any environment it needs beyond the lab's. */
export interface ChildCommand {
  command: string;
  args: readonly string[];
  env?: Record<string, string>;
  /** "python": `command` is a venv's python and args are `[-B] script.py ...`; the lab may run it
   *  as a fork of a warm interpreter of that python (lab/transports/forked.ts) */
  fork?: "python";
  /** A driver that can stay up: started once as `command` + `host.args` (its environment as `env`),
   *  it runs this session as one of many, with `host.argv` in place of `args`: the session-host
   *  protocol of lab/transports/hosts.md. Absent, or LAB_FRESH=1: a fresh process per session. */
  host?: { args: readonly string[]; argv: readonly string[] };
}

/** One package a peer's label names: the version the project pins and the one installed, each with
 *  the file it was read from (lab/peers/installed.ts reads them, once, when the label is first shown). */
export interface PackageVersion {
  /** as its ecosystem names it: mcp, @ai-sdk/mcp, rmcp, io.modelcontextprotocol:kotlin-sdk-client-jvm */
  package: string;
  /** undefined: the pin file does not name it */
  pinned: string | undefined;
  pinnedIn: string;
  /** undefined: not installed or not built (the peer is then unavailable) */
  installed: string | undefined;
  installedIn: string;
  /** what the label says in place of a version it cannot read: "not installed", "not built" */
  absent: string;
  /** the registry that serves it, where the lab asks for its newest release (lab/peers/latest.ts) */
  registry?: PackageRegistry;
}

/** The registries the peers' packages come from. */
export type PackageRegistry = "pypi" | "npm" | "go" | "crates" | "maven";

/** A peer's label, its versions filled from the install when first shown (lab/peers/installed.ts). An
 *  object, not text, so that a peer built by spreading another's fields reads nothing at import. */
export interface SdkLabel {
  readonly text: string;
  /** the packages the label names, pinned and installed */
  versions(): readonly PackageVersion[];
}

/** The label as shown; a plain string is a toy's own words. */
export const sdkText = (sdk: SdkLabel | string): string => (typeof sdk === "string" ? sdk : sdk.text);

export interface InProcessClientDriver {
  kind: "in-process";
  /** loads what `run` needs (its SDK), once; runSession awaits it before a session begins, so the
   *  CLI's `list` or `peers` never pays for it */
  load?(): Promise<void>;
  /** Runs the whole session over `transport`; records its side of the story on `recorder`. */
  run(scenario: Scenario, transport: Transport, recorder: Recorder): Promise<void>;
}

export interface ProcessClientDriver {
  kind: "process";
  /** The driver program for one session: it reads the plan file and writes the events file. */
  command(planFile: string, eventsFile: string): ChildCommand;
  /** The same program over Streamable HTTP: it connects with its SDK's own HTTP client to `url`, where the lab
   *  serves the server peer (lab/transports/process-http.ts). Absent: the driver has no HTTP mode. */
  http?(planFile: string, eventsFile: string, url: string): ChildCommand;
  /** Once before the first session (e.g. the set-up check), never inside a timeline. */
  prepare?(): Promise<void>;
  /** the runtime the program runs on, as its binary says (`node --version`); undefined: not built */
  runsOn?(): string | undefined;
}

export interface ClientPeer {
  name: string;
  /** the SDK and version, as shown in run headers and the card (sdkText): read from the install */
  sdk: SdkLabel | string;
  /** receive-loop models this client can run under: `sdk` is always "as shipped";
   *  `serial` is the lab's model, applied at the transport boundary of an in-process client */
  loops: readonly LoopModel[];
  /** what the peer is, in one line (says plainly when a loop is a model) */
  meaning: string;
  /** set when this client is NOT its SDK as shipped: what the lab changed (an option forced) */
  reconfigured?: string;
  /** the protocol era the client asks for */
  era: "2025-11-25" | "auto" | "2026-07-28";
  /** undefined when it can run here, else why not */
  unavailable(): string | undefined;
  driver: InProcessClientDriver | ProcessClientDriver;
}

/** A server peer running in this process. */
export interface InProcessServer {
  connect(transport: Transport): Promise<void>;
  close(): Promise<void>;
}

export interface ServerChild {
  /** Builds or checks what the child needs, once, before the first session. */
  prepare?(): Promise<void>;
  command(options: { eventsFile: string | undefined; faults: readonly string[] }): ChildCommand;
  /** the child records its own side and writes it to `eventsFile` */
  writesEvents: boolean;
}

/**
 * A server that speaks Streamable HTTP in a child of its own: it listens on 127.0.0.1 (`port` 0:
 * a port the OS chooses), prints {"port":N} as its first and only stdout line, serves one session
 * at the path /mcp, and exits when its stdin ends. Its lifecycle is a stdio child's.
 */
export interface ServerHttpChild {
  prepare?(): Promise<void>;
  command(options: { eventsFile: string | undefined; faults: readonly string[]; port: number }): ChildCommand;
  writesEvents: boolean;
}

export interface ServerPeer {
  name: string;
  sdk: SdkLabel | string;
  meaning: string;
  unavailable(): string | undefined;
  /** in this process: `onError` receives the SDK's onerror reports */
  inProcess?(recorder: Recorder): InProcessServer;
  /** loads what `inProcess` needs (its SDK), once; runSession awaits it before a session begins, so
   *  `peers` and `list` never pay for it and connect() can still attach synchronously */
  load?(): Promise<void>;
  child?: ServerChild;
  /** over Streamable HTTP, in a child (lab/transports/http.ts) */
  http?: ServerHttpChild;
}
