import { ZarrkitError } from "zarrkit";
import { CONVERT_HELP, convertCommand } from "./commands/convert.js";
import { GET_HELP, getCommand } from "./commands/get.js";
import { INFO_HELP, infoCommand } from "./commands/info.js";
import { TREE_HELP, treeCommand } from "./commands/tree.js";
import { VERIFY_HELP, verifyCommand } from "./commands/verify.js";
import { UsageError } from "./errors.js";
import { type Output, processOutput } from "./output.js";

export type Command = (args: readonly string[], out: Output) => Promise<number>;

/** The commands, by name: later ones (convert, verify) register here. */
export const COMMANDS: ReadonlyMap<string, { run: Command; summary: string; help: string }> = new Map([
  ["info", { run: infoCommand, summary: "what a node is: array metadata and shard statistics", help: INFO_HELP }],
  ["tree", { run: treeCommand, summary: "the hierarchy with each array's shape and data type", help: TREE_HELP }],
  ["get", { run: getCommand, summary: "print or save selected values (.npy or raw)", help: GET_HELP }],
  [
    "convert",
    {
      run: convertCommand,
      summary: "copy into sharded Zarr v3, OME-Zarr pyramids or precomputed, resumable, in parts",
      help: CONVERT_HELP,
    },
  ],
  [
    "verify",
    { run: verifyCommand, summary: "check every shard's index (and with --deep every chunk)", help: VERIFY_HELP },
  ],
]);

export const MAIN_HELP = `Usage: zarrkit <command> [options]

Inspect Zarr v3 and v2 arrays and groups and Neuroglancer precomputed volumes.

Commands:
${[...COMMANDS].map(([name, c]) => `  ${name.padEnd(8)} ${c.summary}`).join("\n")}

Store URLs: a path or file://..., http(s)://... (read-only),
s3://bucket/prefix (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY,
AWS_SESSION_TOKEN, AWS_REGION, AWS_ENDPOINT_URL), and precomputed://<url>
for a Neuroglancer precomputed volume.

Exit codes: 0 success, 1 failure, 2 usage error.
Run "zarrkit <command> --help" for a command's options and examples.`;

/** Run the command line; returns the exit code. Errors print one line (a stack trace with --debug). */
export async function main(argv: readonly string[], out: Output = processOutput): Promise<number> {
  const debug = argv.includes("--debug");
  const [name, ...rest] = argv;
  try {
    if (name === undefined || name === "--help" || name === "-h" || name === "help") {
      if (name === "help" && rest[0] !== undefined) {
        const command = COMMANDS.get(rest[0]);
        if (!command) throw new UsageError(`unknown command ${JSON.stringify(rest[0])}`);
        return out.help(command.help);
      }
      out.help(MAIN_HELP);
      return name === undefined ? 2 : 0;
    }
    if (name === "--version") {
      out.write("0.1.0");
      return 0;
    }
    const command = COMMANDS.get(name);
    if (!command) {
      throw new UsageError(
        name.startsWith("-")
          ? `unknown option ${name} (options go after the command)`
          : `unknown command ${JSON.stringify(name)}`,
      );
    }
    return await command.run(rest, out);
  } catch (error) {
    return report(error, debug, out);
  }
}

/** Print an error as one line (with a stack trace under --debug) and choose the exit code. */
export function report(error: unknown, debug: boolean, out: Output): number {
  if (error instanceof UsageError) {
    const help = error.command ? `zarrkit ${error.command} --help` : "zarrkit --help";
    out.error(`zarrkit: ${error.message}. See "${help}".`);
    if (debug && error.stack) out.error(error.stack);
    return 2;
  }
  if (error instanceof ZarrkitError) {
    const where = [error.key !== undefined && `key ${error.key}`, error.field !== undefined && `field ${error.field}`]
      .filter(Boolean)
      .join(", ");
    const message = error.message.replace(/\s+/g, " ");
    out.error(
      `zarrkit: ${error.name}: ${message}${where && !message.includes(error.key ?? "\0") ? ` (${where})` : ""}`,
    );
  } else {
    out.error(
      `zarrkit: ${error instanceof Error ? `${error.name}: ${error.message.replace(/\s+/g, " ")}` : String(error)}`,
    );
  }
  if (debug && error instanceof Error && error.stack) out.error(error.stack);
  return 1;
}
