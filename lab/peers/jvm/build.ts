// The JVM peers' one Maven build (lab/peers/jvm/pom.xml: the Kotlin drivers, the Java SDK's and Spring AI's): a shaded jar per SDK into build/jvm/
// Maven's own output under build/jvm-target/. Offline first (-o: ~/.m2 already holds everything
// after the first build); online only when the offline build fails. One line per build (cached-build.ts).
import { join } from "node:path";
import { BUILD_DIR } from "../../paths.js";
import type { CachedBuild } from "../cached-build.js";

export const JVM_JAR_DIR = join(BUILD_DIR, "jvm");
export const jvmJar = (module: string) => join(JVM_JAR_DIR, `${module}.jar`);

const MVN = ["-B", "-q", "-f", "lab/peers/jvm/pom.xml", `-Dlab.build=${BUILD_DIR}`, "package"];

export const JVM_BUILD: CachedBuild = {
  name: "jvm",
  toolchain: ["mvn", "-v"],
  inputs: ["lab/peers/jvm/pom.xml", "lab/peers/jvm/kotlin", "lab/peers/jvm/kotlin-0.14", "lab/peers/jvm/kotlin-0.16", "lab/peers/jvm/java", "lab/peers/jvm/spring-ai"],
  outputs: [jvmJar("kotlin-0.14"), jvmJar("kotlin-0.16"), jvmJar("java"), jvmJar("spring-ai")],
  steps: [
    // `sh -c`: the offline try's failure is not an error, only the online one's is
    { command: "sh", args: ["-c", `mvn -o ${MVN.join(" ")} >/dev/null 2>&1 || mvn ${MVN.join(" ")}`] },
  ],
  boundMs: 900_000,
};
