import { StoreError } from "./errors.js";
import { storeKeyProblem } from "./keys.js";

/**
 * A store's key prefix in canonical form: "" or a valid key path ending in
 * "/" (surrounding slashes dropped). A prefix is checked like a key: a ".."
 * segment would climb out of the store's root once a URL or path is normalised.
 */
export function normalizeStorePrefix(prefix: string, what: string): string {
  const trimmed = prefix.replace(/^\/+|\/+$/g, "");
  if (trimmed === "") return "";
  const problem = storeKeyProblem(trimmed);
  if (problem) throw new StoreError(`Invalid ${what} prefix ${JSON.stringify(prefix)}: ${problem}.`);
  return `${trimmed}/`;
}
