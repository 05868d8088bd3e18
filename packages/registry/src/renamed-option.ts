import { InvalidOptionError } from "./errors.js";

/**
 * The value of a renamed option: `options[name]`, else `options[deprecatedName]` (the name it had), else undefined.
 * Both given is an InvalidOptionError naming both, as which one is meant cannot be told. `prefix` is the options'
 * place in messages and `field`, e.g. "codecOptions.sharding_indexed.".
 */
export function renamedOption(options: object, name: string, deprecatedName: string, prefix = ""): unknown {
  const given = options as Readonly<Record<string, unknown>>;
  const value = Object.hasOwn(given, name) ? given[name] : undefined;
  const deprecated = Object.hasOwn(given, deprecatedName) ? given[deprecatedName] : undefined;
  if (value !== undefined && deprecated !== undefined) {
    throw new InvalidOptionError(
      `${prefix}${name} and ${prefix}${deprecatedName} are one option under its current and its deprecated name: ` +
        `give only ${prefix}${name}.`,
      { field: `${prefix}${name}` },
    );
  }
  return value ?? deprecated;
}
