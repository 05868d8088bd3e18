import { describeStoreConformance, unsafeKeys } from "@zarrkit/test-utils";
import { describe } from "vitest";
import { rgw, rgwStore } from "./rgw.js";

describe.skipIf(!rgw)("on radosgw", () => {
  describeStoreConformance("S3Store", async () => ({ store: rgwStore() }), { invalidKeys: unsafeKeys });

  // Every unconditional write goes through a multipart upload (of one part: values here are small).
  describeStoreConformance("S3Store uploading in parts", async () => ({ store: rgwStore({ multipartThreshold: 0 }) }), {
    invalidKeys: unsafeKeys,
  });
});
