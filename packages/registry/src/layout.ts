import type { CodecMetadata } from "./codec.js";
import { InvalidMetadataError } from "./errors.js";
import { registryState } from "./global-state.js";

/** What `createArray`'s convenience form hands a layout option a package registered (e.g. `shardShape`). */
export interface LayoutRequest {
  /** The option's value. */
  value: unknown;
  /** The `chunkShape` option as given. */
  chunkShape: unknown;
  /** Codecs of each chunk: the `codecs` option, or the data type's default. */
  codecs: CodecMetadata[];
  /** Every option given, for the layout's own (e.g. `indexCodecs`). */
  options: Readonly<Record<string, unknown>>;
}

/** The grid and codecs a layout option makes of an array. */
export interface Layout {
  /** What the chunk grid divides the array into: integers, or lists of edges for a rectilinear grid (e.g. the shard shape). */
  gridShape: unknown[];
  /** The array's codecs. */
  codecs: CodecMetadata[];
  /** Options the layout consumed besides its own (e.g. `indexCodecs`), so they are not reported as unknown. */
  consumed: string[];
}

export type LayoutHook = (request: LayoutRequest) => Layout;

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

export function layoutFor(option: string): LayoutHook | undefined {
  return registryState().layouts.get(option);
}

/** The error for a convenience option neither core nor a registered layout knows. */
export function unknownOptionError(option: string): InvalidMetadataError {
  const provider = KNOWN_LAYOUT_PACKAGES.get(option);
  const hint = provider ? ` It is provided by ${provider}: install it and import it (or import "zarrkit").` : "";
  return new InvalidMetadataError(`${option} is not a createArray option.${hint}`, { field: option });
}
