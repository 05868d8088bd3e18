import { StoreError } from "@zarrkit/registry";
import { redactUrl } from "./redact.js";

export interface BaseUrl {
  /** Without credentials or fragment; the path ends in "/"; the query is kept for every key. */
  url: URL;
  /** `Basic ...` built from credentials in the URL, which fetch refuses to send itself. */
  authorization?: string;
}

export function parseBaseUrl(input: string | URL): BaseUrl {
  let url: URL;
  try {
    url = new URL(String(input));
  } catch (cause) {
    throw new StoreError("FetchStore needs an absolute URL, e.g. https://example.com/data.zarr.", { cause });
  }
  let authorization: string | undefined;
  if (url.username || url.password) {
    const credentials = `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`;
    authorization = `Basic ${base64(new TextEncoder().encode(credentials))}`;
    url.username = "";
    url.password = "";
  }
  url.hash = "";
  if (!url.pathname.endsWith("/")) url.pathname += "/";
  return { url, authorization };
}

function base64(bytes: Uint8Array): string {
  return btoa(Array.from(bytes, (b) => String.fromCharCode(b)).join(""));
}

function keyProblem(key: string): string | undefined {
  if (key.startsWith("/")) return "it is absolute";
  if (key.includes("\0")) return "it contains a NUL byte";
  // URL parsers turn "\" into "/" in http(s) URLs.
  if (key.includes("\\")) return "it contains a backslash";
  for (const segment of key.split("/")) {
    if (segment === "") return "it has an empty segment";
    if (segment === "." || segment === "..") return `it has a "${segment}" segment`;
  }
  return undefined;
}

/** The URL of `key` below `base`: each segment percent-encoded, so no key can leave the base path. */
export function keyUrl(base: URL, key: string): URL {
  const problem = keyProblem(key);
  if (problem) throw new StoreError(`Invalid key ${JSON.stringify(key)} for ${redactUrl(base)}: ${problem}.`, { key });
  const url = new URL(base.href);
  url.pathname = base.pathname + key.split("/").map(encodeURIComponent).join("/");
  return url;
}
