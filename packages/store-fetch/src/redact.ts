// Query parameters that carry secrets: presigned URL signatures (X-Amz-Signature,
// sig), credentials, tokens (SAS, OAuth), API keys, session ids.
const SECRET_PARAM = /sig|token|key|secret|credential|password|auth|session|policy/i;

/** The URL as it may appear in messages: no user:password, secret-looking query values replaced. */
export function redactUrl(url: URL): string {
  const safe = new URL(url.href);
  safe.username = "";
  safe.password = "";
  const secret = new Set<string>();
  safe.searchParams.forEach((_, name) => {
    if (SECRET_PARAM.test(name)) secret.add(name);
  });
  for (const name of secret) safe.searchParams.set(name, "REDACTED");
  return safe.href;
}
