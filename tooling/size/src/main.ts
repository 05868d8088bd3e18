// `pnpm size`: today's figures, as the budgets test checks them.
// `pnpm size --write`: set budgets.json from them, with 5% headroom.
import { writeFile } from "node:fs/promises";
import { lazyCodecChunkSizes, minimalReaderSize } from "./measure.js";

const reader = await minimalReaderSize();
console.log(
  `minimal reader (core + sharding + store-fetch): ${reader.initial} B gzip before the first read, ${reader.total} ` +
    `B gzip in all`,
);
const codecs = await lazyCodecChunkSizes();
for (const [chunk, gzip] of [...codecs.sizes].sort()) console.log(`${chunk}: ${gzip} B gzip`);
console.log(
  `Node built-ins: minimal reader ${reader.nodeBuiltins.join(", ") || "none"}; codec ` +
    `chunks ${codecs.nodeBuiltins.join(", ") || "none"}`,
);

if (process.argv.includes("--write")) {
  const budget = (bytes: number) => Math.ceil((bytes * 1.05) / 100) * 100;
  const budgets = {
    minimalReader: { initial: budget(reader.initial), total: budget(reader.total) },
    codecChunks: Object.fromEntries([...codecs.sizes].sort().map(([chunk, gzip]) => [chunk, budget(gzip)])),
  };
  await writeFile(new URL("../budgets.json", import.meta.url), `${JSON.stringify(budgets, null, 2)}\n`);
  console.log("budgets.json written");
}
