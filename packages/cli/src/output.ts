/** Where commands write: stdout for results, stderr for messages (tests capture both). */
export interface Output {
  /** Write one line of results (stdout). */
  write(text: string): void;
  /** Write one line of messages: errors, progress (stderr). */
  error(text: string): void;
  /** Print a help text; returns exit code 0. */
  help(text: string): number;
}

/** The process's own stdout and stderr, one line per call: what `main` writes to unless given another `Output`. */
export const processOutput: Output = {
  write: (text) => void process.stdout.write(`${text}\n`),
  error: (text) => void process.stderr.write(`${text}\n`),
  help(text) {
    process.stdout.write(`${text}\n`);
    return 0;
  },
};
