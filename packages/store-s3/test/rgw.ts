import { AwsClient } from "aws4fetch";
import { inject } from "vitest";
import { S3Store, type S3StoreOptions } from "../src/index.js";

export interface RgwServer {
  endpoint: string;
  accessKey: string;
  secretKey: string;
  /** A bucket created for the tests, which keep apart by key prefix. */
  bucket: string;
}

declare module "vitest" {
  export interface ProvidedContext {
    /** The radosgw started by rgw-setup.ts, or null when its binaries are not installed. */
    rgw: RgwServer | null;
  }
}

export const rgw = inject("rgw");

let counter = 0;

/** A prefix no other test uses. */
export function freshPrefix(name = "t"): string {
  return `${name}-${Date.now().toString(36)}-${(counter++).toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
}

/** A store on the test bucket under a fresh prefix, with the server's credentials. */
export function rgwStore(options: Partial<S3StoreOptions> = {}): S3Store {
  const server = rgw!;
  return new S3Store({
    bucket: server.bucket,
    prefix: freshPrefix(),
    endpoint: server.endpoint,
    credentials: { accessKeyId: server.accessKey, secretAccessKey: server.secretKey },
    ...options,
  });
}

/** Signed requests straight to radosgw, for what the store does not do (ACLs, listing uploads). */
export function adminClient(): AwsClient {
  const server = rgw!;
  return new AwsClient({
    accessKeyId: server.accessKey,
    secretAccessKey: server.secretKey,
    service: "s3",
    region: "us-east-1",
  });
}
