// Just enough XML for S3 responses, without DOMParser (absent in Node) or a
// dependency: S3 answers are flat, tag names never repeat at different
// depths within one block, and text is entity-escaped (never CDATA).

/** The raw inner text of every `<tag>...</tag>` in `xml`, in order. */
export function xmlBlocks(xml: string, tag: string): string[] {
  const pattern = new RegExp(`<${tag}>([\\s\\S]*?)</${tag}>`, "g");
  // Group 1 is not optional: it takes part in every match (possibly empty).
  return [...xml.matchAll(pattern)].map((match) => match[1]!);
}

/** The decoded text of the first `<tag>` in `xml`, or undefined. */
export function xmlText(xml: string, tag: string): string | undefined {
  const [first] = xmlBlocks(xml, tag);
  return first === undefined ? undefined : decodeEntities(first);
}

// A Map: an entity name from a server ("&constructor;") must not find Object.prototype.
const NAMED: ReadonlyMap<string, string> = new Map([
  ["amp", "&"],
  ["lt", "<"],
  ["gt", ">"],
  ["quot", '"'],
  ["apos", "'"],
]);

export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[a-z]+);/g, (entity, name: string) => {
    if (name.startsWith("#x")) return String.fromCodePoint(Number.parseInt(name.slice(2), 16));
    if (name.startsWith("#")) return String.fromCodePoint(Number.parseInt(name.slice(1), 10));
    return NAMED.get(name) ?? entity;
  });
}

export function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&${[...NAMED].find(([, char]) => char === c)![0]};`);
}
