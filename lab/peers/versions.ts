// Which SDK and Node a run used. The expectations were written against one SDK version;
// running them against another would test the wrong thing, so the lab refuses.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { LATEST_PROTOCOL_VERSION } from "@modelcontextprotocol/sdk/types.js";

/** The SDK version every file in expected/ was written for. */
export const PINNED_SDK_VERSION = "1.32.2";

export interface Versions {
  sdk: string;
  node: string;
  latestProtocol: string;
}

export function readVersions(): Versions {
  // The package's exports hide package.json, so find it from a path the exports allow.
  const require = createRequire(import.meta.url);
  const entry = require.resolve("@modelcontextprotocol/sdk/types.js");
  let dir = dirname(entry);
  for (let i = 0; i < 6; i++) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { name?: string; version?: string };
      if (pkg.name === "@modelcontextprotocol/sdk" && pkg.version) {
        return { sdk: pkg.version, node: process.versions.node, latestProtocol: LATEST_PROTOCOL_VERSION };
      }
    } catch {
      // not at the package root yet
    }
    dir = dirname(dir);
  }
  throw new Error("cannot find the installed @modelcontextprotocol/sdk package.json");
}

export class VersionMismatch extends Error {}

export function assertPinnedSdk(versions: Versions): void {
  if (versions.sdk !== PINNED_SDK_VERSION) {
    throw new VersionMismatch(
      `@modelcontextprotocol/sdk ${versions.sdk} is installed, but the expectations in expected/ were written for ${PINNED_SDK_VERSION}. Run \`npm ci\` to install the pinned version.`,
    );
  }
}
