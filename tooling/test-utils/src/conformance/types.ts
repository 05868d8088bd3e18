import type { Store } from "@zarrkit/registry";

/** Optional store methods, detected with `typeof store[name] === "function"`. */
export type Capability =
  | "getRange"
  | "getRangeWithSize"
  | "getRangeInto"
  | "lendRange"
  | "set"
  | "setParts"
  | "delete"
  | "list"
  | "listDir"
  | "getVersioned"
  | "size"
  | "append"
  | "setRange"
  | "truncate";

/**
 * What a check needs to run: a capability, "write" (set, or the fixture's
 * seed for read-only stores) or "invalidKeys" (the option was given). A nested
 * list means any one of them.
 */
export type Need = Capability | "write" | "invalidKeys";

export interface CheckContext {
  store: Store;
  /** Put a value in place through `set`, or through the fixture's `seed` when the store is read-only. */
  put(key: string, value: Uint8Array): Promise<void>;
  invalidKeys: readonly string[];
}

export interface ConformanceCheck {
  /** The describe block the check runs in, usually the method under test. */
  group: string;
  name: string;
  needs: readonly (Need | readonly Need[])[];
  run(context: CheckContext): Promise<void>;
}

/** The capabilities a store instance has, plus what the fixture and options provide. */
export function available(store: Store, hasSeed: boolean, hasInvalidKeys: boolean): Set<Need> {
  const capabilities: Capability[] = [
    "getRange",
    "getRangeWithSize",
    "getRangeInto",
    "lendRange",
    "set",
    "setParts",
    "delete",
    "list",
    "listDir",
    "getVersioned",
    "size",
    "append",
    "setRange",
    "truncate",
  ];
  const has = new Set<Need>(capabilities.filter((name) => typeof store[name] === "function"));
  if (has.has("set") || hasSeed) has.add("write");
  if (hasInvalidKeys) has.add("invalidKeys");
  return has;
}

/** The first need that is missing, or undefined when the check can run. */
export function missingNeed(check: ConformanceCheck, has: ReadonlySet<Need>): string | undefined {
  for (const need of check.needs) {
    const anyOf = typeof need === "string" ? [need] : need;
    if (!anyOf.some((n) => has.has(n))) return anyOf.join(" or ");
  }
  return undefined;
}
