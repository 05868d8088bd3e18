/** The port from `--port N` / `--port=N`, else the PORT variable, else 4173. */
export function parsePort(argv: readonly string[], env: string | undefined): number {
  let text = env;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--port") text = argv[++i];
    else if (arg.startsWith("--port=")) text = arg.slice("--port=".length);
    else throw new Error(`Unknown argument ${JSON.stringify(arg)}; usage: pnpm demo [--port N]`);
  }
  if (text === undefined || text === "") return 4173;
  const port = Number(text);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`Invalid port ${JSON.stringify(text)}: expected 0..65535`);
  return port;
}
