// The one argument parser of every command. A command declares its options as data (lab/cli/
// commands.ts): name, value kind, default, help. The parser validates against that data, and
// --help and notebooks/reference/cli.md are rendered from it. Bad usage is a UsageError: the CLI
// prints it on one line and exits 2.
import { existsSync, statSync } from "node:fs";
import { resolve } from "node:path";
import { LOOP_MODELS, type LoopModel, type OnDeadlock } from "../history/receive-loop.js";

export class UsageError extends Error {}

/** The transports a run can name. lab/transports/index.ts owns them; a test keeps the two equal. */
export const TRANSPORT_CHOICES = ["memory", "stdio", "http"] as const;
/** `both`: memory and stdio, the pair whose parity the lab compares (what it always meant). */
const BOTH_TRANSPORTS = ["memory", "stdio"];

/** Options that took a new name: the old one is refused with one line naming the new one. */
const RENAMED: Readonly<Record<string, string>> = { "--dispatch": "--loop" };

export type ValueKind =
  | { kind: "switch" }
  | { kind: "text"; placeholder: string }
  | { kind: "whole"; min: number; max: number }
  | { kind: "folder" }
  | { kind: "names" }
  | { kind: "choice"; choices: readonly string[] }
  | { kind: "transport" }
  | { kind: "loop" }
  | { kind: "json" };

export interface OptionSpec {
  /** without the dashes: "repeat" is --repeat */
  name: string;
  value: ValueKind;
  /** the value used when the option is not given, parsed like a given one */
  default?: string;
  /** what --help says about the default when it is not a plain value */
  defaultNote?: string;
  help: string;
}

export interface CommandSpec {
  /** the command word; "" for scenario runs (`tsx lab/run.ts nested`) */
  name: string;
  /** the words after the command: names the positionals, "" for none */
  operands: string;
  positionals: { min: number; max: number };
  /** after `--`: the rest of the line is the command's own, unparsed (against) */
  passthrough?: string;
  summary: string;
  about?: string;
  options: OptionSpec[];
}

type Value = boolean | number | string | string[] | LoopModel[] | Record<string, unknown> | undefined;

export interface Parsed {
  help: boolean;
  positionals: string[];
  passthrough: string[];
  /** the options written on the line (not filled in from a default) */
  given: ReadonlySet<string>;
  values: ReadonlyMap<string, Value>;
}

const flagOf = (o: OptionSpec) => `--${o.name}`;

function placeholder(value: ValueKind): string {
  switch (value.kind) {
    case "switch": return "";
    case "text": return value.placeholder;
    case "whole": return "N";
    case "folder": return "DIR";
    case "names": return "<name>[,<name>]";
    case "choice": return value.choices.join("|");
    case "transport": return `${TRANSPORT_CHOICES.join("|")}|all|both`;
    case "loop": return "sdk|serial|both";
    case "json": return "JSON";
  }
}

