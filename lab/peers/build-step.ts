// One step of building a stdio child (e.g. Node capturing a V8 snapshot), with a bound and the
// step's output in the error. Shared by lab/peers/ts1/child-build.ts and lab/peers/ts2/build.ts.
import { spawn } from "node:child_process";
import { PROJECT_ROOT } from "../paths.js";

export const BUILD_BOUND_MS = 120_000;
const cwd = PROJECT_ROOT;

/** Runs one build command within BUILD_BOUND_MS; rejects with its output if it fails. */
export function runBuildStep(command: string, args: string[], reason: string): Promise<void> {
  const child = spawn(command, args, { cwd, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
  return new Promise<void>((resolvePromise, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`building the stdio child (${reason}) took longer than ${BUILD_BOUND_MS} ms; run npm run build:child`));
    }, BUILD_BOUND_MS);
    child.on("error", (error) => {
      clearTimeout(timer);
      reject(new Error(`could not start ${command} to build the stdio child: ${error.message}`));
    });
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolvePromise();
      else reject(new Error(`building the stdio child (${reason}) failed (exit ${code ?? signal}); run npm run build:child:\n${output.slice(-4000)}`));
    });
  });
}
