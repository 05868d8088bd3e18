import { StoreError } from "@zarrkit/registry";
import type { S3StoreOptions } from "./options.js";
import { S3Store } from "./s3-store.js";

/**
 * The store behind `openStore("s3://bucket/prefix?endpoint=...&region=...")`.
 * URL parameters: endpoint, region, pathStyle, anonymous. Options (which may
 * carry credentials) take precedence over them.
 */
export function openS3Store(url: URL, options: Readonly<Record<string, unknown>>): S3Store {
  if (url.username || url.password)
    throw new StoreError("Pass S3 credentials as options of openStore, not in the URL.");
  const fromUrl: Partial<S3StoreOptions> = {};
  const params = url.searchParams;
  const endpoint = params.get("endpoint");
  const region = params.get("region");
  if (endpoint !== null) fromUrl.endpoint = endpoint;
  if (region !== null) fromUrl.region = region;
  for (const name of ["pathStyle", "anonymous"] as const) {
    const value = params.get(name);
    if (value !== null) fromUrl[name] = booleanParam(name, value);
  }
  return new S3Store({
    bucket: decodeURIComponent(url.host),
    prefix: decodeURIComponent(url.pathname),
    ...fromUrl,
    ...(options as Partial<S3StoreOptions>),
  });
}

function booleanParam(name: string, value: string): boolean {
  if (value === "true" || value === "1") return true;
  if (value === "false" || value === "0") return false;
  throw new StoreError(`Invalid s3:// URL parameter ${name}=${value}: use true or false.`);
}
