// The ts1 stdio child as a session host (lab/transports/hosts.md): started once per lab process,
// it serves each session the lab asks for on that session's own three connections, so a stdio run
// of the calculate server does not pay for a Node start and the SDK's load. A session ends as the
// fresh child does: its client ends stdin, the server closes, its events file is written, exit 0.
// Only plain sessions come here (`--events` at most): a fault, --once or --http is a fresh process.
import { connect, type Socket } from "node:net";
import type { Session, SessionIo } from "./child-session.js";

interface Request {
  id: number;
  argv?: string[];
  socket?: string;
  kill?: string;
}

type Serve = (argv: readonly string[], io: SessionIo) => Promise<Session>;

/** A session the host serves: its connections, its server once started, and the signal that stopped it. */
interface Entry {
  sockets: Socket[];
  session?: Session;
  stopped?: string;
}

function reply(message: object): void {
  process.stdout.write(`${JSON.stringify(message)}\n`);
}

/** Opens the session's connection for `role`, announced by its first line. */
function open(path: string, id: number, role: string): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(path, () => {
      socket.off("error", reject);
      socket.write(`${id} ${role}\n`);
      resolve(socket);
    });
    socket.once("error", reject);
  });
}

/** Ends a connection and resolves once it is flushed and closed (or failed). */
function finish(socket: Socket): Promise<void> {
  return new Promise((resolve) => {
    if (socket.destroyed) return resolve();
    socket.once("close", () => resolve());
    socket.end();
  });
}

async function run(request: Request, serve: Serve, sessions: Map<number, Entry>): Promise<void> {
  const { id } = request;
  const entry: Entry = { sockets: [] };
  sessions.set(id, entry);
  try {
    entry.sockets = await Promise.all(["stdin", "stdout", "stderr"].map((role) => open(request.socket!, id, role)));
  } catch (error) {
    sessions.delete(id);
    for (const socket of entry.sockets) socket.destroy();
    return reply({ id, error: `could not connect: ${String(error)}` });
  }
  const [stdin, stdout, stderr] = entry.sockets as [Socket, Socket, Socket];
  stdout.on("error", () => undefined);
  stderr.on("error", () => undefined);
  reply({ id, pid: process.pid, hosted: true });
  let code: number;
  try {
    entry.session = await serve(request.argv ?? [], { stdin, stdout, stderr });
    // stopped while its server was starting: the kill found no server to close
    if (entry.stopped) return entry.session.abandon();
    code = await entry.session.ended;
  } catch (error) {
    stderr.write(`child-server: failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    code = 1;
  }
  if (entry.stopped) return; // the kill's reply has been sent
  await Promise.all([finish(stdout), finish(stderr)]);
  stdin.destroy();
  sessions.delete(id);
  reply({ id, exit: code, signal: null });
}

/** Runs sessions until the lab ends this host's stdin. */
export function hostSessions(serve: Serve): void {
  const sessions = new Map<number, Entry>();
  let buffer = "";
  process.stdin.setEncoding("utf8");
  process.stdin.on("data", (chunk: string) => {
    buffer += chunk;
    for (let end = buffer.indexOf("\n"); end >= 0; end = buffer.indexOf("\n")) {
      const line = buffer.slice(0, end).trim();
      buffer = buffer.slice(end + 1);
      if (!line) continue;
      const request = JSON.parse(line) as Request;
      if (request.kill !== undefined) {
        const entry = sessions.get(request.id);
        if (!entry || entry.stopped) continue;
        // stopped as the signal would stop a process: its connections cut, nothing written after
        entry.stopped = request.kill;
        for (const socket of entry.sockets) socket.destroy();
        entry.session?.abandon();
        sessions.delete(request.id);
        reply({ id: request.id, exit: null, signal: request.kill });
      } else void run(request, serve, sessions);
    }
  });
  // the lab is gone: every session ends with it
  process.stdin.once("end", () => process.exit(0));
}
