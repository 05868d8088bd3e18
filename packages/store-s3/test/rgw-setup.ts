// Global setup: one radosgw for the whole run, shared by every test file
// through `inject("rgw")`. Without the Ceph binaries the S3 tests are
// skipped with a printed reason, except on CI, where that is a failure.
import { missingRgwBinaries, startRgw } from "@zarrkit/rgw";
import { AwsClient } from "aws4fetch";
import type { TestProject } from "vitest/node";

const BUCKET = "zarrkit-tests";

export default async function setup(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  const missing = missingRgwBinaries();
  if (missing.length > 0) {
    const reason = `${missing.join(", ")} not installed; run tooling/ci/install-system-deps.sh`;
    if (process.env.CI === "true") throw new Error(`The S3 tests need radosgw on CI: ${reason}.`);
    console.warn(`\n[store-s3] Skipping the tests against radosgw: ${reason}.\n`);
    project.provide("rgw", null);
    return undefined;
  }
  const rgw = await startRgw();
  try {
    const client = new AwsClient({
      accessKeyId: rgw.accessKey,
      secretAccessKey: rgw.secretKey,
      service: "s3",
      region: "us-east-1",
    });
    const response = await client.fetch(`${rgw.endpoint}/${BUCKET}`, { method: "PUT" });
    if (!response.ok) throw new Error(`Creating bucket ${BUCKET} failed: ${response.status} ${await response.text()}`);
  } catch (error) {
    await rgw.stop();
    throw error;
  }
  project.provide("rgw", {
    endpoint: rgw.endpoint,
    accessKey: rgw.accessKey,
    secretKey: rgw.secretKey,
    bucket: BUCKET,
  });
  return () => rgw.stop();
}
