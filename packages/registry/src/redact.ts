// Keeping credentials out of everything an error carries: its message, its
// stack, its cause chain and the fields of each cause (undici's TypeError for a
// URL it cannot parse keeps the URL in `input`, which console.error prints).

// Query parameters that carry secrets: presigned URL signatures (X-Amz-Signature,
// sig), credentials, tokens (SAS, OAuth), API keys, session ids.
const SECRET_PARAM = /sig|token|key|secret|credential|password|auth|session|policy/i;
/** Header names whose values are secrets. */
const SECRET_HEADER = /auth|token|key|secret|cookie|signature|credential|session|password/i;
const REDACTED = "REDACTED";
/** A secret header as a line or a JSON-ish field (`Authorization: ...`, `"x-amz-security-token":"..."`). */
const SECRET_FIELD = new RegExp(
  "((?:authorization|proxy-authorization|x-amz-security-token|x-amz-credential|x-amz-signature|cookie|set-cookie" +
    "|x-api-key)[\"']?\\s*[:=]\\s*)(\"[^\"]*\"|'[^']*'|[^\\r\\n<>&]*)",
  "gi",
);
/** Known secrets shorter than this are not searched for in text: they would redact ordinary words. */
const MIN_SECRET_LENGTH = 4;

/** The URL as it may appear in messages: no user:password, secret-looking query values replaced. */
export function redactUrl(url: URL): string {
  const safe = new URL(url.href);
  safe.username = "";
  safe.password = "";
  const secret = new Set<string>();
  safe.searchParams.forEach((_, name) => {
    if (SECRET_PARAM.test(name)) secret.add(name);
  });
  for (const name of secret) safe.searchParams.set(name, REDACTED);
  return safe.href;
}

/**
 * The secrets a store was configured with, to look for in text it did not
 * write (a cause's message, a server's error page): the password of the URL
 * (raw and decoded), secret-looking query values, and values of secret-looking
 * headers (Authorization, API keys, cookies) with their credentials part.
 */
export function configuredSecrets(url: URL | undefined, headers: Headers | undefined): string[] {
  const secrets: string[] = [];
  if (url) {
    for (const part of [url.username, url.password]) {
      if (part) secrets.push(part, safeDecode(part));
    }
    url.searchParams.forEach((value, name) => {
      if (SECRET_PARAM.test(name) && value) secrets.push(value, encodeURIComponent(value));
    });
  }
  headers?.forEach((value, name) => {
    if (!SECRET_HEADER.test(name) || !value) return;
    secrets.push(value);
    // "Basic dXNlcjpwYXNz", "Bearer abc": the credentials alone, also decoded for Basic.
    const [scheme, credentials] = value.split(/\s+/, 2);
    if (credentials) {
      secrets.push(credentials);
      if (/^basic$/i.test(scheme!)) secrets.push(...basicParts(credentials));
    }
  });
  return [...new Set(secrets)]
    .filter((secret) => secret.length >= MIN_SECRET_LENGTH)
    .sort((a, b) => b.length - a.length);
}

/**
 * `text` with credentials replaced by REDACTED: the `secrets` given (longest
 * first, so a secret containing another goes whole), `user:password@` in
 * URLs, secret-looking query values, Authorization-like header values
 * ("Authorization: ...", "Bearer ...", "Basic ...") and SigV4 signatures and
 * credentials ("Signature=...", "Credential=...").
 */
