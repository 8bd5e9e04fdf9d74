// Parses the lab's command line. Bad usage is a UsageError: the CLI prints it and exits 2.
import { existsSync, statSync } from "node:fs";
import { resolve } from "node:path";
import { DISPATCH_MODELS, type DispatchModel, type OnDeadlock } from "../history/receive-loop.js";

export class UsageError extends Error {}

export interface RunArgs {
  target: string;
  dispatch: DispatchModel[];
  transports: string[];
  repeat: number;
  json: boolean;
  /** --junit FILE: the checks as JUnit XML, one test case per check */
  junit: string | undefined;
  /** all: every run's swimlane and checks, not one line per run */
  verbose: boolean;
  onDeadlock: OnDeadlock;
  outDir: string | undefined;
  expectedDir: string | undefined;
  /** client and server peers by name; undefined: ts1 for one scenario, every peer for `all` */
  clients: string[] | undefined;
  servers: string[] | undefined;
  rest: string[];
}

export const USAGE = `usage: tsx lab/run.ts <scenario|all|list> [options]
       tsx lab/run.ts contract [case|group] [--server ...] [...]   the form contract and the form vocabulary
       tsx lab/run.ts vocabulary                                   which layer refuses each form answer, per server peer
       tsx lab/run.ts card [--client ...] [--server ...]           the report card: every client peer against every server peer
       tsx lab/run.ts notebooks [--check]                          rewrite or check notebooks/
       tsx lab/run.ts peers                                        every peer, its version, whether it can run here
       tsx lab/run.ts clean --keep N [--out DIR]                   remove all but the N newest invocations from the store
       tsx lab/run.ts mutate DIR                                   every value of every expected file the stored runs used must matter
       tsx lab/run.ts against --tool NAME -- <your server>          every client peer against your own stdio server: which deadlock
       tsx lab/run.ts serve                                        the server with the probe tools on stdio, for any MCP client
       tsx lab/run.ts bench [--strict]                             benchmarks, each goal met or MISSED
       tsx lab/run.ts soak [--runs N] [--transport ...] [--load K] the matrix N times, optionally under load
       tsx lab/run.ts <command> --help                             what a command takes

options:
  --client <name>[,<name>]|all   client peers (default ts1; for all: every peer); see \`peers\`
  --server <name>[,<name>]|all   server peers (default ts1; for all: every peer)
  --dispatch sdk|serial|both     receive-loop model on the client (default both)
                                 sdk: the TypeScript SDK as shipped
                                 serial: a model of the MCP Python SDK 1.29.0 client loop
  --transport <name>|all|both    memory, stdio or http; all: every one (default);
                                 both: memory and stdio (what it always meant)
  --repeat N                     fresh sessions per case (default 2)
  --on-deadlock wait|break       serial only: let the SDK timeout fire, or fail the nested
                                 request the moment the cycle is detected (default wait;
                                 break alone means --dispatch serial; with sdk it is refused)
  --json                         print the reports as JSON instead of swimlanes
  --junit FILE                   also write every check as JUnit XML (one test case per check)
  --verbose                      all: every run's swimlane and checks (default: one line per run)
  --out DIR                      the store's root (default run-output/): each invocation writes
                                 to DIR/<UTC time>-<command>/, DIR/latest points at the newest,
                                 DIR/index.html lists them; nothing is replaced (see \`clean\`)
  --expected DIR                 read expectations from DIR instead of expected/
                                 (contract: DIR/contract/); output still goes to the store
  --option=value                 the same as --option value, for every option`;

export function valueOf(argv: string[], i: number, flag: string): string {
  const value = argv[i + 1];
  if (value === undefined || value === "" || value.startsWith("--")) throw new UsageError(`${flag} needs a value`);
  return value;
}

/** Options that take no value: `--json=yes` is refused rather than read as a scenario name. */
const SWITCHES = ["--json", "--verbose", "--check", "--strict", "--help", "-h"];

