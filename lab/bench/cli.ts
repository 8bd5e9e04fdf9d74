// The CLI's start: `tsx lab/run.ts list`, `--help` and `peers` against `tsx -e 0`, the floor any tsx
// command pays, run interleaved so that load falls on both alike; the figure is the ratio of medians.
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { PROJECT_ROOT } from "../paths.js";
import { median } from "../check/stats.js";

const TSX = join(PROJECT_ROOT, "node_modules", "tsx", "dist", "cli.mjs");

function timed(args: string[]): number {
  const started = performance.now();
  const r = spawnSync(process.execPath, [TSX, ...args], { cwd: PROJECT_ROOT, stdio: "ignore", timeout: 30_000 });
  if (r.status !== 0) throw new Error(`tsx ${args.join(" ")} exited ${r.status ?? r.signal}`);
  return performance.now() - started;
}

export function benchCliStart(rounds = 7): { floorMs: number; listMs: number; helpMs: number; peersMs: number; ratio: number } {
  const floor: number[] = [];
  const list: number[] = [];
  const help: number[] = [];
  const peers: number[] = [];
  timed(["-e", "0"]); // warm tsx's own cache first
  for (let i = 0; i < rounds; i++) {
    floor.push(timed(["-e", "0"]));
    list.push(timed(["lab/run.ts", "list"]));
    help.push(timed(["lab/run.ts", "--help"]));
    peers.push(timed(["lab/run.ts", "peers"]));
  }
  const [f, l, h, p] = [median(floor), median(list), median(help), median(peers)];
  return { floorMs: Math.round(f), listMs: Math.round(l), helpMs: Math.round(h), peersMs: Math.round(p), ratio: Math.round((Math.max(l, h, p) / f) * 100) / 100 };
}
