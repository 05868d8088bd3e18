import { parseArgs } from "node:util";
import { UsageError } from "./errors.js";

export type OptionSpec = Record<string, { type: "string" | "boolean"; short?: string }>;

export interface ParsedCommand<O extends OptionSpec> {
  values: { [K in keyof O]?: O[K]["type"] extends "string" ? string : boolean } & { help?: boolean; debug?: boolean };
  positionals: string[];
}

/** Options every command accepts. */
export const COMMON_OPTIONS = {
  help: { type: "boolean", short: "h" },
  debug: { type: "boolean" },
} as const satisfies OptionSpec;

/**
 * Strict `util.parseArgs`: unknown flags, missing values and surplus
 * positionals become a UsageError naming the flag or value.
 */
export function parseCommand<O extends OptionSpec>(
  command: string,
  args: readonly string[],
  options: O,
  positionals: { min: number; max: number; names: string },
): ParsedCommand<O> {
  let parsed: { values: Record<string, unknown>; positionals: string[] };
  try {
    parsed = parseArgs({
      args: joinValues(args, options),
      options: { ...COMMON_OPTIONS, ...options },
      strict: true,
      allowPositionals: true,
    });
  } catch (error) {
    throw new UsageError(usageMessage(error), command);
  }
  const values = parsed.values as ParsedCommand<O>["values"];
  if (values.help) return { values, positionals: parsed.positionals };
  const n = parsed.positionals.length;
  if (n < positionals.min) throw new UsageError(`missing argument ${positionals.names}`, command);
  if (n > positionals.max)
    throw new UsageError(`unexpected argument ${JSON.stringify(parsed.positionals[positionals.max])}`, command);
  return { values, positionals: parsed.positionals };
}

/**
 * A flag's positive integer value (undefined when the flag is absent). Digits
 * only, at least 1 and a safe integer: "1e3", "2.5" and
 * "99999999999999999999" are usage errors naming the flag, not a number that
 * fails later (a RangeError, or an allocation that exhausts memory).
 */
export function positiveIntegerFlag(value: string | undefined, flag: string, command: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < 1) {
    throw new UsageError(`${flag} ${JSON.stringify(value)}: expected a positive integer`, command);
  }
  if (!Number.isSafeInteger(n)) {
    throw new UsageError(`${flag} ${value}: too large (at most ${Number.MAX_SAFE_INTEGER})`, command);
  }
  return n;
}

/** Node's parseArgs messages, shortened to one line. */
function usageMessage(error: unknown): string {
  const code = (error as { code?: string }).code;
  const message = error instanceof Error ? error.message.split("\n")[0]! : String(error);
  const flag = /'([^']+)'/.exec(message)?.[1];
  switch (code) {
    case "ERR_PARSE_ARGS_UNKNOWN_OPTION":
      return `unknown option ${flag ?? message}`;
    case "ERR_PARSE_ARGS_INVALID_OPTION_VALUE":
      return flag
        ? `option ${flag.split(" ")[0]} ${/argument missing/.test(message) ? "needs a value" : "takes no value"}`
        : message;
    case "ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL":
      return `unexpected argument ${flag ?? message}`;
    default:
      return message;
  }
}

/**
 * `--select -1` as `--select=-1`: parseArgs takes a value starting with "-"
 * for an option, and negative indices are common values of string options.
 */
function joinValues(args: readonly string[], options: OptionSpec): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === "--") {
      out.push(...args.slice(i));
      break;
    }
    const name = arg.startsWith("--")
      ? arg.slice(2)
      : Object.keys(options).find((n) => arg === `-${options[n]!.short}`);
    const next = args[i + 1];
    if (name !== undefined && options[name]?.type === "string" && next !== undefined && /^-\d/.test(next)) {
      out.push(`--${name}=${next}`);
      i++;
    } else {
      out.push(arg);
    }
  }
  return out;
}
