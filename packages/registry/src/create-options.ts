import { InvalidOptionError } from "./errors.js";
import { registryState } from "./global-state.js";
import type { CreateOptionHook } from "./create-option-hook.js";

/** `createArray` options this project's packages register, so an unknown-option error can say what to import. */
// A Map, never a plain object: an option name such as "toString" must not find Object.prototype.
const KNOWN_OPTION_PACKAGES: ReadonlyMap<string, string> = new Map([
  ["shardShape", "@zarrkit/sharding"],
  ["indexCodecs", "@zarrkit/sharding"],
  ["indexLocation", "@zarrkit/sharding"],
]);

/**
 * Let `option` of `createArray`'s convenience form decide an array's grid and
 * codecs (`@zarrkit/sharding` registers `shardShape`). Registering a name
 * again replaces the earlier registration.
 */
export function registerCreateOption(option: string, hook: CreateOptionHook): void {
  registryState().layouts.set(option, hook);
}

/** The hook registered for a `createArray` option name, if any. */
export function createOptionHook(option: string): CreateOptionHook | undefined {
  return registryState().layouts.get(option);
}

/** @deprecated Use registerCreateOption. */
export const registerLayout: (option: string, hook: CreateOptionHook) => void = registerCreateOption;
/** @deprecated Use createOptionHook. */
export const layoutFor: (option: string) => CreateOptionHook | undefined = createOptionHook;

/** The error for a convenience option neither core nor a registered hook knows. */
export function unknownOptionError(option: string): InvalidOptionError {
  const provider = KNOWN_OPTION_PACKAGES.get(option);
  const hint = provider ? ` It is provided by ${provider}: install it and import it (or import "zarrkit").` : "";
  return new InvalidOptionError(`${option} is not a createArray option.${hint}`, { field: option });
}
