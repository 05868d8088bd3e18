// One XML reader for the documents HTTP stores receive (S3's listings, error
// documents and multipart answers; any other service speaking XML). Not
// DOMParser, which Node lacks, and no dependency. A server's document is
// untrusted input, so the reader is:
// - linear in its input: one pass, each character looked at a bounded number
//   of times (no backtracking regex over the whole text, no rescans);
// - bounded: no DTD, so no entity declarations to expand (a DOCTYPE is
//   refused), only the five predefined entities and character references,
//   each checked to be an XML character; nesting at most `maxDepth` deep;
// - strict: every malformed document is a StoreError naming what and where,
//   never a RangeError or TypeError from deep inside.
import { StoreError } from "@zarrkit/registry";

/**
 * An element: its name (with any namespace prefix), child elements in order, and its text (entities decoded, CDATA as
 * is).
 */
export interface XmlElement {
  /** The element's tag name. */
  name: string;
  /** Its child elements, in document order. */
  children: XmlElement[];
  /** The element's own text, its children's text not included. */
  text: string;
}

/** Bounds on a document. */
export interface XmlLimits {
  /** Deepest nesting accepted (the root is depth 1). Default 64. */
  maxDepth?: number;
  /** Most elements accepted. Default 2^20 (S3 pages hold at most 1000 entries of a few elements each). */
  maxElements?: number;
  /**
   * The document may be cut short (an error document read only up to a cap):
   * elements still open at the end are closed there rather than refused.
   */
  partial?: boolean;
}

const DEFAULT_DEPTH = 64;
const DEFAULT_ELEMENTS = 2 ** 20;
/** The longest entity reference read (`&#x10FFFF;` is 10): longer is malformed, so `&` never starts a long scan. */
const MAX_ENTITY_LENGTH = 12;
const NAMED: ReadonlyMap<string, string> = new Map([
  ["amp", "&"],
  ["lt", "<"],
  ["gt", ">"],
  ["quot", '"'],
  ["apos", "'"],
]);

/**
 * The root element of `xml`. `what` names the document in errors ("the
 * listing of s3://bucket/prefix"). A malformed document — unclosed or
 * mismatched tags, text outside the root, a DOCTYPE, an unknown entity, a
 * character reference that is not an XML character, nesting past `maxDepth`
 * — is a StoreError saying what and at which character.
 */
export function parseXml(xml: string, what: string, limits: XmlLimits = {}): XmlElement {
  const maxDepth = limits.maxDepth ?? DEFAULT_DEPTH;
  const maxElements = limits.maxElements ?? DEFAULT_ELEMENTS;
  const fail = (at: number, problem: string): never => {
    throw new StoreError(`Malformed XML in ${what} at character ${at}: ${problem}.`);
  };
  // Open elements, innermost last; their text grows by concatenation (V8 joins the pieces once, when read).
  const stack: XmlElement[] = [];
  let root: XmlElement | undefined;
  let elements = 0;
  let i = xml.charCodeAt(0) === 0xfeff ? 1 : 0;
  const name = (at: number): string => {
    let end = at;
    while (end < xml.length && isNameChar(xml.charCodeAt(end), end === at)) end++;
    return end > at ? xml.slice(at, end) : fail(at, "a name was expected");
  };
  const space = (at: number): number => {
    let end = at;
    while (end < xml.length && isSpace(xml.charCodeAt(end))) end++;
    return end;
  };
  const addText = (text: string, at: number) => {
    const open = stack[stack.length - 1];
    if (open) open.text += text;
    else if (space(at) < at + text.length)
      fail(at, root ? "text after the root element" : "text before the root element");
  };
  while (i < xml.length) {
    const lt = xml.indexOf("<", i);
    const textEnd = lt < 0 ? xml.length : lt;
    if (textEnd > i) addText(decodeText(xml, i, textEnd, fail), i);
    if (lt < 0) break;
    i = lt;
    const next = xml.charCodeAt(i + 1);
    if (next === 0x3f /* ? */) {
      const end = xml.indexOf("?>", i + 2);
      if (end < 0) fail(i, "an unclosed processing instruction");
      i = end + 2;
    } else if (next === 0x21 /* ! */) {
      if (xml.startsWith("<!--", i)) {
        const end = xml.indexOf("-->", i + 4);
        if (end < 0) fail(i, "an unclosed comment");
        i = end + 3;
      } else if (xml.startsWith("<![CDATA[", i)) {
        const end = xml.indexOf("]]>", i + 9);
        if (end < 0) fail(i, "an unclosed CDATA section");
        if (stack.length === 0) fail(i, "CDATA outside the root element");
        addText(xml.slice(i + 9, end), i);
        i = end + 3;
      } else {
        fail(i, "a DOCTYPE or declaration (not accepted: entities are not expanded)");
      }
    } else if (next === 0x2f /* / */) {
      const closing = name(i + 2);
      const after = space(i + 2 + closing.length);
      if (xml.charCodeAt(after) !== 0x3e) fail(after, `">" was expected to end </${closing}`);
      const open = stack.pop();
      if (!open) fail(i, `</${closing}> closes no element`);
      if (open!.name !== closing) fail(i, `</${closing}> closes <${open!.name}>`);
      i = after + 1;
    } else {
      const opening = name(i + 1);
      if (root && stack.length === 0) fail(i, `a second root element <${opening}>`);
      if (stack.length >= maxDepth) fail(i, `elements nested more than ${maxDepth} deep`);
      if (++elements > maxElements) fail(i, `more than ${maxElements} elements`);
      const element: XmlElement = { name: opening, children: [], text: "" };
      const parent = stack[stack.length - 1];
      if (parent) parent.children.push(element);
      else root = element;
      const at = i + 1 + opening.length;
      // The common case, no attributes: ">" or "/>" right after the name.
      const c = xml.charCodeAt(at);
      i = c === 0x3e || (c === 0x2f && xml.charCodeAt(at + 1) === 0x3e) ? at : attributes(xml, at, name, space, fail);
      if (xml.charCodeAt(i) === 0x2f) i += 2;
      else {
        stack.push(element);
        i += 1;
      }
    }
  }
  const open = stack[stack.length - 1];
  if (open && !limits.partial) fail(xml.length, `<${open.name}> is never closed`);
  return root ?? fail(xml.length, "no root element");
}

