// What varies between two honest runs of one command, erased from a line of its output: times,
// durations, pids, temp paths, ids (the list: normalise.ts). Nothing else: versions and limits stay.
import { tmpdir } from "node:os";

const TEMP = new RegExp(`(?:${[...new Set([tmpdir(), "/tmp"])].map((dir) => dir.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|")})/[^\\s"'\`),]+`, "g");

/** One line with what varies from run to run erased: normalise.ts's rules before spaces collapse,
 *  and a picture's texts (pictures.ts). */
export function eraseVarying(line: string): string {
  return (
    line
      .replace(/\bpid\b(["']?\s*[:=]?\s*)\d+/gi, "pid$1<pid>")
      .replace(TEMP, "<tmp>")
      // a moment (a release list's listing time)
      .replace(/\b\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z\b/g, "<time>")
      .replace(/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi, "<uuid>")
      // the time column: a swimlane's or report's line, a wire table's second cell
      .replace(/^(\s*)\d+\.\d+(?=\s|$)/, "$1<n>")
      .replace(/^(\|\s*\d+\s*\|\s*)\d+\.\d+(?=\s*\|)/, "$1<n>")
      // durations, not limits: a number of ms or s unless "limit" stands just before or after it
      .replace(/(?<!\blimit\s)\b\d+(?:\.\d+)?(?=\s*ms\b(?!\s+(?:limit|backstop)\b))/g, "<n>")
      .replace(/\(\d+(?:\.\d+)? s\)/g, "(<n> s)")
      .replace(/\b(in|after|time) \d+(?:\.\d+)?(?= s\b(?!\s+(?:limit|backstop)\b))/g, "$1 <n>")
      .replace(/\(\d+(?:\.\d+)? callbacks\)/g, "(<n> callbacks)")
      .replace(/ after <n> ms in queue/g, "")
  );
}