export function redactText(text: string, secrets: readonly string[] = []): string {
  let out = text;
  for (const secret of secrets) {
    if (secret.length >= MIN_SECRET_LENGTH) out = out.split(secret).join(REDACTED);
  }
  return (
    out
      // userinfo of URLs that parse: scheme://user:password@host
      .replace(/(\b[a-z][a-z0-9+.-]*:\/\/)[^\s/?#@"'<>]*@/gi, `$1${REDACTED}@`)
      // header lines and JSON-ish fields: Authorization: ..., "x-amz-security-token":"..."
      .replace(SECRET_FIELD, `$1${REDACTED}`)
      .replace(/\b(Bearer|Basic)(\s+)[A-Za-z0-9._~+/=-]+/g, `$1$2${REDACTED}`)
      // SigV2: "AWS AKID:signature"
      .replace(/\bAWS(\s+)[A-Za-z0-9+/=]+:[A-Za-z0-9+/=]+/g, `AWS$1${REDACTED}`)
      .replace(/\b(Signature|Credential|Security-Token|SessionToken|Session-Token)=[^\s,&"'<>]+/gi, `$1=${REDACTED}`)
      // query strings in URLs and text: ?sig=..., &token=...
      .replace(/(^|[?&;\s])([^=&\s?#"'<>;]+)=([^&\s#"'<>;]*)/g, (whole, separator: string, name: string) =>
        SECRET_PARAM.test(safeDecode(name)) ? `${separator}${name}=${REDACTED}` : whole,
      )
  );
}

/**
 * Text that should have been a URL but does not parse (an endpoint with a
 * secret containing "/" in it): everything between "//" and the last "@" is
 * taken for credentials, then `redactText` runs.
 */
export function redactUnparsedUrl(text: string, secrets: readonly string[] = []): string {
  return redactText(text.replace(/(\/\/)[^@]*@/, `$1${REDACTED}@`), secrets);
}

/**
 * A copy of `error` safe to keep as a `cause`: messages, stacks and string
 * fields redacted with `redactText`, through the whole cause chain (and the
 * `errors` of an AggregateError), keeping each error's class so `instanceof`
 * checks still work. Other values become redacted strings.
 */
export function redactError(error: unknown, secrets: readonly string[] = [], depth = 0): unknown {
  if (depth > 8) return REDACTED;
  if (typeof error === "string") return redactText(error, secrets);
  if (!(error instanceof Error)) {
    if (error === null || error === undefined || typeof error === "number" || typeof error === "boolean") return error;
    return redactText(safeString(error), secrets);
  }
  const copy = new Error(redactText(error.message, secrets));
  Object.setPrototypeOf(copy, Object.getPrototypeOf(error));
  if (Object.hasOwn(error, "name")) copy.name = redactText(String(error.name), secrets);
  copy.stack = redactText(error.stack ?? "", secrets);
  if (error.cause !== undefined) {
    Object.defineProperty(copy, "cause", {
      value: redactError(error.cause, secrets, depth + 1),
      writable: true,
      configurable: true,
    });
  }
  // Own fields, enumerable or not (AggregateError's `errors` is not), keeping how they enumerate.
  for (const field of Object.getOwnPropertyNames(error)) {
    if (field === "cause" || field === "message" || field === "stack" || field === "name") continue;
    const descriptor = Object.getOwnPropertyDescriptor(error, field)!;
    if (!("value" in descriptor)) continue;
    const value: unknown = descriptor.value;
    let safe: unknown;
    if (Array.isArray(value)) safe = value.map((item) => redactError(item, secrets, depth + 1));
    else if (value instanceof Error || typeof value === "string") safe = redactError(value, secrets, depth + 1);
    else if (value === null || typeof value !== "object") safe = value;
    else safe = redactText(safeString(value), secrets);
    Object.defineProperty(copy, field, {
      value: safe,
      enumerable: descriptor.enumerable ?? false,
      writable: true,
      configurable: true,
    });
  }
  return copy;
}

function safeString(value: unknown): string {
  try {
    return typeof value === "object" ? JSON.stringify(value) : String(value);
  } catch {
    return Object.prototype.toString.call(value);
  }
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

function basicParts(credentials: string): string[] {
  try {
    const decoded = new TextDecoder().decode(Uint8Array.from(atob(credentials), (c) => c.charCodeAt(0)));
    const colon = decoded.indexOf(":");
    return colon < 0 ? [decoded] : [decoded, decoded.slice(colon + 1)];
  } catch {
    return [];
  }
}
