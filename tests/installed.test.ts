// Every peer's label says the version installed (lab/peers/installed.ts), and `peers --strict` fails
// when an install differs from its pin. The mismatches are planted in pin files of a temp folder,
// read by the same readers against the real installs (a venv, node_modules, the Go and Rust binaries,
// a jar): nothing installed is touched.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { BUILD_DIR, LAB_DIR, PROJECT_ROOT, PY1_VENV_DIR } from "../lab/paths.js";
import { GO_CLIENT, GO_CLIENT_BINARY } from "../lab/peers/go/index.js";
import { goModule, mavenArtifact, npmPackage, pythonDist, rustCrate, sdkLabel, versionMismatch, versionMismatches, type VersionSource } from "../lab/peers/installed.js";
import { binarySection, classStrings, jarEntry } from "../lab/peers/artefacts.js";
import { JAVA_CLIENT, KOTLIN_014_CLIENT } from "../lab/peers/jvm/index.js";
import { jvmJar } from "../lab/peers/jvm/build.js";
import { PY1_CLIENT } from "../lab/peers/py1/index.js";
import { LISTED_CLIENT_PEERS, registerClient, SERVER_PEERS } from "../lab/peers/registry.js";
import { RMCP_CLIENT } from "../lab/peers/rmcp/index.js";
import { TS1_CLIENT } from "../lab/peers/ts1/index.js";
import { sdkText, type ClientPeer } from "../lab/plan/peer.js";
import { runMain } from "./support/cli.js";
import { needs } from "./support/needs.js";

const REAL = [...LISTED_CLIENT_PEERS.map((p) => ({ role: "client", name: p.name, sdk: p.sdk })), ...SERVER_PEERS.map((p) => ({ role: "server", name: p.name, sdk: p.sdk }))];
const RMCP_BINARY = join(BUILD_DIR, "rmcp-target", "release", "rmcp-client");
const KOTLIN_LIB_VERSION = "io/modelcontextprotocol/kotlin/sdk/LibVersionKt.class";

test("every peer's label is read from its install, not typed in", () => {
  assert.equal(REAL.filter((p) => typeof p.sdk === "string").map((p) => `${p.role} ${p.name}`), []);
});

test("a label is read on first use, once, and a peer spread into another reads nothing", () => {
  let reads = 0;
  const source: VersionSource = () => (reads++, { package: "x", pinned: "1.0.0", pinnedIn: "p", installed: "1.0.0", installedIn: "i", absent: "not built" });
  const label = sdkLabel("x {} (on y {})", source, [source, source]);
  const peer = { ...{ name: "spread", sdk: label } };
  assert.is(reads, 0);
  assert.is(sdkText(peer.sdk), "x 1.0.0 (on y 1.0.0)");
  const after = reads;
  assert.is(sdkText(peer.sdk), "x 1.0.0 (on y 1.0.0)");
  assert.is(reads, after, "the text is kept");
});

test("a slot of two packages shows one version when they agree, both when not; a missing one is said with its pin", () => {
  const v = (installed: string | undefined): VersionSource => () => ({ package: "p", pinned: "2.4.0", pinnedIn: "a", installed, installedIn: "b", absent: "not built" });
  assert.is(sdkLabel("c+s {}", [v("2.4.0"), v("2.4.0")]).text, "c+s 2.4.0");
  assert.is(sdkLabel("c+s {}", [v("2.4.0"), v("2.4.1")]).text, "c+s 2.4.0/2.4.1");
  assert.is(sdkLabel("c+s {}", [v("2.4.0"), v(undefined)]).text, "c+s not built (pins 2.4.0)");
  assert.is(versionMismatch(v(undefined)()), undefined, "not built: the peer is unavailable, not mismatched");
});

