import { registerStore } from "@zarrkit/registry";
import { openS3Store } from "./open.js";

export { ResponseTooLargeError, S3ResponseError, StoreTimeoutError } from "./errors.js";
export type { S3Credentials, S3StoreOptions } from "./options.js";
export { S3Store } from "./s3-store.js";

registerStore("s3", openS3Store);