/** One option's value from its text, or a UsageError naming the option. */
function valueOf(option: OptionSpec, text: string, prefix: string): Value {
  const flag = flagOf(option);
  const v = option.value;
  switch (v.kind) {
    case "switch": return true;
    case "text": return text;
    case "whole": {
      const n = /^[0-9]+$/.test(text) ? Number(text) : Number.NaN;
      if (!Number.isSafeInteger(n) || n < v.min || n > v.max) throw new UsageError(`${prefix}${flag} must be a whole number from ${v.min} to ${v.max}, not '${text}'`);
      return n;
    }
    case "folder": {
      if (!existsSync(text)) throw new UsageError(`${prefix}${flag}: no folder ${text}`);
      if (!statSync(text).isDirectory()) throw new UsageError(`${prefix}${flag}: ${text} is not a folder`);
      return resolve(text);
    }
    case "names": {
      const names = text.split(",").map((n) => n.trim());
      if (names.some((n) => n === "")) throw new UsageError(`${prefix}${flag} takes peer names separated by commas, with none empty (got '${text}'); see \`peers\``);
      return names;
    }
    case "choice": {
      if (!v.choices.includes(text)) throw new UsageError(`${prefix}${flag} must be ${v.choices.join(" or ")}, not '${text}'`);
      return text;
    }
    case "transport": {
      if (text === "all") return [...TRANSPORT_CHOICES];
      if (text === "both") return [...BOTH_TRANSPORTS];
      if ((TRANSPORT_CHOICES as readonly string[]).includes(text)) return [text];
      throw new UsageError(`${prefix}${flag} must be ${TRANSPORT_CHOICES.join(", ")}, all or both, not '${text}'`);
    }
    case "loop": {
      // `sdk,serial` is the same as `both` (the card once took a list)
      const models = text === "both" ? [...LOOP_MODELS] : text.split(",");
      if (models.some((m) => !(LOOP_MODELS as readonly string[]).includes(m))) throw new UsageError(`${prefix}${flag} must be sdk, serial or both, not '${text}'`);
      return LOOP_MODELS.filter((m) => models.includes(m));
    }
    case "json": {
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        throw new UsageError(`${prefix}${flag} takes a JSON object (got ${text.slice(0, 80)})`);
      }
      if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) throw new UsageError(`${prefix}${flag} takes a JSON object`);
      return parsed as Record<string, unknown>;
    }
  }
}

/** Parses argv against a command's spec. `--option=value` is the same as `--option value`. */
export function parseCommand(spec: CommandSpec, argv: readonly string[]): Parsed {
  const prefix = spec.name ? `${spec.name}: ` : "";
  const dash = spec.passthrough === undefined ? -1 : argv.indexOf("--");
  const own = dash === -1 ? argv : argv.slice(0, dash);
  const values = new Map<string, Value>();
  const given = new Set<string>();
  const positionals: string[] = [];
  let help = false;
  for (let i = 0; i < own.length; i++) {
    const arg = own[i]!;
    if (arg === "--help" || arg === "-h") {
      help = true;
      continue;
    }
    if (!arg.startsWith("-") || arg === "-") {
      if (positionals.length >= spec.positionals.max) throw new UsageError(spec.positionals.max === 0 ? `${spec.name} takes no arguments, not '${arg}'` : `${prefix}unexpected argument '${arg}'`);
      positionals.push(arg);
      continue;
    }
    const eq = arg.startsWith("--") ? arg.indexOf("=") : -1;
    const flag = eq > 2 ? arg.slice(0, eq) : arg;
    const renamed = RENAMED[flag];
    if (renamed) throw new UsageError(`${flag} is now ${renamed}`);
    const option = spec.options.find((o) => flagOf(o) === flag);
    if (!option) throw new UsageError(`${prefix}unknown option '${flag}'`);
    let text: string | undefined;
    if (option.value.kind === "switch") {
      if (eq > 2) throw new UsageError(`${prefix}${flag} takes no value (got '${arg}')`);
    } else {
      text = eq > 2 ? arg.slice(eq + 1) : own[++i];
      if (text === undefined || text === "" || text.startsWith("--")) throw new UsageError(`${prefix}${flag} needs a value`);
    }
    values.set(option.name, valueOf(option, text ?? "", prefix));
    given.add(option.name);
  }
  if (help) return { help, positionals, passthrough: [], given, values };
  if (positionals.length < spec.positionals.min) throw new UsageError(`${prefix}name ${spec.operands}`);
  if (spec.passthrough !== undefined && (dash === -1 || dash === argv.length - 1)) throw new UsageError(`${prefix}give ${spec.passthrough} after --`);
  for (const option of spec.options) if (!values.has(option.name) && option.default !== undefined) values.set(option.name, valueOf(option, option.default, prefix));
  return { help, positionals, passthrough: dash === -1 ? [] : argv.slice(dash + 1), given, values };
}

