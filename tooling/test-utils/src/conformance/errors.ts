import { StoreError } from "@zarrkit/registry";
import { expect } from "vitest";

// Third-party stores may carry their own copy of @zarrkit/registry, where
// `instanceof` fails; the `code` of each error class is its stable identity.
const storeErrorCodes = new Set(["STORE_ERROR", "PRECONDITION_FAILED", "AUTH_FAILED", "QUOTA_EXCEEDED"]);

async function rejection(promise: Promise<unknown>, what: string): Promise<Error & { code?: unknown; key?: unknown }> {
  let outcome: { error: unknown } | undefined;
  try {
    await promise;
  } catch (error) {
    outcome = { error };
  }
  expect(outcome, `${what} should reject`).toBeDefined();
  const error = outcome!.error;
  expect(error, `${what} should reject with an Error`).toBeInstanceOf(Error);
  return error as Error & { code?: unknown; key?: unknown };
}

/** `promise` rejects with a StoreError (or subclass); returns it for further checks. */
export async function expectStoreError(promise: Promise<unknown>, what: string): Promise<Error & { key?: unknown }> {
  const error = await rejection(promise, what);
  const isStoreError = error instanceof StoreError || storeErrorCodes.has(String(error.code));
  expect(isStoreError, `${what} should reject with a StoreError, got ${error.name}: ${error.message}`).toBe(true);
  return error;
}

export async function expectPreconditionFailed(promise: Promise<unknown>, what: string): Promise<void> {
  const error = await rejection(promise, what);
  expect(error.code, `${what} should reject with a PreconditionFailedError, got ${error.name}: ${error.message}`).toBe(
    "PRECONDITION_FAILED",
  );
}

/** Run all promises; return how many fulfilled and the reasons of those that rejected. */
export async function settle(promises: Promise<unknown>[]): Promise<{ fulfilled: number; reasons: unknown[] }> {
  const results = await Promise.allSettled(promises);
  const reasons = results.flatMap((r) => (r.status === "rejected" ? [r.reason] : []));
  return { fulfilled: results.length - reasons.length, reasons };
}
