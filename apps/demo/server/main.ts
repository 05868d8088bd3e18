// `pnpm demo`: write the sample data on first run, then serve the built app and the data.
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { parsePort } from "./args.js";
import { writeSamples } from "./samples.js";
import { serve, serverUrl } from "./serve.js";

const appDir = fileURLToPath(new URL("../app", import.meta.url));
const dataDir = process.env.ZARRKIT_DEMO_DATA ?? fileURLToPath(new URL("../../.data", import.meta.url));

async function main(): Promise<void> {
  const port = parsePort(process.argv.slice(2), process.env.PORT);
  if (!existsSync(`${dataDir}/samples.json`)) {
    console.log(`Writing the sample data to ${dataDir} ...`);
    await writeSamples(dataDir);
  }
  const server = await serve({ appDir, dataDir, port });
  console.log(`zarrkit demo: ${serverUrl(server)}/`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
