import { ZarrkitError } from "zarrkit";

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
