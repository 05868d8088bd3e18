import { StoreError, storeKeyProblem, configuredSecrets, redactUrl } from "@zarrkit/registry";

export interface BaseUrl {
  /** Without credentials or fragment; the path ends in "/"; the query is kept for every key. */
  url: URL;
  /** `Basic ...` built from credentials in the URL, which fetch refuses to send itself. */
  authorization?: string;
  /**
   * Secrets of the URL as given (password, secret-looking query values), to redact from text the store did not write.
   */
  secrets: string[];
}

export function parseBaseUrl(input: string | URL): BaseUrl {
  let url: URL;
  try {
    url = new URL(String(input));
  } catch {
    // No cause: the TypeError of the URL parser keeps the input, password and all, in its `input` field.
    throw new StoreError(
      "FetchStore needs an absolute URL, e.g. https://example.com/data.zarr; the URL given does not parse.",
    );
  }
  const secrets = configuredSecrets(url, undefined);
  let authorization: string | undefined;
  if (url.username || url.password) {
    let credentials: string;
    try {
      credentials = `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`;
    } catch {
      throw new StoreError("The user name or password in the FetchStore URL is not valid percent-encoding.");
    }
    authorization = `Basic ${base64(new TextEncoder().encode(credentials))}`;
    url.username = "";
    url.password = "";
  }
  url.hash = "";
  if (!url.pathname.endsWith("/")) url.pathname += "/";
  return authorization === undefined ? { url, secrets } : { url, authorization, secrets };
}

function base64(bytes: Uint8Array): string {
  return btoa(Array.from(bytes, (b) => String.fromCharCode(b)).join(""));
}

/** The URL of `key` below `base`: each segment percent-encoded, so no key can leave the base path. */
export function keyUrl(base: URL, key: string): URL {
  if (typeof key !== "string")
    throw new StoreError(`Invalid key ${String(key)} for ${redactUrl(base)}: keys are strings.`);
  const problem = storeKeyProblem(key);
  if (problem) throw new StoreError(`Invalid key ${JSON.stringify(key)} for ${redactUrl(base)}: ${problem}.`, { key });
  const url = new URL(base.href);
  url.pathname = base.pathname + key.split("/").map(encodeURIComponent).join("/");
  return url;
}
