// The lab's command line: tsx lab/run.ts <scenario|all|list|contract|vocabulary|card|...> [options]
// Exit 0 when every expectation holds, 1 when one fails, 2 on bad usage or when the run output
// cannot be written (one line, never a stack trace). Each command's modules load only when it
// runs, so `list`, `--help` and `peers` start about as fast as tsx itself (see `bench`).
import { parseCommand, renderHelp, UsageError, usageLine, type Parsed } from "./cli/args.js";
import { COMMAND_SPECS, commandSpec, RUN_SPEC } from "./cli/commands.js";
import { interruptHook } from "./cli/interrupt.js";

type Command = (args: Parsed) => Promise<number>;

/** Commands other than running scenarios, each parsed against its spec in lab/cli/commands.ts. */
const COMMANDS: Record<string, Command> = {
  list: async () => {
    const { SCENARIOS } = await import("../scenarios/index.js");
    for (const s of SCENARIOS) console.log(`${s.name.padEnd(16)} ${s.summary}`);
    return 0;
  },
  bench: async (args) => (await import("./bench/index.js")).main(args),
  notebooks: async (args) => (await import("./notebooks/index.js")).main(args),
  contract: async (args) => (await import("./cli/contract.js")).main(args),
  vocabulary: async (args) => (await import("./cli/vocabulary-table.js")).main(args),
  soak: async (args) => (await import("./soak/index.js")).main(args),
  card: async (args) => (await import("./cli/card.js")).main(args),
  peers: async (args) => (await import("./cli/peers.js")).main(args),
  setup: async (args) => (await import("./cli/setup.js")).main(args),
  serve: async (args) => (await import("./cli/serve.js")).main(args),
  docs: async (args) => (await import("./cli/docs.js")).main(args),
  mutate: async (args) => (await import("./cli/mutate.js")).main(args),
  against: async (args) => (await import("./cli/against.js")).main(args),
  clean: async (args) => (await import("./cli/store.js")).cleanMain(args),
  stack: async (args) => (await import("./cli/stack.js")).main(args),
  history: async (args) => (await import("./cli/history.js")).main(args),
  hosts: async (args) => (await import("./cli/hosts.js")).main(args),
};

/** The top-level --help: scenario runs' options, then every command in one line each. */
export function topUsage(): string {
  const first = (text: string) => text.split(/(?<=\.) /)[0]!;
  const width = Math.max(...COMMAND_SPECS.map((c) => c.name.length)) + 2;
  const commands = COMMAND_SPECS.map((c) => `  ${c.name.padEnd(width)}${first(c.summary)}`);
  return [renderHelp(RUN_SPEC).replace(usageLine(RUN_SPEC), "usage: tsx lab/run.ts <scenario|all> [options]\n       tsx lab/run.ts <command> [options]   (tsx lab/run.ts <command> --help: what it takes)"), "", "commands:", ...commands].join("\n");
}

/** Errors that are the user's input or the machine's state: one line, exit 2. */
async function oneLine(error: unknown): Promise<string | undefined> {
  const [{ ExpectationError }, { VersionMismatch }, { OutputError }] = await Promise.all([
    import("./check/expectations.js"),
    import("./peers/versions.js"),
    import("./cli/output.js"),
  ]);
  return error instanceof ExpectationError || error instanceof VersionMismatch || error instanceof OutputError ? error.message : undefined;
}

let runner: typeof import("./cli/run-scenarios.js") | undefined;
/** The scenario runner, loaded on first use; once loaded, main() reaches it without an await. */
export async function scenarioRunner(): Promise<typeof import("./cli/run-scenarios.js")> {
  return (runner ??= await import("./cli/run-scenarios.js"));
}

export async function main(argv: string[]): Promise<number> {
  try {
    const name = argv[0];
    const command = name !== undefined ? COMMANDS[name] : undefined;
    const spec = command ? commandSpec(name!)! : RUN_SPEC;
    const args = parseCommand(spec, command ? argv.slice(1) : argv);
    if (args.help) {
      console.log(command ? renderHelp(spec) : topUsage());
      return 0;
    }
    if (command) return await command(args);
    // checked before the runner loads; once it has, without an await (the runner re-exports it)
    const run = (runner ?? (await import("./cli/run-first.js"))).checkRun(args, Object.keys(COMMANDS));
    const { scenariosMain } = runner ?? (await scenarioRunner());
    return await scenariosMain(run);
  } catch (error) {
    if (error instanceof UsageError) {
      // One line: what is wrong, and where the usage is.
      const command = argv[0] !== undefined && COMMANDS[argv[0]] ? `${argv[0]} ` : "";
      console.error(`error: ${error.message} (usage: tsx lab/run.ts ${command}--help)`);
      return 2;
    }
    const line = await oneLine(error);
    if (line !== undefined) {
      console.error(`error: ${line}`);
      return 2;
    }
    throw error;
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  // Interrupted or terminated: leave through process.exit so that the exit handlers run (stdio
  // children killed by their handles, the children's event files removed).
  // The evidence of every finished session is on disk already; the handler writes the pages.
  // `serve` owns its signals: its HTTP server closes its session and port before it exits.
  if (process.argv[2] !== "serve") {
    for (const [signal, code] of [["SIGINT", 130], ["SIGTERM", 143]] as const)
      process.once(signal, () => {
        interruptHook()?.(signal);
        process.exit(code);
      });
  }
  // As a command, a peer about to run whose build is missing or stale is built first (its own check,
  // lab/peers/first-use.ts); `peers` only reports. main() called in a process (the tests) builds nothing.
  if (!["peers", "list", "--help"].includes(process.argv[2] ?? "")) (await import("./peers/first-use.js")).buildOnFirstUse(true);
  process.exitCode = await main(process.argv.slice(2));
}
