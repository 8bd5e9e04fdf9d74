// A peer's label, read from what is installed: each version in it comes from the artefact the peer
// runs (a venv's METADATA, node_modules' package.json, the built binary, the jar) and is compared
// with the project's pin (requirements.txt, package.json or its lock, Cargo.toml, go.mod, pom.xml).
// Each is read once per process, when the label is first shown: the CLI's start never pays for it.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { PROJECT_ROOT } from "../paths.js";
import type { PackageVersion, SdkLabel } from "../plan/peer.js";
import { binarySection, classStrings, jarEntry } from "./artefacts.js";

/** One package's versions, read on the first call and kept. */
export type VersionSource = () => PackageVersion;

function once<T>(read: () => T): () => T {
  let kept: { value: T } | undefined;
  return () => (kept ??= { value: read() }).value;
}

// a path in the project is shown from its root; a test's planted file, as it is
const shown = (path: string) => (path.startsWith(PROJECT_ROOT) ? relative(PROJECT_ROOT, path) : path);
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

function readText(file: string): string | undefined {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
}

function readJson(file: string): Record<string, any> | undefined {
  const text = readText(file);
  try {
    return text === undefined ? undefined : (JSON.parse(text) as Record<string, any>);
  } catch {
    return undefined;
  }
}

/** `packages[key].version` of a package-lock.json, found in its text: a root lockfile is a quarter of a
 *  megabyte, and parsing it whole costs more than the rest of `peers`. */
function lockedVersion(lock: string, key: string): string | undefined {
  const text = readText(lock);
  const at = text?.indexOf(`${JSON.stringify(key)}: {`) ?? -1;
  return at < 0 ? undefined : text!.slice(at, at + 400).match(/^\s*"version": "([^"]+)"/m)?.[1];
}

/** A slot may name several packages that the label shows as one (ts2's client+server): one version
 *  when they agree, each when not; a package not installed is said, with its pin. */
function slotText(versions: readonly PackageVersion[]): string {
  const missing = versions.find((v) => v.installed === undefined);
  if (missing) return `${missing.absent} (pins ${missing.pinned ?? "?"})`;
  return [...new Set(versions.map((v) => v.installed))].join("/");
}

/** A peer's label: its template's `{}`s filled, in order, from each slot's installed version. */
export function sdkLabel(template: string, ...slots: readonly (VersionSource | readonly VersionSource[])[]): SdkLabel {
  const groups = slots.map((slot) => (typeof slot === "function" ? [slot] : slot));
  const text = once(() => {
    let i = 0;
    return template.replace(/\{\}/g, () => slotText((groups[i++] ?? []).map((read) => read())));
  });
  return {
    get text() {
      return text();
    },
    versions: () => groups.flat().map((read) => read()),
  };
}

/** One line when the install differs from the pin; none when they agree or nothing is installed
 *  (the peer is then unavailable, and says why). */
export function versionMismatch(v: PackageVersion): string | undefined {
  if (v.installed === undefined || v.pinned === v.installed) return undefined;
  const label = v.pinned === undefined ? `no version for it in ${v.pinnedIn}` : `${v.pinned} (${v.pinnedIn})`;
  return `${v.package}: the label's version ${label}, installed ${v.installed} (${v.installedIn})`;
}

function sitePackages(venv: string): string | undefined {
  const lib = join(venv, "lib");
  if (!existsSync(lib)) return undefined;
  return readdirSync(lib)
    .map((d) => join(lib, d, "site-packages"))
    .find((d) => existsSync(d));
}

/** The METADATA file of `dist`'s dist-info in a venv, if it is installed there. */
export function distMetadata(venv: string, dist: string): string | undefined {
  const site = sitePackages(venv);
  const folder = new RegExp(`^${escape(dist.replace(/-/g, "_"))}-[^-]+\\.dist-info$`, "i");
  const info = site && readdirSync(site).find((d) => folder.test(d));
  return site && info ? join(site, info, "METADATA") : undefined;
}

/** What `dist`'s METADATA in a venv requires of `on`: its Requires-Dist specifiers, the unconditional
 *  ones when it has any, else those behind an extra; [] when it names none (or is not installed). */
export function requiresOf(venv: string, dist: string, on: string): string[] {
  const metadata = distMetadata(venv, dist);
  const text = (metadata && readText(metadata)) ?? "";
  const lines = [...text.matchAll(new RegExp(`^Requires-Dist: ${escape(on)}(?![-\\w.])\\s*([^;\\n]*)(;[^\\n]*)?$`, "gmi"))];
  const plain = lines.filter((m) => m[2] === undefined);
  return [...new Set((plain.length > 0 ? plain : lines).map((m) => m[1]!.trim()))];
}

/** A distribution in a venv: `dist==X` in the requirements file, Version: in its dist-info's METADATA. */
export function pythonDist(env: { dir: string; requirements: string }, dist: string): VersionSource {
  return once(() => {
    const pinned = readText(env.requirements)?.match(new RegExp(`^${escape(dist)}==([^\\s\\\\;]+)`, "mi"))?.[1];
    const metadata = distMetadata(env.dir, dist);
    const installed = metadata && readText(metadata)?.match(/^Version: (\S+)$/m)?.[1];
    return { package: dist, pinned, pinnedIn: shown(env.requirements), installed, installedIn: shown(metadata ?? env.dir), absent: "not installed", registry: "pypi" };
  });
}

