import { StoreError } from "@zarrkit/registry";
import { type BodyLimit, escapeXml, parseXml, xmlChildText } from "@zarrkit/http";
import { decodeText, type S3Client } from "./client.js";
import { MAX_XML_BYTES } from "./options.js";

export interface MultipartUpload {
  client: S3Client;
  objectKey: string;
  /** The store key, for errors. */
  key: string;
  /** e.g. "s3://bucket/a/c/0", for errors. */
  location: string;
  value: Uint8Array;
  partSize: number;
  partConcurrency: number;
  signal: AbortSignal | undefined;
}

/** S3 numbers parts 1 to 10,000. */
const MAX_PARTS = 10_000;

/**
 * Upload `value` in parts (parts are views of it, not copies). On any failure
 * the upload is aborted so no parts are left behind, and the old value stays.
 */
export async function uploadMultipart(upload: MultipartUpload): Promise<void> {
  const { client, objectKey, key, location, value, signal } = upload;
  const xml: BodyLimit = () => ({ bytes: MAX_XML_BYTES, why: "a multipart answer may have" });
  const send = (
    method: "PUT" | "POST" | "DELETE",
    query: Record<string, string>,
    body?: Uint8Array | string,
    limit?: BodyLimit,
  ) =>
    client
      .request({
        method,
        url: client.objectUrl(objectKey, query),
        what: `${method} ${location}`,
        key,
        ...(body !== undefined && { body }),
        ...(signal && { signal }),
        ...(limit && { limit }),
      })
      .then(
        (reply) => reply ?? Promise.reject(new StoreError(`S3 multipart upload of ${location} failed: 404.`, { key })),
      );

  const created = parseXml(
    decodeText((await send("POST", { uploads: "" }, undefined, xml)).body),
    `the answer to starting a multipart upload of ${location}`,
  );
  const uploadId = xmlChildText(created, "UploadId");
  if (!uploadId) throw new StoreError(`S3 multipart upload of ${location} failed: no UploadId in the answer.`, { key });
  try {
    const partSize = Math.max(upload.partSize, Math.ceil(value.byteLength / MAX_PARTS));
    const count = Math.max(1, Math.ceil(value.byteLength / partSize));
    const etags: string[] = [];
    await runLimited(count, upload.partConcurrency, async (index) => {
      const part = value.subarray(index * partSize, (index + 1) * partSize);
      const reply = await send("PUT", { partNumber: String(index + 1), uploadId }, part);
      const etag = reply.headers.get("etag");
      if (!etag)
        throw new StoreError(`S3 multipart upload of ${location} failed: part ${index + 1} has no ETag.`, { key });
      etags[index] = etag;
    });
    const parts = etags
      .map((etag, i) => `<Part><PartNumber>${i + 1}</PartNumber><ETag>${escapeXml(etag)}</ETag></Part>`)
      .join("");
    const answer = decodeText(
      (await send("POST", { uploadId }, `<CompleteMultipartUpload>${parts}</CompleteMultipartUpload>`, xml)).body,
    );
    // S3 may answer 200 and report the failure in the body.
    const completed =
      answer.trim() === "" ? undefined : parseXml(answer, `the answer to completing a multipart upload of ${location}`);
    if (completed?.name === "Error") {
      const code = xmlChildText(completed, "Code") ?? "(no code)";
      throw new StoreError(
        client.redact(
          `S3 multipart upload of ${location} failed: ${code}: ${xmlChildText(completed, "Message") ?? ""}.`,
        ),
        { key },
      );
    }
  } catch (error) {
    // Best effort: a failed abort leaves parts that the bucket's lifecycle rules may clean up.
    await client
      .send({ method: "DELETE", url: client.objectUrl(objectKey, { uploadId }), what: `DELETE ${location}` })
      .catch(() => undefined);
    throw error;
  }
}

/**
 * Run `task(0..count-1)` with at most `limit` at once. After a failure no new
 * task starts; the running ones finish before the first error is thrown, so
 * nothing is still uploading when the upload is aborted.
 */
async function runLimited(count: number, limit: number, task: (index: number) => Promise<void>): Promise<void> {
  let next = 0;
  let failed = false;
  const worker = async () => {
    while (!failed && next < count) {
      const index = next++;
      await task(index).catch((error) => {
        failed = true;
        throw error;
      });
    }
  };
  const results = await Promise.allSettled(Array.from({ length: Math.min(limit, count) }, worker));
  const failure = results.find((result) => result.status === "rejected");
  if (failure) throw failure.reason;
}
