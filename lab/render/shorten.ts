// Shortening a text for a picture or a swimlane line without cutting through a JSON token. The
// SDK echoes whole frames into some error texts ("Received a response for an unknown message
// ID: {...}"); cut at a fixed width, that reads `{"result":{"t`. Here the JSON part keeps its
// shape and its top-level keys, and what does not fit is elided whole: `{"result":{…},"id":3}`,
// then `{"result":{…},…}`, then `{…}`. Text without JSON is cut after a whole word.

const ELLIPSIS = "…";

/** JSON with everything deeper than `depth` levels elided as {…} or […]. */
function render(value: unknown, depth: number): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null";
  const list = Array.isArray(value);
  const entries = list ? value : Object.entries(value as Record<string, unknown>);
  if (entries.length === 0) return list ? "[]" : "{}";
  if (depth <= 0) return list ? `[${ELLIPSIS}]` : `{${ELLIPSIS}}`;
  const parts = list
    ? (value as unknown[]).map((v) => render(v, depth - 1))
    : (entries as [string, unknown][]).map(([k, v]) => `${JSON.stringify(k)}:${render(v, depth - 1)}`);
  return list ? `[${parts.join(",")}]` : `{${parts.join(",")}}`;
}

/** The top level only, as many whole entries as fit in `room`, the rest elided. */
function leading(value: object, room: number): string | undefined {
  const list = Array.isArray(value);
  const parts = list
    ? (value as unknown[]).map((v) => render(v, 0))
    : Object.entries(value as Record<string, unknown>).map(([k, v]) => `${JSON.stringify(k)}:${render(v, 0)}`);
  const [open, close] = list ? ["[", "]"] : ["{", "}"];
  for (let n = parts.length - 1; n >= 1; n--) {
    const text = `${open}${parts.slice(0, n).join(",")},${ELLIPSIS}${close}`;
    if (text.length <= room) return text;
  }
  return undefined;
}

function cutAtWord(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, Math.max(0, max - 1));
  const space = cut.lastIndexOf(" ");
  return `${(space > max / 2 ? cut.slice(0, space) : cut).trimEnd()}${ELLIPSIS}`;
}

/** At most `max` characters; JSON inside the text is elided whole, never cut mid-token. */
export function shortenText(text: string, max: number): string {
  if (text.length <= max) return text;
  const start = text.search(/[[{]/);
  if (start >= 0) {
    let value: unknown;
    try {
      value = JSON.parse(text.slice(start));
    } catch {
      value = undefined;
    }
    if (value !== undefined && value !== null && typeof value === "object") {
      const prefix = text.slice(0, start);
      const room = max - prefix.length;
      for (let depth = 3; depth >= 1; depth--) {
        const json = render(value, depth);
        if (json.length <= room) return prefix + json;
      }
      const some = leading(value, room);
      if (some) return prefix + some;
      const none = render(value, 0);
      if (none.length <= room) return prefix + none;
      return `${cutAtWord(prefix.trimEnd(), max - none.length - 1)} ${none}`;
    }
  }
  return cutAtWord(text, max);
}
