import { StoreError } from "@zarrkit/registry";
import { parseXml, type XmlElement, xmlChild, xmlChildren, xmlChildText } from "@zarrkit/http";
import { decodeText, type S3Client } from "./client.js";
import { MAX_XML_BYTES } from "./options.js";

export interface ListPage {
  /** Full object keys, each starting with the prefix listed. */
  keys: string[];
  /** Full common prefixes (with a delimiter), each starting with the prefix listed and ending in the delimiter. */
  prefixes: string[];
}

/**
 * ListObjectsV2 under `prefix`, one page (up to 1000 keys) at a time. A
 * server's listing is checked, not trusted: every key and common prefix must
 * start with `prefix` (a key outside it would be shown under a wrong name),
 * every entry must have its key, a truncated page must give a continuation
 * token never given before (a repeated one would loop forever), and at most
 * `maxPages` pages are read. Each of these is a StoreError naming the listing
 * (and the key).
 */
export async function* listPages(
  client: S3Client,
  bucket: string,
  prefix: string,
  delimiter: string | undefined,
  signal: AbortSignal | undefined,
  maxPages: number,
): AsyncGenerator<ListPage> {
  const what = `LIST s3://${bucket}/${prefix}`;
  const fail = (problem: string, key?: string): never => {
    throw new StoreError(client.redact(`S3 ${what} failed: ${problem}.`), key === undefined ? {} : { key });
  };
  const seen = new Set<string>();
  let token: string | undefined;
  for (let page = 1; ; page++) {
    const query: Record<string, string> = { "list-type": "2", prefix };
    if (delimiter !== undefined) query.delimiter = delimiter;
    if (token !== undefined) query["continuation-token"] = token;
    const limit = () => ({ bytes: MAX_XML_BYTES, why: "a listing page may have" });
    const reply = await client.request({
      method: "GET",
      url: client.bucketUrl(query),
      what,
      limit,
      ...(signal && { signal }),
    });
    // A 404 here is never a missing key; the bucket itself is missing.
    if (!reply) throw new StoreError(`S3 ${what} failed: 404.`);
    const root = parseXml(decodeText(reply.body), `the answer to S3 ${what}`);
    if (root.name !== "ListBucketResult") fail(`the answer is a <${root.name}> document, not <ListBucketResult>`);
    const entry = (element: XmlElement, field: string, index: number) =>
      xmlChildText(element, field) ?? fail(`<${element.name}> number ${index + 1} of page ${page} has no <${field}>`);
    const keys = xmlChildren(root, "Contents").map((contents, i) => entry(contents, "Key", i));
    const prefixes = xmlChildren(root, "CommonPrefixes").map((common, i) => entry(common, "Prefix", i));
    for (const key of keys) {
      if (!key.startsWith(prefix))
        fail(
          `the server listed the key ${JSON.stringify(key)}, which is outside the prefix ${JSON.stringify(prefix)}`,
          key,
        );
    }
    for (const child of prefixes) {
      if (
        !child.startsWith(prefix) ||
        (delimiter !== undefined && (child.length <= prefix.length || !child.endsWith(delimiter)))
      ) {
        fail(
          `the server listed the common prefix ${JSON.stringify(child)}, which is not a level ` +
            `below ${JSON.stringify(prefix)}`,
          child,
        );
      }
    }
    yield { keys, prefixes };
    const truncated = xmlChildText(root, "IsTruncated");
    if (truncated !== "true") {
      if (truncated !== undefined && truncated !== "false")
        fail(`<IsTruncated> is ${JSON.stringify(truncated)}, not true or false`);
      return;
    }
    const next = xmlChild(root, "NextContinuationToken")?.text;
    if (!next) fail(`page ${page} is truncated but gives no continuation token`);
    if (seen.has(next!))
      fail(`page ${page} repeats the continuation token of an earlier page (the listing would never end)`);
    if (page >= maxPages) fail(`more than ${maxPages} pages (the store's maxListPages)`);
    seen.add(next!);
    token = next;
  }
}
