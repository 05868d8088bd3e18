import { InvalidOptionError } from "./errors.js";
import { registryState } from "./global-state.js";
import type { LayoutHook } from "./layout-hook.js";

/** Layout options this project ships, so an unknown-option error can say what to import. */
// A Map, never a plain object: an option name such as "toString" must not find Object.prototype.
const KNOWN_LAYOUT_PACKAGES: ReadonlyMap<string, string> = new Map([
  ["shardShape", "@zarrkit/sharding"],
  ["indexCodecs", "@zarrkit/sharding"],
  ["indexLocation", "@zarrkit/sharding"],
]);

/**
 * Let `option` of `createArray`'s convenience form decide an array's grid and
 * codecs (`@zarrkit/sharding` registers `shardShape`). Registering a name
 * again replaces the earlier registration.
 */
export function registerLayout(option: string, hook: LayoutHook): void {
  registryState().layouts.set(option, hook);
}

/** The layout hook registered for a `createArray` option name, if any. */
export function layoutFor(option: string): LayoutHook | undefined {
  return registryState().layouts.get(option);
}

/** The error for a convenience option neither core nor a registered layout knows. */
export function unknownOptionError(option: string): InvalidOptionError {
  const provider = KNOWN_LAYOUT_PACKAGES.get(option);
  const hint = provider ? ` It is provided by ${provider}: install it and import it (or import "zarrkit").` : "";
  return new InvalidOptionError(`${option} is not a createArray option.${hint}`, { field: option });
}
