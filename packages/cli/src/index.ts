// The zarrkit command line as a library: small on purpose. `main` runs any
// command as `zarrkit` would; `resolveUrl` and `verify` are the two pieces a
// wrapper needs beyond that. Everything else is the commands' own machinery.
export { UsageError } from "./errors.js";
export { main } from "./main.js";
export { type Output, processOutput } from "./output.js";
export type { ProgressMode } from "./progress.js";
export { type ResolvedUrl, resolveUrl } from "./url.js";
export { type VerifyProblem, type VerifyReport, verify } from "./commands/verify.js";
