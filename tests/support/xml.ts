// A minimal, strict XML well-formedness checker for the lab's SVG (no parser is installed).
// It accepts the subset the lab writes and rejects what a browser's XML parser would reject:
// unbalanced or crossed tags, unquoted or repeated attributes, `<` in values, unknown or bare
// entities, text or a second element after the root, characters XML 1.0 forbids. DOCTYPE
// declarations are refused outright (the lab never writes one). Returns the element tree.

export interface XmlElement {
  name: string;
  attrs: Record<string, string>;
  children: XmlElement[];
  /** decoded character data directly inside this element */
  text: string;
  line: number;
}

export class XmlError extends Error {}

const NAME = /[A-Za-z_:][A-Za-z0-9._:-]*/y;
const PREDEFINED: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };

const isXmlChar = (c: number) =>
  c === 0x9 || c === 0xa || c === 0xd || (c >= 0x20 && c <= 0xd7ff) || (c >= 0xe000 && c <= 0xfffd) || (c >= 0x10000 && c <= 0x10ffff);

export function parseXml(src: string): XmlElement {
  let i = 0;
  const where = () => {
    const before = src.slice(0, i);
    const line = before.split("\n").length;
    return `line ${line}, column ${i - before.lastIndexOf("\n")}`;
  };
  const fail = (message: string): never => {
    throw new XmlError(`${message} at ${where()}`);
  };
  for (const ch of src) if (!isXmlChar(ch.codePointAt(0)!)) fail(`character U+${ch.codePointAt(0)!.toString(16)} is not allowed in XML`);

  const startsWith = (s: string) => src.startsWith(s, i);
  const skipSpace = () => {
    while (i < src.length && " \t\r\n".includes(src[i]!)) i++;
  };
  const name = (): string => {
    NAME.lastIndex = i;
    const m = NAME.exec(src);
    if (!m) return fail("expected a name");
    i += m[0].length;
    return m[0];
  };
  /** Decodes character data or an attribute value, checking every `&`. */
  const decode = (raw: string, at: number): string =>
    raw.replace(/&([^;&\s<]*);?/g, (whole, body: string) => {
      if (!whole.endsWith(";")) {
        i = at;
        return fail(`bare '&' (write &amp;)`);
      }
      if (body in PREDEFINED) return PREDEFINED[body]!;
      const num = /^#([0-9]+)$/.exec(body) ?? /^#x([0-9a-fA-F]+)$/.exec(body);
      if (num) {
        const code = parseInt(num[1]!, body.startsWith("#x") ? 16 : 10);
        if (!isXmlChar(code)) {
          i = at;
          return fail(`character reference ${whole} is not an XML character`);
        }
        return String.fromCodePoint(code);
      }
      i = at;
      return fail(`unknown entity ${whole}`);
    });

  const misc = () => {
    for (;;) {
      skipSpace();
      if (startsWith("<!--")) comment();
      else if (startsWith("<?")) pi();
      else return;
    }
  };
  const comment = () => {
    const end = src.indexOf("-->", i + 4);
    if (end < 0) fail("unterminated comment");
    if (src.slice(i + 4, end).includes("--")) fail("'--' inside a comment");
    i = end + 3;
  };
  const pi = () => {
    i += 2;
    const target = name();
    if (target.toLowerCase() === "xml") fail("XML declaration is only allowed at the very start");
    const end = src.indexOf("?>", i);
    if (end < 0) fail("unterminated processing instruction");
    i = end + 2;
  };

  const element = (): XmlElement => {
    const line = src.slice(0, i).split("\n").length;
    i++; // <
    const tag = name();
    const attrs: Record<string, string> = {};
    for (;;) {
      const hadSpace = /\s/.test(src[i] ?? "");
      skipSpace();
      if (startsWith("/>")) {
        i += 2;
        return { name: tag, attrs, children: [], text: "", line };
      }
      if (startsWith(">")) {
        i++;
        break;
      }
      if (!hadSpace) fail("expected whitespace before an attribute");
      const attr = name();
      skipSpace();
      if (src[i] !== "=") fail(`attribute '${attr}' has no value`);
      i++;
      skipSpace();
      const quote = src[i];
      if (quote !== '"' && quote !== "'") fail(`value of '${attr}' is not quoted`);
      const end = src.indexOf(quote!, i + 1);
      if (end < 0) fail(`unterminated value of '${attr}'`);
      const raw = src.slice(i + 1, end);
      if (raw.includes("<")) fail(`'<' inside the value of '${attr}'`);
      if (attr in attrs) fail(`attribute '${attr}' repeated`);
      attrs[attr] = decode(raw, i + 1);
      i = end + 1;
    }
    const children: XmlElement[] = [];
    let text = "";
    for (;;) {
      if (i >= src.length) fail(`<${tag}> (line ${line}) is never closed`);
      if (startsWith("</")) {
        i += 2;
        const closing = name();
        if (closing !== tag) fail(`</${closing}> closes <${tag}> (opened at line ${line})`);
        skipSpace();
        if (src[i] !== ">") fail(`malformed end tag </${closing}`);
        i++;
        return { name: tag, attrs, children, text, line };
      }
      if (startsWith("<!--")) comment();
      else if (startsWith("<![CDATA[")) {
        const end = src.indexOf("]]>", i);
        if (end < 0) fail("unterminated CDATA section");
        text += src.slice(i + 9, end);
        i = end + 3;
      } else if (startsWith("<?")) pi();
      else if (startsWith("<!")) fail("declarations are not allowed here");
      else if (startsWith("<")) children.push(element());
      else {
        const end = src.indexOf("<", i);
        const raw = src.slice(i, end < 0 ? src.length : end);
        if (raw.includes("]]>")) fail("']]>' in character data");
        text += decode(raw, i);
        i += raw.length;
      }
    }
  };

  if (startsWith("<?xml")) {
    const end = src.indexOf("?>");
    if (end < 0) fail("unterminated XML declaration");
    if (!/^<\?xml\s+version="1\.[0-9]"(\s+encoding="[A-Za-z][A-Za-z0-9._-]*")?(\s+standalone="(yes|no)")?\s*\?>$/.test(src.slice(0, end + 2))) {
      fail("malformed XML declaration");
    }
    i = end + 2;
  }
  misc();
  if (startsWith("<!DOCTYPE")) fail("DOCTYPE is not supported by this checker");
  if (!startsWith("<")) fail("expected the root element");
  const root = element();
  misc();
  if (i < src.length) fail("content after the root element");
  return root;
}

/** Every element of the tree, depth first. */
export function allElements(root: XmlElement): XmlElement[] {
  return [root, ...root.children.flatMap(allElements)];
}

/** The element's text and all its descendants' text. */
export function textContent(e: XmlElement): string {
  return e.text + e.children.map(textContent).join("");
}

export const hasClass = (e: XmlElement, cls: string) => (e.attrs.class ?? "").split(/\s+/).includes(cls);