/**
 * XML's name characters (ASCII letters, digits, "_", ":", "-", "." and everything from U+00B7 up), a digit, "-" or "."
 * not first.
 */
function isNameChar(code: number, first: boolean): boolean {
  if (
    (code >= 0x61 && code <= 0x7a) ||
    (code >= 0x41 && code <= 0x5a) ||
    code === 0x5f ||
    code === 0x3a ||
    code >= 0xc0
  )
    return true;
  return !first && ((code >= 0x30 && code <= 0x39) || code === 0x2d || code === 0x2e || code === 0xb7);
}

function isSpace(code: number): boolean {
  return code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d;
}

/** Skip the attributes of a start tag from `at`; returns the index of its "/>" or ">". */
function attributes(
  xml: string,
  at: number,
  name: (at: number) => string,
  space: (at: number) => number,
  fail: (at: number, problem: string) => never,
): number {
  let i = at;
  for (;;) {
    const next = space(i);
    if (xml.startsWith("/>", next) || xml[next] === ">") return next;
    if (next === i)
      fail(next, next >= xml.length ? "an unclosed start tag" : 'a space, ">" or "/>" was expected in a start tag');
    const attribute = name(next);
    i = space(next + attribute.length);
    if (xml[i] !== "=") fail(i, `"=" was expected after the attribute ${attribute}`);
    i = space(i + 1);
    const quote = xml[i];
    if (quote !== '"' && quote !== "'") fail(i, `a quoted value was expected for the attribute ${attribute}`);
    const end = xml.indexOf(quote!, i + 1);
    if (end < 0) fail(i, `the value of the attribute ${attribute} is never closed`);
    if (xml.slice(i + 1, end).includes("<")) fail(i, `"<" in the value of the attribute ${attribute}`);
    i = end + 1;
  }
}

/**
 * Text between markup, entities decoded and checked (searching within the text only, so the whole pass stays linear).
 */
function decodeText(xml: string, start: number, end: number, fail: (at: number, problem: string) => never): string {
  const text = xml.slice(start, end);
  let amp = text.indexOf("&");
  if (amp < 0) return text;
  const parts: string[] = [];
  let from = 0;
  while (amp >= 0) {
    parts.push(text.slice(from, amp));
    const semicolon = text.indexOf(";", amp + 1);
    if (semicolon < 0 || semicolon - amp > MAX_ENTITY_LENGTH)
      fail(start + amp, '"&" starts no entity reference (write &amp;)');
    parts.push(entity(text.slice(amp + 1, semicolon), start + amp, fail));
    from = semicolon + 1;
    amp = text.indexOf("&", from);
  }
  parts.push(text.slice(from));
  return parts.join("");
}

function entity(name: string, at: number, fail: (at: number, problem: string) => never): string {
  const named = NAMED.get(name);
  if (named !== undefined) return named;
  const match = /^#(?:x([0-9a-fA-F]{1,8})|([0-9]{1,10}))$/.exec(name);
  if (!match) return fail(at, `the entity &${name}; is not one of XML's five (no DTD is read)`);
  const code = match[1] !== undefined ? Number.parseInt(match[1], 16) : Number(match[2]);
  if (!isXmlChar(code)) fail(at, `&${name}; is not an XML character`);
  return String.fromCodePoint(code);
}

/**
 * XML 1.0's Char production: tab, newline, carriage return, and the code points above 0x1F but surrogates, 0xFFFE and
 * 0xFFFF.
 */
function isXmlChar(code: number): boolean {
  return (
    code === 0x9 ||
    code === 0xa ||
    code === 0xd ||
    (code >= 0x20 && code <= 0xd7ff) ||
    (code >= 0xe000 && code <= 0xfffd) ||
    (code >= 0x10000 && code <= 0x10ffff)
  );
}

/** The first child element called `name`, if any. */
export function xmlChild(element: XmlElement, name: string): XmlElement | undefined {
  return element.children.find((child) => child.name === name);
}

/** Every child element called `name`, in order. */
export function xmlChildren(element: XmlElement, name: string): XmlElement[] {
  return element.children.filter((child) => child.name === name);
}

/** The text of the first child element called `name`, if there is one. */
export function xmlChildText(element: XmlElement, name: string): string | undefined {
  return xmlChild(element, name)?.text;
}

/** `text` escaped for XML text and attribute values. */
export function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (c) =>
    c === "&" ? "&amp;" : c === "<" ? "&lt;" : c === ">" ? "&gt;" : c === '"' ? "&quot;" : "&apos;",
  );
}
