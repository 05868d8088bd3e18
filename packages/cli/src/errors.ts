import { InvalidOptionError, ZarrkitError } from "zarrkit";

/** A bad command line: exit code 2, one line naming the flag or value, and a pointer to --help. */
export class UsageError extends ZarrkitError {
  override readonly code = "USAGE";
  constructor(
    message: string,
    /** The command whose --help to point to ("" for the top level). */
    readonly command = "",
  ) {
    super(message);
  }
}

/** What a `ConvertOptionError` concerns: one of `convert`'s options, or its source or destination argument. */
export type ConvertOptionName =
  | "source"
  | "destination"
  | "to"
  | "chunkShape"
  | "shardShape"
  | "shardBytes"
  | "codecs"
  | "indexLocation"
  | "multiscale"
  | "labels"
  | "ome"
  | "part"
  | "jobs"
  | "overwrite";

/**
 * A bad option of `convert` (or one that does not fit the source): `option` (and `field`) names it, and the message
 * names it as the library spells it. The command line reports the same error with its flags (`messageNaming`).
 */
export class ConvertOptionError extends InvalidOptionError {
  readonly #describe: (name: (option: ConvertOptionName) => string) => string;
  constructor(
    /** The option the error is about. */
    readonly option: ConvertOptionName,
    /** The message, with each option's name given by `name`. */
    describe: (name: (option: ConvertOptionName) => string) => string,
  ) {
    super(
      describe((option) => option),
      { field: option },
    );
    this.#describe = describe;
  }

  /** The message with every option named by `name` (e.g. "chunkShape" as "--chunk-shape"). */
  messageNaming(name: (option: ConvertOptionName) => string): string {
    return this.#describe(name);
  }
}
