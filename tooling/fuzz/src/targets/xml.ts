// Target 5: XML documents from servers. S3 ListObjectsV2 pages and error
// documents written from random entries (keys with characters XML escapes,
// character references, CDATA, comments, attributes, common prefixes,
// continuation tokens), then mutated: bit flips, byte overwrites, truncation,
// hostile fragments inserted (a DOCTYPE with entities, references that are
// no character, unclosed and mismatched tags) and fragments repeated up to
// 20,000 times (a quadratic reader shows as a hang). Each document is
// read by the XML reader of @zarrkit/http and listed through
// S3Store (which also checks keys against its prefix, tokens and pages).
// XML carries no checksum: any parsed result may differ; only untyped errors,
// hangs and memory count as failures.
import { concatBytes } from "@zarrkit/util";
import { parseXml, type XmlElement, xmlChildren, xmlChildText } from "@zarrkit/http";
import { S3Store } from "@zarrkit/store-s3";
import fc from "fast-check";
import { classify, combine, itemAt, type Outcome } from "../contract.js";
import type { FuzzTarget } from "../target.js";

export interface XmlEntry {
  /** Key below the prefix "p/", as code points. */
  key: number[];
  /** How the key is written: escaped text, character references, or CDATA. */
  form: "text" | "refs" | "cdata";
}

export type XmlMutation =
  | { op: "flip"; pos: number; bit: number }
  | { op: "overwrite"; pos: number; bytes: number[] }
  | { op: "truncate"; keep: number }
  | { op: "insert"; pos: number; fragment: number }
  | { op: "repeat"; fragment: number; times: number };

export interface XmlCase {
  kind: "listing" | "error";
  entries: XmlEntry[];
  prefixes: string[];
  /** A continuation token: the page says it is truncated. */
  token: string | undefined;
  comment: boolean;
  mutations: XmlMutation[];
}

/** Fragments a hostile or broken server might send. */
const FRAGMENTS = [
  "<!DOCTYPE r [<!ENTITY a 'aaaaaaaaaa'><!ENTITY b '&a;&a;&a;&a;&a;&a;&a;&a;'>]>",
  "&#x110000;",
  "&#0;",
  "&#xD800;",
  "&#99999999999999999999;",
  "&b;",
  "&",
  "<Contents>",
  "<Contents><Key>p/k",
  "</Contents>",
  "<Contents><Size>1</Size></Contents>",
  "<Contents><Key>other/zarr.json</Key></Contents>",
  "<CommonPrefixes><Prefix>q/</Prefix></CommonPrefixes>",
  "<IsTruncated>true</IsTruncated>",
  "<NextContinuationToken>t</NextContinuationToken>",
  "<![CDATA[",
  "]]>",
  "<!--",
  "<?x",
  "<a b='>",
  "\uFEFF",
  "\u0000",
  "<ListBucketResult>",
  "</ListBucketResult>",
];

// Key code points: letters, the characters XML escapes, controls, astral ones.
const codePointArb = fc.oneof(
  { weight: 6, arbitrary: fc.integer({ min: 0x61, max: 0x7a }) },
  { weight: 2, arbitrary: fc.constantFrom(0x26, 0x3c, 0x3e, 0x22, 0x27, 0x2f, 0x20, 0x09) },
  { weight: 1, arbitrary: fc.integer({ min: 0xa0, max: 0xd7ff }) },
  { weight: 1, arbitrary: fc.integer({ min: 0x10000, max: 0x10ffff }) },
);

const entryArb: fc.Arbitrary<XmlEntry> = fc.record({
  key: fc.array(codePointArb, { minLength: 1, maxLength: 12 }),
  form: fc.constantFrom("text" as const, "refs" as const, "cdata" as const),
});

const posArb = fc.nat({ max: 2 ** 20 });
const mutationArb: fc.Arbitrary<XmlMutation> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({ op: fc.constant("flip" as const), pos: posArb, bit: fc.integer({ min: 0, max: 7 }) }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      op: fc.constant("overwrite" as const),
      pos: posArb,
      bytes: fc.array(fc.nat({ max: 255 }), { minLength: 1, maxLength: 6 }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ op: fc.constant("truncate" as const), keep: posArb }) },
  {
    weight: 4,
    arbitrary: fc.record({
      op: fc.constant("insert" as const),
      pos: posArb,
      fragment: fc.nat({ max: FRAGMENTS.length - 1 }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      op: fc.constant("repeat" as const),
      fragment: fc.nat({ max: FRAGMENTS.length - 1 }),
      times: fc.oneof(fc.integer({ min: 1, max: 100 }), fc.integer({ min: 1000, max: 20_000 })),
    }),
  },
);

const xmlCaseArb: fc.Arbitrary<XmlCase> = fc.record({
  kind: fc.constantFrom("listing" as const, "listing" as const, "error" as const),
  entries: fc.array(entryArb, { minLength: 0, maxLength: 8 }),
  prefixes: fc.array(fc.stringMatching(/^[a-z]{1,6}$/), { minLength: 0, maxLength: 3 }),
  token: fc.option(fc.stringMatching(/^[A-Za-z0-9+/=]{1,20}$/), { nil: undefined, freq: 5 }),
  comment: fc.boolean(),
  mutations: fc.array(mutationArb, { minLength: 0, maxLength: 3 }),
});

