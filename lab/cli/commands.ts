// Every command's options, as data: lab/cli/args.ts parses and validates against it, and --help
// and notebooks/reference/cli.md (`docs`) are rendered from it. Data only: `--help` and `list`
// load nothing else.
import type { CommandSpec, OptionSpec } from "./args.js";

const out = (help = "the store's root: each invocation writes to DIR/<UTC time>-<command>/, DIR/latest points at the newest, DIR/index.html lists them; nothing is replaced (see `clean`)", defaultNote = "run-output/"): OptionSpec => ({
  name: "out",
  value: { kind: "text", placeholder: "DIR" },
  defaultNote,
  help,
});
const expected = (help = "read expectations from DIR instead of expected/; output still goes to the store"): OptionSpec => ({ name: "expected", value: { kind: "folder" }, help });
const junit: OptionSpec = { name: "junit", value: { kind: "text", placeholder: "FILE" }, help: "also write every check as JUnit XML (one test case per check); the file must not exist" };
const json: OptionSpec = { name: "json", value: { kind: "switch" }, help: "print the reports as JSON instead of swimlanes" };
const peers = (role: "client" | "server", note: string): OptionSpec => ({ name: role, value: { kind: "names" }, defaultNote: note, help: `${role} peers by name, or all; see \`peers\`` });
const loop = (help: string, dflt?: string): OptionSpec => ({ name: "loop", value: { kind: "loop" }, ...(dflt && { default: dflt }), help });
const transport = (dflt: string): OptionSpec => ({ name: "transport", value: { kind: "transport" }, default: dflt, help: "the transport: one by name; all: every one; both: memory and stdio" });
const repeat = (dflt: string): OptionSpec => ({ name: "repeat", value: { kind: "whole", min: 1, max: 100 }, default: dflt, help: "fresh sessions per case" });
const LOOP_HELP = "the client's receive-loop model; sdk: the SDK as shipped; serial: a model of the MCP Python SDK 1.29.0 client loop (one inbound request at a time)";

/** Scenario runs: `tsx lab/run.ts <scenario|all> [options]`. */
export const RUN_SPEC: CommandSpec = {
  name: "",
  operands: "<scenario|all>",
  positionals: { min: 1, max: 1 },
  summary: "Runs a scenario (or all of them) for every pairing asked for and checks each run against its hand-written expectation. Exit 0 when every expectation holds, 1 when one fails, 2 on bad usage.",
  options: [
    peers("client", "ts1; for all: every peer"),
    peers("server", "ts1; for all: every peer"),
    loop(LOOP_HELP, "both"),
    transport("all"),
    repeat("2"),
    { name: "on-deadlock", value: { kind: "choice", choices: ["wait", "break"] }, default: "wait", help: "serial only: let the SDK timeout fire, or fail the nested request the moment the cycle is detected; break alone means the serial loop, with sdk it is refused" },
    json,
    junit,
    { name: "verbose", value: { kind: "switch" }, help: "all: every run's swimlane and checks (default: one line per run)" },
    out(),
    expected(),
  ],
};

