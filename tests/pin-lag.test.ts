// Each peer's pin beside the newest stable release its registry serves today (lab/peers/latest.ts,
// asked once a day and cached in build/), printed as `peers --latest` prints it. Under CI a pin that
// lags with no reason in lab/peers/held-back.ts fails, so the card never silently falls behind.
// The checks themselves are shown on planted pins, versions and a registry that does not answer.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { pinnedPackages, pinProblems, pinRows, staleReasons, type PinnedPeer } from "../lab/check/pin-lag.js";
import { PINNED_PEERS } from "../lab/cli/peers.js";
import { HELD_BACK } from "../lab/peers/held-back.js";
import { compareVersions, newestStable, readReviewed, refreshLatest, today } from "../lab/peers/latest.js";
import { renderPinTable } from "../lab/render/pin-table.js";
import type { PackageVersion } from "../lab/plan/peer.js";

const planted = (name: string, ...versions: Partial<PackageVersion>[]): PinnedPeer => ({
  // one package, "pkg" 1.0.0 on PyPI, unless the test says otherwise
  role: "client",
  name,
  sdk: { text: name, versions: () => (versions.length > 0 ? versions : [{}]).map((v) => ({ package: "pkg", pinned: "1.0.0", pinnedIn: "p", installed: "1.0.0", installedIn: "i", absent: "not built", registry: "pypi", ...v })) },
});

test("versions order by their release numbers; a pre-release is older than its release; a v or = prefix is ignored", () => {
  assert.ok(compareVersions("1.10.0", "1.9.3") > 0);
  assert.ok(compareVersions("v0.16.0", "0.15.0") > 0);
  assert.is(compareVersions("=2.0.1", "2.0.1"), 0);
  assert.ok(compareVersions("2.0.0rc1", "2.0.0") < 0);
  assert.ok(compareVersions("2.0.0-M1", "1.9.9") > 0);
  assert.is(newestStable(["1.2.0", "1.10.0", "2.0.0-beta.1", "v1.9.0", ""]), "1.10.0");
  assert.is(newestStable(["2.0.0-M1"]), undefined);
});

test("a pin that lags with no reason is a problem; with one it is held back; a reason for a current pin is stale", () => {
  const newest = { "pypi pkg": "1.2.0", "pypi other": "1.0.0" };
  const peers = [planted("lagging"), planted("held"), planted("current", { package: "other" }), planted("unknown", { package: "nowhere" })];
  const held = [
    { peer: "held", package: "pkg", because: "the newer one needs Python 3.12" },
    { peer: "current", package: "other", because: "was behind once" },
    { peer: "gone", package: "pkg", because: "a peer since removed" },
  ];
  const rows = pinRows(peers, newest, held);
  assert.equal(rows.map((r) => `${r.peer} ${r.status}`), ["lagging lags", "held held back", "current current", "unknown unknown"]);
  const problems = pinProblems(rows, held);
  assert.is(problems.length, 2);
  assert.match(problems[0]!, /client lagging: pkg 1\.0\.0 lags 1\.2\.0 \(pypi\) with no reason/);
  assert.match(problems[1]!, /no peer gone with package pkg/);
  assert.equal(staleReasons(rows).length, 1);
  assert.match(renderPinTable(rows, { fetchedOn: "2026-01-01", offline: undefined }).join("\n"), /held +pkg +1\.0\.0 +1\.2\.0 +pypi +held back: the newer one needs Python 3\.12/);
});

test("a lag behind a release newer than the last review is said, not failed on; behind a reviewed one it fails", () => {
  const peers = [planted("lagging")];
  const newest = { "pypi pkg": "1.3.0" };
  assert.equal(pinRows(peers, newest, [], { "pypi pkg": "1.2.0" }).map((r) => r.status), ["new since review"]);
  assert.equal(pinProblems(pinRows(peers, newest, [], { "pypi pkg": "1.2.0" }), []), []);
  // reviewed at 1.3.0 already, or never reviewed (a package the review does not know): a failure
  for (const reviewed of [{ "pypi pkg": "1.3.0" }, {}] as Record<string, string>[]) assert.equal(pinProblems(pinRows(peers, newest, [], reviewed), []).length, 1, JSON.stringify(reviewed));
});

test("a registry that does not answer: the cache answers, and the refresh says it was offline and from which day", async () => {
  const dir = mkdtempSync(join(tmpdir(), "pin-lag-"));
  try {
    const file = join(dir, "latest.json");
    writeFileSync(file, JSON.stringify({ fetchedOn: "2026-01-01", newest: { "npm a": "3.0.0" } }));
    const offline = await refreshLatest([{ registry: "npm", package: "a" }], { file, ask: async () => Promise.reject(new Error("getaddrinfo ENOTFOUND")) });
    assert.is(offline.newest["npm a"], "3.0.0");
    assert.match(offline.offline ?? "", /^offline: no registry answered .*ENOTFOUND.*; newest from the cache of 2026-01-01$/);
    // one answers, one does not: today's cache holds the answer and keeps the other's old value
    const ask = async (p: { package: string }) => (p.package === "b" ? "1.1.0" : Promise.reject(new Error("HTTP 503")));
    const partial = await refreshLatest([{ registry: "npm", package: "a" }, { registry: "npm", package: "b" }], { file, ask });
    assert.equal([partial.fetchedOn, partial.newest], [today(), { "npm a": "3.0.0", "npm b": "1.1.0" }]);
    assert.match(partial.offline ?? "", /not answered, cached value kept: npm a \(HTTP 503\)/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("every peer's pin beside its registry's newest; under CI a pin that lags with no reason fails", async () => {
  const packages = pinnedPackages(PINNED_PEERS);
  assert.ok(packages.length >= PINNED_PEERS.length, "every real peer says which registry serves its package");
  const found = await refreshLatest(packages);
  const rows = pinRows(PINNED_PEERS, found.newest, HELD_BACK, readReviewed()?.newest);
  console.log(renderPinTable(rows, found).join("\n"));
  for (const line of staleReasons(rows)) console.log(`  warning: ${line}`);
  const problems = pinProblems(rows, HELD_BACK);
  if (process.env.CI === "true") assert.equal(problems, [], problems.join("\n"));
  else for (const line of problems) console.log(`  would fail under CI: ${line}`);
});

test.run();
