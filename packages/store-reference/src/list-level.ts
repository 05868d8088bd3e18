import type { ListDirResult } from "@zarrkit/registry";

/** One level of listing being built: keys directly below a prefix, and the child prefixes (each once). */
export class ListLevel {
  readonly #keys = new Set<string>();
  readonly #prefixes = new Set<string>();

  constructor(private readonly prefix: string) {}

  /** A key starting with the prefix: a key of this level, or inside a child prefix. */
  addKey(key: string): void {
    const slash = key.indexOf("/", this.prefix.length);
    if (slash < 0) this.#keys.add(key);
    else this.#prefixes.add(key.slice(0, slash + 1));
  }

  /** A child prefix known to hold keys (ending in "/"). */
  addPrefix(prefix: string): void {
    this.#prefixes.add(prefix);
  }

  result(): ListDirResult {
    return { keys: [...this.#keys], prefixes: [...this.#prefixes] };
  }
}
