import { describe, expect, it } from "vitest";
import { StoreError } from "@zarrkit/registry";
import { escapeXml, parseXml, xmlChild, xmlChildren, xmlChildText } from "../src/index.js";

const LISTING = `<?xml version="1.0" encoding="UTF-8"?>
<ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/">
  <Name>bkt</Name><Prefix>p/</Prefix><KeyCount>2</KeyCount><IsTruncated>false</IsTruncated>
  <!-- a comment, <Contents> in it is no element -->
  <Contents><Key>p/a &amp; b&lt;c&gt; &#x1F600;&#65;</Key><Size>1</Size></Contents>
  <Contents><Key><![CDATA[p/<raw> & ]]>more</Key></Contents>
  <CommonPrefixes><Prefix>p/c/</Prefix></CommonPrefixes>
  <Empty/><Attr a='x>y' b = "1"/>
</ListBucketResult>`;

/**
 * CPU milliseconds `run` takes (user and system): unlike the wall clock, not stretched by other work on a loaded
 * machine.
 */
function cpuMs(run: () => void): number {
  const start = process.cpuUsage();
  run();
  const { user, system } = process.cpuUsage(start);
  return (user + system) / 1000;
}

function parseError(xml: string, limits = {}): StoreError {
  try {
    parseXml(xml, "the test document", limits);
  } catch (error) {
    expect(error).toBeInstanceOf(StoreError);
    return error as StoreError;
  }
  throw new Error(`parsed: ${xml.slice(0, 80)}`);
}

