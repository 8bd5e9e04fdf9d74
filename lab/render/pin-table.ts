// The pin table: each peer's pinned version beside its registry's newest, one line each.
import type { PinRow } from "../check/pin-lag.js";

export function renderPinTable(rows: readonly PinRow[], source: { fetchedOn: string; offline: string | undefined }): string[] {
  const width = (pick: (r: PinRow) => string) => Math.max(0, ...rows.map((r) => pick(r).length));
  const [peer, pkg, pinned, newest] = [width((r) => r.peer), width((r) => r.package), width((r) => r.pinned), width((r) => r.newest ?? "?")];
  const head = `newest stable release on each registry, asked on ${source.fetchedOn}${source.offline ? ` (${source.offline})` : ""}`;
  const lines = rows.map((r) => {
    const why = r.because ? `: ${r.because}` : "";
    return `  ${r.peer.padEnd(peer)}  ${r.package.padEnd(pkg)}  ${r.pinned.padEnd(pinned)}  ${(r.newest ?? "?").padEnd(newest)}  ${r.registry.padEnd(6)}  ${r.status}${why}`;
  });
  return [head, `  ${"peer".padEnd(peer)}  ${"package".padEnd(pkg)}  ${"pinned".padEnd(pinned)}  ${"newest".padEnd(newest)}  ${"from".padEnd(6)}  status`, ...lines];
}
