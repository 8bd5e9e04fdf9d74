// Run output lands in run-output/, written atomically (temp file + rename) so a reader never
// sees half a file, and written whatever the verdicts say.
import { mkdirSync, renameSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";

export { RUN_OUTPUT_DIR } from "../paths.js";

export function writeAtomic(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  const temp = `${path}.${process.pid}.tmp`;
  writeFileSync(temp, text);
  renameSync(temp, path);
}

export function writeJsonAtomic(path: string, data: unknown): void {
  writeAtomic(path, `${JSON.stringify(data, null, 2)}\n`);
}

export function runOutputPath(dir: string, scenario: string, dispatch: string, suffix = ""): string {
  return join(dir, `${scenario}.${dispatch}${suffix}.json`);
}
