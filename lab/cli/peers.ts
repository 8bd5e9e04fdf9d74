// `peers`: every client and server peer, its SDK and version, and whether it can run here.
import { CLIENT_PEERS, SERVER_PEERS } from "../peers/registry.js";

export async function main(): Promise<number> {
  console.log("client peers");
  for (const p of CLIENT_PEERS) {
    const why = p.unavailable();
    console.log(`  ${p.name.padEnd(11)} ${why === undefined ? "ready      " : "UNAVAILABLE"} ${p.sdk} · loops ${p.loops.join(", ")} · era ${p.era} · ${p.driver.kind === "process" ? "own process" : "this process"}`);
    console.log(`  ${"".padEnd(11)} ${p.meaning}${why === undefined ? "" : `\n  ${"".padEnd(11)} why unavailable: ${why}`}`);
  }
  console.log("server peers");
  for (const p of SERVER_PEERS) {
    const why = p.unavailable();
    const where = [p.inProcess && "this process", p.child && "stdio child"].filter(Boolean).join(", ");
    console.log(`  ${p.name.padEnd(11)} ${why === undefined ? "ready      " : "UNAVAILABLE"} ${p.sdk} · runs in ${where}`);
    console.log(`  ${"".padEnd(11)} ${p.meaning}${why === undefined ? "" : `\n  ${"".padEnd(11)} why unavailable: ${why}`}`);
  }
  return 0;
}