/** An npm package in `dir`'s node_modules, resolved as Node would from `via` (the package that
 *  depends on it) when given. Its pin: `pins`' package.json when it lists it (a direct dependency),
 *  else its entry in `pins`' package-lock.json; `pins` is `dir` unless a test plants another. */
export function npmPackage(name: string, options: { dir: string; via?: string; pins?: string }): VersionSource {
  return once(() => {
    const keys = [...(options.via ? [`node_modules/${options.via}/node_modules/${name}`] : []), `node_modules/${name}`];
    const key = keys.find((k) => existsSync(join(options.dir, k, "package.json"))) ?? keys.at(-1)!;
    const manifest = join(options.dir, key, "package.json");
    const pins = options.pins ?? options.dir;
    const direct = options.via ? undefined : (readJson(join(pins, "package.json"))?.dependencies?.[name] as string | undefined);
    const lock = join(pins, "package-lock.json");
    const pinned = direct ?? lockedVersion(lock, key);
    return {
      package: name,
      pinned,
      pinnedIn: shown(direct ? join(pins, "package.json") : lock),
      installed: readJson(manifest)?.version as string | undefined,
      installedIn: shown(manifest),
      absent: "not installed",
      registry: "npm",
    };
  });
}

/** The version just after `marker` in a section of a built binary (artefacts.ts): each place the marker
 *  occurs is tried with `after`, anchored there. */
function inBinary(binary: string, section: string, marker: string, after: RegExp): string | undefined {
  const bytes = binarySection(binary, section);
  for (let at = bytes?.indexOf(marker) ?? -1; bytes && at >= 0; at = bytes.indexOf(marker, at + 1)) {
    const found = bytes.toString("latin1", at + marker.length, at + marker.length + 80).match(after)?.[1];
    if (found) return found;
  }
  return undefined;
}

/** A Go module: go.mod's require line, and the module list the Go linker writes into the binary
 *  (the lines `go version -m` prints: dep <module> <version> <sum>). */
export function goModule(module: string, options: { gomod: string; binary: string }): VersionSource {
  return once(() => ({
    package: module,
    pinned: readText(options.gomod)?.match(new RegExp(`^\\s*(?:require\\s+)?${escape(module)} (v\\S+)`, "m"))?.[1],
    pinnedIn: shown(options.gomod),
    installed: inBinary(options.binary, ".go.buildinfo", `dep\t${module}\t`, /^(v[^\t\n]+)\t/),
    installedIn: `${shown(options.binary)} (its module list)`,
    absent: "not built",
    registry: "go",
  }));
}

/** A Rust crate: Cargo.toml's `=X` requirement, and the version in the crate's source paths that
 *  cargo compiled into the binary (…/registry/src/…/<crate>-<version>/src/…, in its panic locations). */
export function rustCrate(crate: string, options: { manifest: string; binary: string }): VersionSource {
  return once(() => ({
    package: crate,
    pinned: readText(options.manifest)?.match(new RegExp(`^${escape(crate)}\\s*=\\s*(?:\\{[^}\\n]*?version\\s*=\\s*)?"=?([^"]+)"`, "m"))?.[1],
    pinnedIn: shown(options.manifest),
    installed: inBinary(options.binary, ".rodata", `/${crate}-`, /^(\d+\.\d+\.\d+[^/]*)\/src\//),
    installedIn: `${shown(options.binary)} (its source paths)`,
    absent: "not built",
    registry: "crates",
  }));
}

/** Where a shaded jar says which version of an artifact it holds: the artifact's Maven properties
 *  (META-INF/maven/<group>/<artifact>/pom.properties), or, for an SDK built without them, a class
 *  whose one version-shaped string constant is the SDK's own version. */
export type JarVersion = { properties: true } | { classConstant: string };

/** A Maven artifact: the pom's <version> for it, and the built jar's own record of it. */
export function mavenArtifact(group: string, artifact: string, options: { pom: string; jar: string; in: JarVersion }): VersionSource {
  return once(() => {
    const pin = new RegExp(`<groupId>\\s*${escape(group)}\\s*</groupId>\\s*<artifactId>\\s*${escape(artifact)}\\s*</artifactId>\\s*<version>\\s*([^<\\s]+)\\s*</version>`);
    const entry = "properties" in options.in ? `META-INF/maven/${group}/${artifact}/pom.properties` : options.in.classConstant;
    const bytes = jarEntry(options.jar, entry);
    const installed =
      bytes === undefined
        ? undefined
        : "properties" in options.in
          ? bytes.toString("utf8").match(/^version=(\S+)$/m)?.[1]
          : classStrings(bytes).find((s) => /^\d+\.\d+\.\d+\S*$/.test(s));
    return {
      package: `${group}:${artifact}`,
      pinned: readText(options.pom)?.match(pin)?.[1],
      pinnedIn: shown(options.pom),
      installed,
      installedIn: `${shown(options.jar)}!/${entry}`,
      absent: "not built",
      registry: "maven",
    };
  });
}

/** One line per package whose install differs from its pin, naming every peer whose label it is in. */
export function versionMismatches(peers: readonly { role: string; name: string; sdk: SdkLabel | string }[]): string[] {
  const named = new Map<string, string[]>();
  for (const peer of peers) {
    for (const line of (typeof peer.sdk === "string" ? [] : peer.sdk.versions()).map(versionMismatch)) {
      if (line !== undefined) named.set(line, [...(named.get(line) ?? []), `${peer.role} ${peer.name}`]);
    }
  }
  return [...named].map(([line, who]) => `${who.join(", ")}: ${line}`);
}
