/** Where commands write: stdout for results, stderr for messages (tests capture both). */
export interface Output {
  write(text: string): void;
  error(text: string): void;
  /** Print a help text; returns exit code 0. */
  help(text: string): number;
}

export const processOutput: Output = {
  write: (text) => void process.stdout.write(`${text}\n`),
  error: (text) => void process.stderr.write(`${text}\n`),
  help(text) {
    process.stdout.write(`${text}\n`);
    return 0;
  },
};
