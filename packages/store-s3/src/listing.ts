import { StoreError } from "@zarrkit/registry";
import { decodeText, type S3Client } from "./client.js";
import { MAX_XML_BYTES } from "./options.js";
import { xmlBlocks, xmlText } from "./xml.js";

export interface ListPage {
  /** Full object keys. */
  keys: string[];
  /** Full common prefixes (with a delimiter), each ending in the delimiter. */
  prefixes: string[];
}

/** ListObjectsV2 under `prefix`, one page (up to 1000 keys) at a time. */
export async function* listPages(
  client: S3Client,
  bucket: string,
  prefix: string,
  delimiter: string | undefined,
  signal: AbortSignal | undefined,
): AsyncGenerator<ListPage> {
  let token: string | undefined;
  do {
    const query: Record<string, string> = { "list-type": "2", prefix };
    if (delimiter !== undefined) query.delimiter = delimiter;
    if (token !== undefined) query["continuation-token"] = token;
    const what = `LIST s3://${bucket}/${prefix}`;
    const limit = () => ({ bytes: MAX_XML_BYTES, why: "a listing page may have" });
    const reply = await client.request({ method: "GET", url: client.bucketUrl(query), what, limit, ...(signal && { signal }) });
    // A 404 here is never a missing key; the bucket itself is missing.
    if (!reply) throw new StoreError(`S3 ${what} failed: 404.`);
    const xml = decodeText(reply.body);
    yield {
      keys: xmlBlocks(xml, "Contents").map((block) => xmlText(block, "Key")!),
      prefixes: xmlBlocks(xml, "CommonPrefixes").map((block) => xmlText(block, "Prefix")!),
    };
    token = xmlText(xml, "IsTruncated") === "true" ? xmlText(xml, "NextContinuationToken") : undefined;
  } while (token !== undefined);
}