test("the real installs agree with their pins (the labels show the pinned versions)", () => {
  assert.equal(versionMismatches(REAL), []);
  assert.is(sdkText(TS1_CLIENT.sdk), `@modelcontextprotocol/sdk ${JSON.parse(readFileSync(join(PROJECT_ROOT, "node_modules", "@modelcontextprotocol", "sdk", "package.json"), "utf8")).version}`);
});

// each build's label, against the artefact it was read from
needs(PY1_CLIENT)("py1's label is its venv's METADATA", () => {
  const [mcp] = typeof PY1_CLIENT.sdk === "string" ? [] : PY1_CLIENT.sdk.versions();
  assert.match(mcp!.installedIn, /^\.venv-py1\/lib\/python3\.\d+\/site-packages\/mcp-[^/]+\.dist-info\/METADATA$/);
  assert.is(sdkText(PY1_CLIENT.sdk), `mcp (Python SDK) ${readFileSync(join(PROJECT_ROOT, mcp!.installedIn), "utf8").match(/^Version: (\S+)$/m)![1]}`);
});

needs([KOTLIN_014_CLIENT, JAVA_CLIENT])("the JVM labels are the jars': the Kotlin SDK's LIB_VERSION, the Java SDK's pom.properties", () => {
  assert.ok(classStrings(jarEntry(jvmJar("kotlin-0.14"), KOTLIN_LIB_VERSION)!).includes("0.14.0"));
  assert.match(jarEntry(jvmJar("java"), "META-INF/maven/io.modelcontextprotocol.sdk/mcp/pom.properties")!.toString("utf8"), /^version=2\.0\.1$/m);
  assert.is(sdkText(KOTLIN_014_CLIENT.sdk), "io.modelcontextprotocol:kotlin-sdk-client 0.14.0");
  assert.is(jarEntry(jvmJar("java"), "META-INF/maven/no/such/pom.properties"), undefined);
});

