// Just enough XML for S3 responses, without DOMParser (absent in Node) or a
// dependency: S3 answers are flat, tag names never repeat at different
// depths within one block, and text is entity-escaped (never CDATA).

/** The raw inner text of every `<tag>...</tag>` in `xml`, in order. */
export function xmlBlocks(xml: string, tag: string): string[] {
  const pattern = new RegExp(`<${tag}>([\\s\\S]*?)</${tag}>`, "g");
  return [...xml.matchAll(pattern)].map((match) => match[1]);
}

/** The decoded text of the first `<tag>` in `xml`, or undefined. */
export function xmlText(xml: string, tag: string): string | undefined {
  const [first] = xmlBlocks(xml, tag);
  return first === undefined ? undefined : decodeEntities(first);
}

/** The decoded text of every `<tag>` in `xml`. */
export function xmlTexts(xml: string, tag: string): string[] {
  return xmlBlocks(xml, tag).map(decodeEntities);
}

const NAMED: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };

export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[a-z]+);/g, (entity, name: string) => {
    if (name.startsWith("#x")) return String.fromCodePoint(Number.parseInt(name.slice(2), 16));
    if (name.startsWith("#")) return String.fromCodePoint(Number.parseInt(name.slice(1), 10));
    return NAMED[name] ?? entity;
  });
}

export function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&${Object.keys(NAMED).find((name) => NAMED[name] === c)};`);
}
