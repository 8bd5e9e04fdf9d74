// What a scenario run can be refused for before the runner loads (it loads every SDK, about half a
// second of a CLI start): an unknown scenario, and an --out the lab must not write in (a file, a
// pseudo-filesystem, the project's own folders). Whether --out can be written is still tried by
// the runner, which makes the folder.
import { runArgs, UsageError, type Parsed, type RunArgs } from "./args.js";
import { refuseFolder } from "./output.js";
import { findScenario, SCENARIOS } from "../../scenarios/index.js";

export function checkRun(parsed: Parsed, commands: readonly string[]): RunArgs {
  const args = runArgs(parsed);
  if (args.target !== "all" && !findScenario(args.target)) {
    throw new UsageError(`unknown scenario '${args.target}'. Valid: ${[...SCENARIOS.map((s) => s.name), "all", ...commands].join(", ")}`);
  }
  if (args.outDir !== undefined) refuseFolder(args.outDir);
  return args;
}