export const COMMAND_SPECS: CommandSpec[] = [
  { name: "list", operands: "", positionals: { min: 0, max: 0 }, summary: "Prints every scenario and what it shows.", options: [] },
  {
    name: "contract",
    operands: "[<case>|<kind>.<what>|calculate|vocabulary|<kind>[,...]]",
    positionals: { min: 0, max: 1 },
    summary: "The form contract and the form vocabulary: runs every form-elicitation case this server has expectations for (or the cases and groups named) under sdk, the ts1 client against one server peer.",
    about: 'See README "After the answer comes back" and "The whole form vocabulary".',
    options: [
      { name: "server", value: { kind: "names" }, defaultNote: "ts1", help: "the one server peer" },
      { name: "client", value: { kind: "names" }, defaultNote: "ts1", help: "the contract's client is ts1 (its cases are ts1 callback fixtures); any other is refused" },
      loop("sdk only: the contract's callbacks never call back, so the model cannot matter"),
      transport("all"),
      repeat("1"),
      json,
      junit,
      out(),
      expected("read expectations from DIR/contract/ instead of expected/contract/"),
    ],
  },
  { name: "vocabulary", operands: "", positionals: { min: 0, max: 0 }, summary: "Which layer refuses each form answer, per server peer: runs the form vocabulary against every server peer with expectation files and prints who refused each answer (Markdown).", options: [out(), expected()] },
  {
    name: "card",
    operands: "",
    positionals: { min: 0, max: 0 },
    summary: "The report card: every client peer (under each of its loop models) against every server peer, over stdio, once each; every cell compared with the hand-written cards in expected/card/. Exit 0 when every cell is as expected.",
    options: [peers("client", "every client peer"), peers("server", "every server peer"), { ...loop(LOOP_HELP), defaultNote: "every loop model of each client" }, out(), expected("read the cards from DIR/card/ instead of expected/card/"), junit],
  },
  {
    name: "notebooks",
    operands: "[NOTEBOOK.md ...]",
    positionals: { min: 0, max: 1000 },
    summary: "Re-runs what each notebook's output blocks show and rewrites only those blocks.",
    about:
      'A show="picture" block also keeps the run\'s SVG in notebooks/pictures/ (--check compares it by structure: its texts in order, times removed); to regenerate a picture, rerun its notebook: npx tsx lab/run.ts notebooks notebooks/01-callback-deadlock.md. Blocks: <!-- lab:output run="<args of tsx lab/run.ts>" show="<a show of lab/notebooks/>" [only="<name>,..."] --> ... <!-- /lab:output -->',
    options: [
      { name: "check", value: { kind: "switch" }, help: "rewrite nothing; exit 1 if any block differs from a fresh run (times and pids ignored)" },
      { name: "dir", value: { kind: "text", placeholder: "DIR" }, defaultNote: "notebooks/", help: "where the notebooks are" },
    ],
  },
  {
    name: "setup",
    operands: "[PEER ...]",
    positionals: { min: 0, max: 1000 },
    summary: "Builds every peer (or the builds and peers named) into build/ now, several at once where they do not compete, one line as each starts and ends; what is current costs nothing. `npm ci` builds only the README's first run; any other peer also builds on its first use.",
    options: [{ name: "strict", value: { kind: "switch" }, help: "exit 1 when a build fails" }],
  },
  { name: "peers", operands: "", positionals: { min: 0, max: 0 }, summary: "Every peer, its version, whether it can run here.", options: [{ name: "strict", value: { kind: "switch" }, help: "exit 1 when any peer cannot run (CI must never skip a peer silently); with --latest, also when a pin lags with no reason" }, { name: "latest", value: { kind: "switch" }, help: "instead: each peer's pin beside the newest stable release its registry serves (asked once a day, cached in build/latest-versions.json; offline, the cache)" }, { name: "review", value: { kind: "switch" }, help: "with --latest: ask every registry now and record their newest as reviewed (lab/peers/reviewed-newest.json); a release newer than the review is then 'new since review', not a failure" }] },
  {
    name: "clean",
    operands: "",
    positionals: { min: 0, max: 0 },
    summary: "Removes all but the N newest invocations from the store, and says which. The folder latest points at is always kept.",
    options: [{ name: "keep", value: { kind: "whole", min: 0, max: 100_000 }, help: "how many of the newest invocations to keep (required)" }, out("the store's root")],
  },
  { name: "mutate", operands: "DIR", positionals: { min: 1, max: 1 }, summary: "Every value of every expected file the stored runs in DIR (a store root or one invocation) used must matter.", options: [] },
  {
    name: "against",
    operands: "",
    positionals: { min: 0, max: 0 },
    passthrough: "the command that starts your stdio server",
    summary: "Every client peer against your own stdio server: each calls the tool once; when the server asks for input, the callback awaits tools/list on its own session (asking for a 0.5 s limit), then declines. Reports, per client, whether the nested request completed or deadlocked, and what ended the wait, read from its error: the SDK's limit, the lab's backstop where the SDK sets none, or the callback's own.",
    options: [
      { name: "tool", value: { kind: "text", placeholder: "NAME" }, help: "the tool to call (required)" },
      { name: "args", value: { kind: "json" }, defaultNote: "{}", help: "the tool's arguments, a JSON object" },
      peers("client", "every client peer"),
      { name: "hosts", value: { kind: "switch" }, help: "run your server under each host (claude-code, codex, ...: `hosts`) instead, the scripted model calling your tool; --client names hosts" },
      out(),
      junit,
    ],
  },
  {
    name: "serve",
    operands: "",
    positionals: { min: 0, max: 0 },
    summary: "The server with the probe tools (calculate, probe_receive_loop, probe_sampling, probe_fan_out) on stdio, for any MCP client. The same server, built: node build/child-server.cjs with the same flags.",
    options: [
      { name: "http", value: { kind: "switch" }, help: "Streamable HTTP on 127.0.0.1 instead of stdio (the port on stdout)" },
      { name: "port", value: { kind: "whole", min: 0, max: 65_535 }, defaultNote: "0: any free port", help: "with --http: the port" },
      { name: "once", value: { kind: "switch" }, help: "stdio only: end after the probes; exit 0 for a concurrent receive loop, 1 for a serial one, 2 inconclusive or not run" },
      { name: "report", value: { kind: "text", placeholder: "FILE" }, help: "with --once: write the verdicts to FILE" },
      { name: "limit-ms", value: { kind: "text", placeholder: "N" }, defaultNote: "120000, from 1000 to 600000", help: "with --once: how long the probes may take" },
    ],
  },
  {
    name: "bench",
    operands: "",
    positionals: { min: 0, max: 0 },
    summary: "Benchmarks, each goal met or MISSED: a whole in-memory session, the instrumented transport vs the SDK's bare InMemoryTransport, deadlock detection, wait vs break, fan-out under each model, the stdio child's start, the CLI's start, each Python, JVM, Go and Rust peer's session start against its language's floor, HTTP, the whole report card, and last npm test, twice: the figure is the second run, the first fills build/'s records (about 5 min).",
    options: [
      { name: "strict", value: { kind: "switch" }, help: "exit 1 when a goal is MISSED (without it, bench exits 0 either way: the figures depend on the machine and its load)" },
      { name: "no-tests", value: { kind: "switch" }, help: "skip the last figure, npm test's wall time (two runs, the longest)" },
      { name: "history", value: { kind: "names" }, defaultNote: "none", help: "also each named SDK's whole release history (see history --client), fresh into an empty scratch cache, then warm: minutes each" },
    ],
  },
  {
    name: "soak",
    operands: "",
    positionals: { min: 0, max: 0 },
    summary: 'The matrix N times, optionally under load: every scenario under each loop model, and nested under serial with --on-deadlock break, one fresh session per transport. Prints one line per pass, then how often each check failed, then "N passed, N failed" counting every session and every parity comparison. Not part of npm test.',
    options: [
      { name: "runs", value: { kind: "whole", min: 1, max: 1000 }, default: "10", help: "passes over the matrix" },
      transport("memory"),
      loop(LOOP_HELP, "both"),
      { name: "load", value: { kind: "whole", min: 0, max: 16 }, default: "0", help: "N worker threads, each keeping one core busy while the soak runs; each stops by itself if the lab stops renewing its lease" },
      { name: "scenario", value: { kind: "names" }, defaultNote: "every one", help: "only these scenarios (names from `list`), to soak the one you are chasing" },
      out("where failing runs keep their evidence", "run-output/soak/"),
      expected("read expectations from DIR instead of expected/"),
    ],
  },
  {
    name: "stack",
    operands: "",
    positionals: { min: 0, max: 0 },
    summary: "Your Python agent stack as pip resolves it for CPython 3.11: which mcp it got, which card column that mcp behaves like (1.x: the serial loop; 2.x: the concurrent one), which of the lab's framework adapters match its packages; then the set installed in a venv of its own and each adapter run on it, a nested request sent from inside its callback against the ts1 server: deadlocks (and what ended the wait) or not. Exit 0 when it resolves and runs; 2, in one line, for an unknown package, a set that does not resolve (the conflict as pip states it), no package index, or an install that fails.",
    about: "Resolutions are cached for a day under build/stack/ by the set's text and the index asked; venvs under build/stack/venvs/ by the resolved set's hash.",
    options: [{ name: "python", value: { kind: "text", placeholder: "REQUIREMENTS" }, help: 'the requirements, as you would give them to pip install, in one argument: "google-adk[mcp] langchain-mcp-adapters" (required)' },
      { name: "no-run", value: { kind: "switch" }, help: "resolve only: install nothing and run no adapter" },
    ],
  },
  {
    name: "history",
    operands: "",
    positionals: { min: 0, max: 0 },
    summary: "Which releases deadlock: every release of a client's SDK the package index serves, each installed once under build/history/ and run against the ts1 server (a nested tools/list in an elicitation, a sampling and a roots callback, a ping while a form's callback runs, 8 forms at once, the probe's verdict as serve --once gives it, the server's cancel of its request id 0; py also a sampling answer during a call, the HTTP boundary at 1.8.1); prints the ranges in which each outcome holds, compares them with expected/history/<client>.json (a difference fails, naming the release), writes history.md and history.svg. Exit 2, in one line, for a client with no history, --versions matching nothing or no package index.",
    about: "The release list is cached for a day under build/history/ by the index asked; a release that cannot install or run here is a cell \"not run: why\".",
    options: [
      { name: "client", value: { kind: "names" }, help: "the SDK's client: py, ts1 or kotlin (required; ts1: the newest patch of each 1.x minor of @modelcontextprotocol/sdk; kotlin: every io.modelcontextprotocol:kotlin-sdk release on Maven Central, the Kotlin driver compiled against each)" },
      { name: "versions", value: { kind: "text", placeholder: "A..B" }, defaultNote: "every release", help: "only the releases from A to B, both included; either end may be left out" },
      { name: "transport", value: { kind: "names" }, default: "stdio", help: "stdio, http or stdio,http (http: the client's own Streamable HTTP client, rows <behaviour>.http; n/a before the release that ships it)" },
      out(),
      expected("read expectations from DIR/history/ instead of expected/history/"),
    ],
  },
  {
    name: "hosts",
    operands: "",
    positionals: { min: 0, max: 0 },
    summary: "The hosts people run (Claude Code, Codex, opencode, Qwen Code, Gemini CLI, the Claude Agent SDK; and claude-code-hook, claude-agent-sdk and codex-app with the lab's answerer: an Elicitation hook, an onElicitation callback, codex app-server's client), each installed on first use into build/hosts/ (one line, its time) and run once headless with a fresh HOME, pointed at the lab's scripted model on 127.0.0.1, which asks it to call probe_receive_loop on the lab's stdio server: what it declared, the protocol, what a form got, the receive-loop verdict, forms at once; compared with expected/hosts/<host>.json; writes hosts.md. Exit 1 when a cell differs from its card or a host whose card says it runs did not.",
    about: "A host that is missing, fails to install or does not call the tool within its bound is one line and its cell \"not run: why\".",
    options: [{ name: "client", value: { kind: "names" }, defaultNote: "every host", help: "the hosts by name, or all" }, { name: "wire", value: { kind: "switch" }, help: "also print each host's wire with the server, pings folded" }, out()],
  },
  { name: "docs", operands: "", positionals: { min: 0, max: 0 }, summary: "Writes the generated parts of the docs: the README's card table and notebooks/reference/card.md from expected/card/, notebooks/reference/cli.md from these option tables, and notebooks/reference/python-stacks.md from the framework peers' venvs and cards (building a missing venv first).", options: [{ name: "check", value: { kind: "switch" }, help: "write nothing; exit 1 naming each stale part" }] },
];

export function commandSpec(name: string): CommandSpec | undefined {
  return COMMAND_SPECS.find((c) => c.name === name);
}
