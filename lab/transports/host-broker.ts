// One set of hosts for several lab processes (npm test's groups, tests/support/parallel.ts): each
// process would otherwise start its own warm interpreter per venv and its own JVM per driver. A lab
// process with LAB_HOST_BROKER set connects here instead of spawning a host (host-control.ts): its
// first line names the host it wants, and from then on the broker relays the control protocol of
// lab/transports/hosts.md both ways. Ids are not rewritten (the host puts a run's id in the first
// line of its three connections, which never pass through here: it connects to the asking process's
// socket itself), so each process sharing a host numbers its runs in a range the broker gives it.
// A host is shared only by processes that asked for the same command, arguments, environment and
// folder. The broker starts each host and stops it by its own handle; when a process's connection
// ends, its runs still going are stopped (a forked one by its pid, a hosted one by the host's kill).
import { rmSync } from "node:fs";
import { createServer, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eachLine, spawnHost, type HostControl, type HostStart } from "./host-control.js";

export interface HostBroker {
  /** the unix socket to give lab processes as LAB_HOST_BROKER */
  readonly path: string;
  /** hosts started so far (for the runner's summary) */
  readonly started: number;
  /** kills every host, ends every lab process's connection and closes the socket */
  stop(): void;
}

/** A run on a host: which connection asked for it, and how to stop it. */
interface Route {
  client: Client;
  pid?: number;
  hosted?: boolean;
}

interface Client {
  socket: Socket;
  host?: SharedHost;
  /** its runs on the host still going */
  ids: Set<number>;
}

/** Each process's range of run ids on a host: 1 to 999,999 above its base (ids stay below 2^31 for 2,000 processes). */
const RANGE = 1_000_000;

interface SharedHost {
  control: HostControl;
  scratch: string;
  routes: Map<number, Route>;
  clients: Set<Client>;
  /** processes that have asked for this host so far: the next one's range */
  joined: number;
  /** what the host wrote on its stdout that was no reply, told when it ends */
  stray: string;
}

export function startHostBroker(): Promise<HostBroker> {
  const path = join(tmpdir(), `lab-host-broker-${process.pid}.sock`);
  rmSync(path, { force: true });
  const hosts = new Map<string, SharedHost>();
  let started = 0;

  const write = (socket: Socket, value: object) => void (socket.writable && socket.write(`${JSON.stringify(value)}\n`));

  function hostFor(start: HostStart): SharedHost {
    const key = JSON.stringify([start.command, start.args, start.env, start.cwd]);
    const known = hosts.get(key);
    if (known) return known;
    const scratch = `${path}.${++started}.d`;
    const gone = (reason: string) => {
      if (hosts.get(key) === host) hosts.delete(key);
      rmSync(scratch, { recursive: true, force: true });
      for (const client of host.clients) write(client.socket, { ended: `${reason}${host.stray}` });
      host.clients.clear();
      host.routes.clear();
    };
    const relay = (line: string) => {
      let reply: { id?: number; pid?: number; hosted?: boolean; exit?: unknown; error?: unknown };
      try {
        reply = JSON.parse(line) as typeof reply;
      } catch {
        host.stray = `${host.stray}\n[broker: not a control reply on the host's stdout: ${line.slice(0, 200)}]`.slice(-2000);
        return;
      }
      const route = reply.id === undefined ? undefined : host.routes.get(reply.id);
      if (!route) return;
      if (reply.pid !== undefined) Object.assign(route, { pid: reply.pid, hosted: reply.hosted === true });
      if ("exit" in reply || "error" in reply) {
        host.routes.delete(reply.id!);
        route.client.ids.delete(reply.id!);
      }
      write(route.client.socket, reply);
    };
    const host: SharedHost = { control: spawnHost(start, scratch, { reply: relay, ended: gone }), scratch, routes: new Map(), clients: new Set(), joined: 0, stray: "" };
    hosts.set(key, host);
    return host;
  }

  /** A line from a lab process: its first names the host, the rest are requests for it. */
  function request(client: Client, line: string): void {
    const message = JSON.parse(line) as { start?: HostStart; id?: number; kill?: string };
    if (message.start) {
      const host = (client.host = hostFor(message.start));
      host.clients.add(client);
      return write(client.socket, { host: host.control.pid ?? -1, ids: host.joined++ * RANGE });
    }
    const host = client.host;
    if (!host || typeof message.id !== "number") return;
    // a kill for a run this process did not start is not relayed; a run's id must be free on the host
    if (message.kill !== undefined) return void (client.ids.has(message.id) && host.control.send(message));
    if (host.routes.has(message.id)) return write(client.socket, { id: message.id, error: `id ${message.id} is in use on the shared host` });
    client.ids.add(message.id);
    host.routes.set(message.id, { client });
    host.control.send(message);
  }

  /** The lab process is gone or done with the host: its runs still going are stopped. */
  function closed(client: Client): void {
    const host = client.host;
    if (!host) return;
    host.clients.delete(client);
    for (const id of client.ids) {
      const route = host.routes.get(id);
      if (route?.hosted) host.control.send({ id, kill: "SIGKILL" });
      else if (route?.pid !== undefined) {
        try {
          process.kill(route.pid, "SIGKILL");
        } catch {
          // it ended meanwhile
        }
      }
    }
  }

  const connections = new Set<Socket>();
  const server = createServer((socket) => {
    connections.add(socket);
    const client: Client = { socket, ids: new Set() };
    socket.setEncoding("utf8");
    socket.on(
      "data",
      eachLine((line) => {
        try {
          request(client, line);
        } catch (error) {
          write(socket, { ended: `the broker could not read a request: ${(error as Error).message}` });
          socket.end();
        }
      }),
    );
    socket.on("error", () => undefined);
    socket.on("close", () => (connections.delete(socket), closed(client)));
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(path, () =>
      resolve({
        path,
        get started() {
          return started;
        },
        stop() {
          for (const host of hosts.values()) host.control.stop(), rmSync(host.scratch, { recursive: true, force: true });
          hosts.clear();
          for (const socket of connections) socket.destroy();
          server.close();
          rmSync(path, { force: true });
        },
      }),
    );
  });
}