/** Typed reads of a parse: each checks the option's kind, so a typo is a type-level slip caught here. */
export const read = {
  flag: (p: Parsed, name: string): boolean => p.values.get(name) === true,
  text: (p: Parsed, name: string): string | undefined => {
    const v = p.values.get(name);
    return typeof v === "string" ? v : undefined;
  },
  whole: (p: Parsed, name: string): number | undefined => {
    const v = p.values.get(name);
    return typeof v === "number" ? v : undefined;
  },
  list: (p: Parsed, name: string): string[] | undefined => {
    const v = p.values.get(name);
    return Array.isArray(v) ? [...v] : undefined;
  },
  loops: (p: Parsed, name: string): LoopModel[] | undefined => {
    const v = p.values.get(name);
    return Array.isArray(v) ? LOOP_MODELS.filter((m) => (v as string[]).includes(m)) : undefined;
  },
  json: (p: Parsed, name: string): Record<string, unknown> | undefined => {
    const v = p.values.get(name);
    return v !== null && typeof v === "object" && !Array.isArray(v) ? v : undefined;
  },
};

/** The usage line of a command: its operands, then each option with its value's form. */
export function usageLine(spec: CommandSpec): string {
  const options = spec.options.map((o) => `[${flagOf(o)}${o.value.kind === "switch" ? "" : ` ${placeholder(o.value)}`}]`);
  return ["usage: tsx lab/run.ts", spec.name, spec.operands, ...options, spec.passthrough === undefined ? "" : `-- <${spec.passthrough}>`].filter(Boolean).join(" ");
}

/** Each option's line of --help: the flag, its value's form, what it does, its default. */
export function optionRows(spec: CommandSpec): { flag: string; help: string }[] {
  return spec.options.map((o) => {
    const form = o.value.kind === "switch" ? "" : ` ${placeholder(o.value)}`;
    const fallback = o.defaultNote ?? o.default;
    const notes = [o.value.kind === "whole" && `N from ${o.value.min} to ${o.value.max}`, fallback !== undefined && `default ${fallback}`].filter(Boolean);
    return { flag: `${flagOf(o)}${form}`, help: `${o.help}${notes.length ? ` (${notes.join(", ")})` : ""}` };
  });
}

/** A command's --help, rendered from its spec. */
export function renderHelp(spec: CommandSpec): string {
  const rows = optionRows(spec);
  const width = Math.max(0, ...rows.map((r) => r.flag.length)) + 2;
  const options = rows.map((r) => `  ${r.flag.padEnd(width)}${r.help}`);
  return [usageLine(spec), "", spec.summary + (spec.about ? `\n\n${spec.about}` : ""), ...(options.length ? ["", "options:", ...options] : []), "", "--option=value is the same as --option value, for every option."].join("\n");
}

export interface RunArgs {
  target: string;
  loops: LoopModel[];
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
}

/** A scenario run's options, from a parse against RUN_SPEC (lab/cli/commands.ts). */
export function runArgs(p: Parsed): RunArgs {
  const onDeadlock = read.text(p, "on-deadlock") === "break" ? "break" : "wait";
  let loops = read.loops(p, "loop") ?? [...LOOP_MODELS];
  // Only the serial loop can deadlock, so only it has a deadlock to break.
  if (onDeadlock === "break") {
    if (!p.given.has("loop")) loops = ["serial"];
    else if (loops.includes("sdk")) throw new UsageError(`--on-deadlock break applies to the serial loop only: the sdk loop cannot deadlock, so there is nothing to break (use --loop serial)`);
  }
  return {
    target: p.positionals[0] ?? "",
    loops,
    transports: read.list(p, "transport") ?? [...TRANSPORT_CHOICES],
    repeat: read.whole(p, "repeat") ?? 2,
    json: read.flag(p, "json"),
    junit: read.text(p, "junit"),
    verbose: read.flag(p, "verbose"),
    onDeadlock,
    outDir: read.text(p, "out"),
    expectedDir: read.text(p, "expected"),
    clients: read.list(p, "client"),
    servers: read.list(p, "server"),
  };
}