describe("the XML reader for server documents (@zarrkit/http)", () => {
  it(
    "reads an S3 listing: elements, text with entities and character references, CDATA, comments, attributes, " +
      "empty elements",
    () => {
      const root = parseXml(`\uFEFF${LISTING}`, "a listing");
      expect(root.name).toBe("ListBucketResult");
      expect(xmlChildText(root, "Name")).toBe("bkt");
      expect(xmlChildren(root, "Contents").map((c) => xmlChildText(c, "Key"))).toEqual([
        "p/a & b<c> 😀A",
        "p/<raw> & more",
      ]);
      expect(xmlChildText(xmlChild(root, "CommonPrefixes")!, "Prefix")).toBe("p/c/");
      expect(xmlChild(root, "Empty")).toEqual({ name: "Empty", children: [], text: "" });
      expect(xmlChild(root, "Attr")).toBeDefined();
      expect(xmlChildText(root, "Missing")).toBeUndefined();
      // Whitespace in text is kept: S3 keys may begin or end with spaces.
      expect(xmlChildText(parseXml("<a><k>  x \t</k></a>", "t"), "k")).toBe("  x \t");
    },
  );

  it("refuses character references that are no XML character, with a StoreError rather than a RangeError", () => {
    for (const ref of [
      "&#x110000;",
      "&#1114112;",
      "&#0;",
      "&#x0;",
      "&#xD800;",
      "&#xFFFE;",
      "&#x1;",
      "&#99999999999;",
      "&#x;",
      "&#;",
    ]) {
      const error = parseError(`<a><Key>k${ref}</Key></a>`);
      expect(error.message).toMatch(/^Malformed XML in the test document at character 9: /);
    }
    expect(parseXml("<a>&#9;&#xA;&#xd;&#x10FFFF;</a>", "t").text).toBe("\t\n\r\u{10FFFF}");
  });

  it(
    "expands no entity but XML's five: a DOCTYPE (entity declarations, billion laughs) and unknown entities " +
      "are refused",
    () => {
      const bomb = `<!DOCTYPE r [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]><r>&b;</r>`;
      expect(parseError(bomb).message).toMatch(/DOCTYPE/);
      expect(parseError("<r>&nbsp;</r>").message).toMatch(/the entity &nbsp; is not one of XML's five/);
      expect(parseError("<r>&constructor;</r>").message).toMatch(/&constructor;/);
      expect(parseError("<r>a & b</r>").message).toMatch(/"&" starts no entity reference/);
    },
  );

  it("refuses malformed structure with a StoreError saying where", () => {
    expect(parseError("<a><b></a>").message).toMatch(/<\/a> closes <b>/);
    expect(parseError("<a>").message).toMatch(/<a> is never closed/);
    expect(parseError("</a>").message).toMatch(/closes no element/);
    expect(parseError("<a/><b/>").message).toMatch(/a second root element <b>/);
    expect(parseError("text<a/>").message).toMatch(/text before the root element/);
    expect(parseError("<a/>text").message).toMatch(/text after the root element/);
    expect(parseError("").message).toMatch(/no root element/);
    expect(parseError("<a x=1/>").message).toMatch(/a quoted value was expected/);
    expect(parseError("<a x='1").message).toMatch(/never closed/);
    expect(parseError("<a <b>").message).toMatch(/a name was expected/);
    expect(parseError("<a x='1'y='2'/>").message).toMatch(/in a start tag/);
    expect(parseError("<a><!-- x </a>").message).toMatch(/unclosed comment/);
    expect(parseError("<a><![CDATA[ x </a>").message).toMatch(/unclosed CDATA/);
    expect(parseError("<?xml version='1.0'").message).toMatch(/unclosed processing instruction/);
    expect(parseError("<1a/>").message).toMatch(/a name was expected/);
  });

  it("bounds the nesting depth and the number of elements", () => {
    const deep = (n: number) => "<a>".repeat(n) + "</a>".repeat(n);
    expect(parseXml(deep(64), "t").name).toBe("a");
    expect(parseError(deep(65)).message).toMatch(/nested more than 64 deep/);
    expect(parseError(deep(10), { maxDepth: 5 }).message).toMatch(/nested more than 5 deep/);
    expect(parseError(`<a>${"<b/>".repeat(11)}</a>`, { maxElements: 10 }).message).toMatch(/more than 10 elements/);
  });

  it("reads in time linear in the input: 80,000 unclosed <Contents> tags, and long runs of every construct", () => {
    // The regex reader took 6.9 s for 40,000 (each unclosed tag scanned the rest of the text), so some 28 s for these.
    const unclosed = `<ListBucketResult>${"<Contents><Key>k".repeat(80_000)}`;
    const ms = cpuMs(() => {
      expect(parseError(unclosed, { maxDepth: 200_000 }).message).toMatch(/is never closed/);
      expect(parseError(unclosed).message).toMatch(/nested more than 64 deep/);
    });
    // The linear reader takes a tenth of a second of CPU here.
    expect(ms).toBeLessThan(3000);
    const runs = [
      `<a>${"<Contents><Key>k</Key></Contents>".repeat(100_000)}</a>`,
      `<a>${"&amp;".repeat(200_000)}</a>`,
      `<a>${"&".repeat(200_000)}</a>`,
      `<a>${"<!-- -->".repeat(100_000)}</a>`,
      `<a ${"x='1' ".repeat(100_000)}/>`,
      `<a>${"<".repeat(200_000)}`,
      `<a>${"</".repeat(200_000)}`,
      `<a>${"<![CDATA[".repeat(200_000)}`,
    ];
    for (const text of runs) {
      const taken = cpuMs(() => {
        try {
          parseXml(text, "t");
        } catch (caught) {
          expect(caught).toBeInstanceOf(StoreError);
        }
      });
      expect(taken, text.slice(0, 30)).toBeLessThan(3000);
    }
  });

  it("reads a document cut short up to where it stops, with partial: true", () => {
    const root = parseXml("<Error><Code>InternalError</Code><Message>xxxx", "t", { partial: true });
    expect(xmlChildText(root, "Code")).toBe("InternalError");
    expect(xmlChildText(root, "Message")).toBe("xxxx");
  });

  it("escapes text for documents it writes", () => {
    expect(escapeXml(`a&b<c>"d'`)).toBe("a&amp;b&lt;c&gt;&quot;d&apos;");
    expect(xmlChildText(parseXml(`<a><k>${escapeXml(`x<&>'"`)}</k></a>`, "t"), "k")).toBe(`x<&>'"`);
  });
});
