// Each peer's pin beside the newest stable release its registry serves (lab/peers/latest.ts), and
// which pins lag with no reason in lab/peers/held-back.ts. Pure: the registries were asked before.
import type { PackageRegistry, SdkLabel } from "../plan/peer.js";
import type { HeldBack } from "../peers/held-back.js";
import { compareVersions, packageKey } from "../peers/latest.js";

/** "new since review": it lags a release newer than the one the pins were last reviewed against
 *  (lab/peers/reviewed-newest.json): said, not failed on, until the next review. */
export type PinStatus = "current" | "held back" | "lags" | "new since review" | "ahead" | "unknown";

export interface PinRow {
  role: string;
  peer: string;
  package: string;
  registry: PackageRegistry;
  /** the pin (or, where the pin file names none, the installed version) */
  pinned: string;
  newest: string | undefined;
  status: PinStatus;
  because?: string;
}

export interface PinnedPeer {
  role: string;
  name: string;
  sdk: SdkLabel | string;
}

/** every package of every peer that says which registry serves it, with no version read twice */
export function pinnedPackages(peers: readonly PinnedPeer[]): { registry: PackageRegistry; package: string }[] {
  return peers.flatMap((p) => (typeof p.sdk === "string" ? [] : p.sdk.versions())).flatMap((v) => (v.registry ? [{ registry: v.registry, package: v.package }] : []));
}

/** One row per peer and package. */
export function pinRows(peers: readonly PinnedPeer[], newest: Readonly<Record<string, string>>, held: readonly HeldBack[], reviewed: Readonly<Record<string, string>> = {}): PinRow[] {
  return peers.flatMap((peer) =>
    (typeof peer.sdk === "string" ? [] : peer.sdk.versions()).flatMap((v) => {
      if (!v.registry) return [];
      const pinned = (v.pinned ?? v.installed ?? "?").replace(/^[=^~]+/, "");
      const key = packageKey({ registry: v.registry, package: v.package });
      const latest = newest[key];
      // a lag the last review could not have seen: its newest came out after it
      const unseen = latest !== undefined && reviewed[key] !== undefined && compareVersions(latest, reviewed[key]!) > 0;
      const because = held.find((h) => h.peer === peer.name && h.package === v.package)?.because;
      const order = latest === undefined || pinned === "?" ? undefined : compareVersions(pinned, latest);
      const status: PinStatus = order === undefined ? "unknown" : order === 0 ? "current" : order > 0 ? "ahead" : because ? "held back" : unseen ? "new since review" : "lags";
      return [{ role: peer.role, peer: peer.name, package: v.package, registry: v.registry, pinned, newest: latest, status, ...(because ? { because } : {}) }];
    }),
  );
}

/** What a strict check fails on: a pin that lags with no reason; a reason that names no peer's package. */
export function pinProblems(rows: readonly PinRow[], held: readonly HeldBack[]): string[] {
  const lags = rows.filter((r) => r.status === "lags").map((r) => `${r.role} ${r.peer}: ${r.package} ${r.pinned} lags ${r.newest} (${r.registry}) with no reason in lab/peers/held-back.ts`);
  const orphan = held.filter((h) => !rows.some((r) => r.peer === h.peer && r.package === h.package)).map((h) => `lab/peers/held-back.ts: no peer ${h.peer} with package ${h.package}`);
  return [...lags, ...orphan];
}

/** A reason kept for a pin that no longer lags: said, so it does not outlive its cause (a warning:
 *  the pin is current, nothing on the card lags). */
export const staleReasons = (rows: readonly PinRow[]): string[] =>
  rows.filter((r) => r.because && (r.status === "current" || r.status === "ahead")).map((r) => `lab/peers/held-back.ts: ${r.peer}'s ${r.package} ${r.pinned} no longer lags (newest ${r.newest}): its reason is stale`);
