// The lab's command line: tsx lab/run.ts <scenario|all|list|contract|vocabulary|card|...> [options]
// Exit 0 when every expectation holds, 1 when one fails, 2 on bad usage or when the run output
// cannot be written (one line, never a stack trace). Each command's modules load only when it
// runs, so `list`, `--help` and `peers` start about as fast as tsx itself (see `bench`).
import { USAGE, UsageError } from "./cli/args.js";
import { interruptHook } from "./cli/interrupt.js";

type Command = (argv: string[]) => Promise<number>;

/** Commands other than running scenarios. Each returns its exit code. */
const COMMANDS: Record<string, Command> = {
  list: async (argv) => {
    if (argv.includes("--help") || argv.includes("-h")) {
      console.log("usage: tsx lab/run.ts list\n\nPrints every scenario and what it shows.");
      return 0;
    }
    if (argv.length) throw new UsageError(`list takes no arguments, not ${argv.join(" ")}`);
    const { SCENARIOS } = await import("../scenarios/index.js");
    for (const s of SCENARIOS) console.log(`${s.name.padEnd(16)} ${s.summary}`);
    return 0;
  },
  bench: async (argv) => (await import("./bench/index.js")).main(argv),
  notebooks: async (argv) => (await import("./notebooks/index.js")).main(argv),
  contract: async (argv) => (await import("./cli/contract.js")).main(argv),
  vocabulary: async (argv) => (await import("./cli/vocabulary-table.js")).main(argv),
  soak: async (argv) => (await import("./soak/index.js")).main(argv),
  card: async (argv) => (await import("./cli/card.js")).main(argv),
  peers: async (argv) => (await import("./cli/peers.js")).main(argv),
  serve: async (argv) => (await import("./cli/serve.js")).main(argv),
  docs: async (argv) => (await import("./cli/docs.js")).main(argv),
  mutate: async (argv) => (await import("./cli/mutate.js")).main(argv),
  against: async (argv) => (await import("./cli/against.js")).main(argv),
  clean: async (argv) => (await import("./cli/store.js")).cleanMain(argv),
};

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
    const command = argv[0] !== undefined ? COMMANDS[argv[0]] : undefined;
    if (command) return await command(argv.slice(1));
    if (argv.includes("--help") || argv.includes("-h")) {
      console.log(USAGE);
      return 0;
    }
    const { scenariosMain } = runner ?? (await scenarioRunner());
    return await scenariosMain(argv, Object.keys(COMMANDS));
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
  process.exitCode = await main(process.argv.slice(2));
}