test("a file that is not a jar, or no file, reads as nothing, not a throw", () => {
  const dir = mkdtempSync(join(tmpdir(), "lab-jar-"));
  try {
    writeFileSync(join(dir, "x.jar"), "not a zip at all");
    assert.is(jarEntry(join(dir, "x.jar"), "META-INF/MANIFEST.MF"), undefined);
    assert.is(jarEntry(join(dir, "none.jar"), "META-INF/MANIFEST.MF"), undefined);
    assert.equal(classStrings(Buffer.from("not a class")), []);
    assert.is(binarySection(join(dir, "x.jar"), ".go.buildinfo")?.toString(), "not a zip at all", "not an ELF: read whole");
    assert.is(binarySection(join(dir, "none"), ".rodata"), undefined);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

needs(GO_CLIENT)("a Go binary's module list is read from its .go.buildinfo section alone", () => {
  const section = binarySection(GO_CLIENT_BINARY, ".go.buildinfo")!;
  assert.ok(section.length < 64 * 1024, `${section.length} bytes`);
  assert.match(section.toString("latin1"), /\tgithub\.com\/modelcontextprotocol\/go-sdk\tv\d/);
});

test("a peer not built says so in its label, with its pin", () => {
  const label = sdkLabel("go-sdk (Go SDK) {}", goModule("github.com/modelcontextprotocol/go-sdk", { gomod: join(LAB_DIR, "peers", "go", "go.mod"), binary: join(tmpdir(), "no-such-go-client") }));
  assert.match(label.text, /^go-sdk \(Go SDK\) not built \(pins v\d+\.\d+\.\d+\)$/);
});

// One toy client whose label reads the real installs against pins planted in a temp folder.
const planted = needs([PY1_CLIENT, GO_CLIENT, RMCP_CLIENT, KOTLIN_014_CLIENT]);
planted("peers --strict fails naming the peer, the label's version and the installed one, for each planted pin", async () => {
  const dir = mkdtempSync(join(tmpdir(), "lab-pins-"));
  const file = (name: string, text: string) => (writeFileSync(join(dir, name), text), join(dir, name));
  try {
    const requirements = file("requirements.txt", "mcp==1.28.0 \\\n    --hash=sha256:00\n");
    file("package.json", JSON.stringify({ dependencies: { "@genkit-ai/mcp": "1.41.0" } }));
    const gomod = file("go.mod", "module x\n\nrequire (\n\tgithub.com/modelcontextprotocol/go-sdk v1.7.0\n)\n");
    const cargo = file("Cargo.toml", '[dependencies]\nrmcp = { version = "=3.10.0", default-features = false }\n');
    const pom = file("pom.xml", "<dependency><groupId>io.modelcontextprotocol</groupId><artifactId>kotlin-sdk-client-jvm</artifactId><version>0.13.0</version></dependency>");
    const toy: ClientPeer = {
      ...TS1_CLIENT,
      name: "toy-pins",
      sdk: sdkLabel(
        "toy {} {} {} {} {}",
        pythonDist({ dir: PY1_VENV_DIR, requirements }, "mcp"),
        npmPackage("@genkit-ai/mcp", { dir: PROJECT_ROOT, pins: dir }),
        goModule("github.com/modelcontextprotocol/go-sdk", { gomod, binary: GO_CLIENT_BINARY }),
        rustCrate("rmcp", { manifest: cargo, binary: RMCP_BINARY }),
        mavenArtifact("io.modelcontextprotocol", "kotlin-sdk-client-jvm", { pom, jar: jvmJar("kotlin-0.14"), in: { classConstant: KOTLIN_LIB_VERSION } }),
      ),
    };
    const before = await runMain(["peers", "--strict"]);
    assert.not.match(before.stderr, /version differs/);
    registerClient(toy);
    const r = await runMain(["peers", "--strict"]);
    assert.is(r.code, 1, r.stderr);
    // with every peer available, the planted pins alone fail it
    if (!before.stderr.includes("unavailable")) assert.is(before.code, 0, before.stderr);
    const lines = r.stderr.split("\n").filter((l) => l.includes("version differs"));
    const want: [string, RegExp][] = [
      ["mcp", /the label's version 1\.28\.0 \(\/.*requirements\.txt\), installed 1\.29\.0 \(\.venv-py1\/.*METADATA\)/],
      ["@genkit-ai/mcp", /the label's version 1\.41\.0 \(\/.*package\.json\), installed 1\.42\.0 \(node_modules\/@genkit-ai\/mcp\/package\.json\)/],
      ["github.com/modelcontextprotocol/go-sdk", /the label's version v1\.7\.0 \(\/.*go\.mod\), installed v1\.8\.0 \(build\/go-client \(its module list\)\)/],
      ["rmcp", /the label's version 3\.10\.0 \(\/.*Cargo\.toml\), installed 3\.11\.0 \(build\/rmcp-target\/release\/rmcp-client/],
      ["io.modelcontextprotocol:kotlin-sdk-client-jvm", /the label's version 0\.13\.0 \(\/.*pom\.xml\), installed 0\.14\.0 \(build\/jvm\/kotlin-0\.14\.jar!\/io\/modelcontextprotocol\/kotlin\/sdk\/LibVersionKt\.class\)/],
    ];
    for (const [name, pattern] of want) {
      const line = lines.find((l) => l.includes(`client toy-pins: ${name}: `));
      assert.ok(line, `no line for ${name} in:\n${r.stderr}`);
      assert.match(line!, /^error: version differs: client toy-pins: /);
      assert.match(line!, pattern);
    }
    assert.is(lines.length, want.length, "only the planted pins differ");
    // the label still shows what is installed
    assert.is(sdkText(toy.sdk), "toy 1.29.0 1.42.0 v1.8.0 3.11.0 0.14.0");
    const plain = await runMain(["peers"]);
    assert.ok(plain.stderr.includes("warning: version differs: client toy-pins: rmcp:"), plain.stderr);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