/** `--option=value` is the same as `--option value`, for every option of every command. */
export function splitEquals(argv: readonly string[]): string[] {
  return argv.flatMap((arg) => {
    const eq = arg.indexOf("=");
    if (!arg.startsWith("--") || eq < 3) return [arg];
    const flag = arg.slice(0, eq);
    if (SWITCHES.includes(flag)) throw new UsageError(`${flag} takes no value (got '${arg}')`);
    return [flag, arg.slice(eq + 1)];
  });
}

/** A whole number written in digits only: '1e1', '2.0', '0x10', '+3' and '' are refused. */
export function wholeNumber(flag: string, value: string, min: number, max: number): number {
  const n = /^[0-9]+$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(n) || n < min || n > max) throw new UsageError(`${flag} must be a whole number from ${min} to ${max}, not '${value}'`);
  return n;
}

/** An existing folder, resolved; a missing path or a file is a usage error naming it. */
export function existingFolder(flag: string, path: string): string {
  if (!existsSync(path)) throw new UsageError(`${flag}: no folder ${path}`);
  if (!statSync(path).isDirectory()) throw new UsageError(`${flag}: ${path} is not a folder`);
  return resolve(path);
}

export function parseArgs(argv: string[], transportNames: string[]): RunArgs {
  argv = splitEquals(argv);
  const args: RunArgs = {
    target: "",
    dispatch: [...DISPATCH_MODELS],
    transports: [...transportNames],
    repeat: 2,
    json: false,
    junit: undefined,
    verbose: false,
    onDeadlock: "wait",
    outDir: undefined,
    expectedDir: undefined,
    clients: undefined,
    servers: undefined,
    rest: [],
  };
  let dispatchGiven = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    switch (arg) {
      case "--dispatch": {
        const v = valueOf(argv, i++, arg);
        dispatchGiven = true;
        if (v === "both") args.dispatch = [...DISPATCH_MODELS];
        else if ((DISPATCH_MODELS as readonly string[]).includes(v)) args.dispatch = [v as DispatchModel];
        else throw new UsageError(`--dispatch must be sdk, serial or both, not '${v}'`);
        break;
      }
      case "--transport": {
        const v = valueOf(argv, i++, arg);
        if (v === "all") args.transports = [...transportNames];
        else if (v === "both") args.transports = transportNames.filter((t) => t === "memory" || t === "stdio");
        else if (transportNames.includes(v)) args.transports = [v];
        else throw new UsageError(`--transport must be ${transportNames.join(", ")}, all or both, not '${v}'`);
        break;
      }
      case "--repeat": {
        args.repeat = wholeNumber(arg, valueOf(argv, i++, arg), 1, 100);
        break;
      }
      case "--on-deadlock": {
        const v = valueOf(argv, i++, arg);
        if (v !== "wait" && v !== "break") throw new UsageError(`--on-deadlock must be wait or break, not '${v}'`);
        args.onDeadlock = v;
        break;
      }
      case "--client":
      case "--server": {
        const value = valueOf(argv, i++, arg);
        const names = value.split(",").map((n) => n.trim());
        if (names.some((n) => n === "")) throw new UsageError(`${arg} takes peer names separated by commas, with none empty (got '${value}'); see \`peers\``);
        if (arg === "--client") args.clients = names;
        else args.servers = names;
        break;
      }
      case "--json":
        args.json = true;
        break;
      case "--verbose":
        args.verbose = true;
        break;
      case "--out":
        args.outDir = valueOf(argv, i++, arg);
        break;
      case "--junit":
        args.junit = valueOf(argv, i++, arg);
        break;
      case "--expected": {
        args.expectedDir = existingFolder(arg, valueOf(argv, i++, arg));
        break;
      }
      default:
        if (arg.startsWith("-")) args.rest.push(arg);
        else if (!args.target) args.target = arg;
        else throw new UsageError(`unexpected argument '${arg}'`);
    }
  }
  if (!args.target) throw new UsageError("name a scenario, or all, list or bench");
  // Only the serial loop can deadlock, so only it has a deadlock to break.
  if (args.onDeadlock === "break") {
    if (!dispatchGiven) args.dispatch = ["serial"];
    else if (args.dispatch.includes("sdk")) throw new UsageError(`--on-deadlock break applies to the serial loop only: the sdk loop cannot deadlock, so there is nothing to break (use --dispatch serial)`);
  }
  return args;
}
