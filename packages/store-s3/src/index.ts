import { registerStore } from "@zarrkit/registry";
import { openS3Store } from "./open.js";

export { ResponseTooLargeError, StoreTimeoutError } from "@zarrkit/registry";
export { S3ResponseError } from "./errors.js";
export type { S3Credentials, S3StoreOptions } from "./options.js";
export { S3Store } from "./s3-store.js";

registerStore("s3", openS3Store);
