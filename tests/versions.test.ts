// The lab refuses to judge an SDK other than the one its expectations were written for.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { assertPinnedSdk, PINNED_SDK_VERSION, readVersions, VersionMismatch } from "../lab/peers/versions.js";

test("the installed SDK is the pinned one, and Node is recorded", () => {
  const versions = readVersions();
  assert.is(versions.sdk, PINNED_SDK_VERSION);
  assert.is(versions.node, process.versions.node);
  assert.is(versions.latestProtocol, "2025-11-25");
  assertPinnedSdk(versions);
});

test("another SDK version is refused with a message that says what to do", () => {
  const other = { ...readVersions(), sdk: "1.33.0" };
  assert.throws(() => assertPinnedSdk(other), (e: unknown) => e instanceof VersionMismatch && /1\.33\.0.*1\.32\.2.*npm ci/.test((e as Error).message));
});

test.run();