const escapeText = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.codePointAt(0)};`);

function writeKey(entry: XmlEntry): string {
  const text = `p/${String.fromCodePoint(...entry.key)}`;
  if (entry.form === "refs") return [...text].map((c) => `&#x${c.codePointAt(0)!.toString(16)};`).join("");
  if (entry.form === "cdata") return `<![CDATA[${text.replaceAll("]]>", "]]]]><![CDATA[>")}]]>`;
  return escapeText(text);
}

/** The document as a well-behaved server writes it, and the keys it lists (in order). */
export function xmlDocument(c: XmlCase): { text: string; keys: string[] } {
  const keys = c.entries.map((e) => `p/${String.fromCodePoint(...e.key)}`);
  if (c.kind === "error") {
    const message = keys.map(escapeText).join(", ");
    return {
      text:
        `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>SlowDown</Code>` +
        `<Message>${message}</Message><RequestId>r1</RequestId></Error>`,
      keys: [],
    };
  }
  const parts = [
    '<?xml version="1.0" encoding="UTF-8"?>\n<ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/">',
    "<Name>bkt</Name><Prefix>p/</Prefix>",
  ];
  parts.push(
    c.token === undefined
      ? "<IsTruncated>false</IsTruncated>"
      : `<IsTruncated>true</IsTruncated><NextContinuationToken>${c.token}</NextContinuationToken>`,
  );
  if (c.comment) parts.push("<!-- listed <Contents> -->");
  for (const entry of c.entries)
    parts.push(
      `<Contents>\n  <Key>${writeKey(entry)}</Key><Size>1</Size><StorageClass>STANDARD</StorageClass></Contents>`,
    );
  for (const prefix of c.prefixes) parts.push(`<CommonPrefixes><Prefix>p/${prefix}/</Prefix></CommonPrefixes>`);
  parts.push("</ListBucketResult>");
  return { text: parts.join(""), keys };
}

function mutate(original: Uint8Array, mutations: readonly XmlMutation[]): Uint8Array {
  let bytes = original;
  const encoder = new TextEncoder();
  for (const m of mutations) {
    if (m.op === "repeat") {
      const fragment = encoder.encode(itemAt(FRAGMENTS, m.fragment).repeat(m.times));
      const at = bytes.lastIndexOf(0x3c); // before the closing tag
      bytes = concatBytes([bytes.subarray(0, Math.max(0, at)), fragment, bytes.subarray(Math.max(0, at))]);
      continue;
    }
    if (m.op === "insert") {
      const p = bytes.length === 0 ? 0 : m.pos % (bytes.length + 1);
      bytes = concatBytes([bytes.subarray(0, p), encoder.encode(itemAt(FRAGMENTS, m.fragment)), bytes.subarray(p)]);
      continue;
    }
    if (bytes.length === 0) continue;
    const p = (m.op === "truncate" ? m.keep : m.pos) % bytes.length;
    bytes = bytes.slice();
    if (m.op === "flip") bytes[p] = itemAt(bytes, p) ^ (1 << m.bit);
    else if (m.op === "overwrite") bytes.set(m.bytes.slice(0, bytes.length - p), p);
    else bytes = bytes.slice(0, p);
  }
  return bytes;
}

/** Every key a parsed listing holds, in document order (what a reader of the tree would see). */
function listed(root: XmlElement): string[] {
  return xmlChildren(root, "Contents").map((contents) => xmlChildText(contents, "Key") ?? "(no key)");
}

export const xmlTarget: FuzzTarget<XmlCase> = {
  name: "xml",
  description:
    "S3 listings and error documents (escaped keys, references, CDATA) mutated and with hostile fragments, read by " +
    "the XML reader and listed by S3Store",
  arbitrary: xmlCaseArb,
  async run(c, dump) {
    const { text, keys } = xmlDocument(c);
    const bytes = mutate(new TextEncoder().encode(text), c.mutations);
    if (dump) dump(new Map([["document.xml", bytes]]));
    const document = new TextDecoder().decode(bytes);
    const outcomes: Outcome[] = [];
    // XML has no checksum: a mutated document may read as another one.
    outcomes.push(
      await classify(
        "parseXml",
        async () => parseXml(document, "a fuzzed document"),
        (root) =>
          root.name === (c.kind === "error" ? "Error" : "ListBucketResult") &&
          (c.kind === "error" || listed(root).join("\n") === keys.join("\n")),
        true,
        (root) => `<${root.name}> listing ${listed(root).length} keys`,
      ),
    );
    // The same document as every page S3Store asks for: a truncated page repeats its token on the next, which must end
    // the listing.
    const fetch: typeof globalThis.fetch = async () =>
      new Response(bytes.slice(), {
        status: c.kind === "error" ? 503 : 200,
        headers: { "Content-Type": "application/xml" },
      });
    const store = new S3Store({
      bucket: "bkt",
      prefix: "p",
      endpoint: "http://127.0.0.1:9",
      anonymous: true,
      retries: 0,
      maxListPages: 3,
      fetch,
    });
    outcomes.push(
      await classify(
        "S3Store.listDir",
        () => store.listDir(""),
        (result) => result.keys.join("\n") === keys.map((k) => k.slice(2)).join("\n") && c.token === undefined,
        true,
        (result) => `${result.keys.length} keys, ${result.prefixes.length} prefixes`,
      ),
    );
    return { outcome: combine(outcomes) };
  },
};
