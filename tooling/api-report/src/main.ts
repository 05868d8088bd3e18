/**
 * `zarrkit-api-report [--update] [package folder...]` (default: the working directory): checks the API reports of each
 * package, exiting 1 with the differences when one is out of date; `--update` rewrites them.
 */
import { resolve } from "node:path";
import { runPackage } from "./api-report.js";

const UPDATE_HINT =
  "If the change is intended, run `pnpm api:update` at the repository root (it builds and regenerates every " +
  "report) and commit the reports with the change.";

/** Run the command with `args`; returns the exit code and writes to `out` and `err`. */
export function run(args: readonly string[], out: (text: string) => void, err: (text: string) => void): number {
  const update = args.includes("--update");
  const unknown = args.filter((arg) => arg.startsWith("--") && arg !== "--update");
  if (unknown.length > 0) {
    err(`zarrkit-api-report: unknown option ${unknown.join(", ")} (usage: zarrkit-api-report [--update] [folder...])`);
    return 2;
  }
  const folders = args.filter((arg) => !arg.startsWith("--"));
  let failed = false;
  for (const folder of folders.length > 0 ? folders : ["."]) {
    const result = runPackage(resolve(folder), { update });
    for (const error of result.errors) err(`${result.name}: ${error}`);
    if (result.errors.length > 0) failed = true;
    if (update) {
      for (const report of result.changed) out(`${result.name}: wrote ${report}`);
    } else if (result.changed.length > 0) {
      failed = true;
      err(`${result.name}: the exports differ from the committed API report (${result.changed.join(", ")}):`);
      for (const diff of result.diffs) err(diff);
      err(`${result.name}: ${UPDATE_HINT}`);
    } else {
      out(`${result.name}: API reports up to date`);
    }
  }
  return failed ? 1 : 0;
}
