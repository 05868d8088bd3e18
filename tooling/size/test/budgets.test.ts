// Bundle size budgets (gzip bytes, budgets.json): a change that grows the
// minimal reader or a codec's lazy chunk past its budget fails with the figure.
// After a deliberate change: `pnpm size --write` and commit budgets.json.
import { describe, expect, it } from "vitest";
import budgets from "../budgets.json" with { type: "json" };
import { lazyCodecChunkSizes, minimalReaderSize } from "../src/measure.js";

describe("bundle sizes", () => {
  it("keep the minimal reader within budget and free of Node built-ins", async () => {
    const reader = await minimalReaderSize();
    const over = (["initial", "total"] as const)
      .filter((part) => reader[part] > budgets.minimalReader[part])
      .map((part) => `minimal reader ${part}: ${reader[part]} B gzip > budget ${budgets.minimalReader[part]} B`);
    expect(over).toEqual([]);
    expect(reader.nodeBuiltins).toEqual([]);
  });

  it("keep each codec's lazy chunk within its budget and free of Node built-ins", async () => {
    const { sizes, nodeBuiltins } = await lazyCodecChunkSizes();
    const limits: Record<string, number> = budgets.codecChunks;
    const problems: string[] = [];
    for (const [chunk, gzip] of sizes) {
      const limit = limits[chunk];
      if (limit === undefined) problems.push(`${chunk}: ${gzip} B gzip has no budget`);
      else if (gzip > limit) problems.push(`${chunk}: ${gzip} B gzip > budget ${limit} B`);
    }
    for (const chunk of Object.keys(limits))
      if (!sizes.has(chunk)) problems.push(`${chunk}: budgeted but no longer a chunk`);
    expect(problems).toEqual([]);
    // A browser has none, and bundlers should not have to stub them.
    expect(nodeBuiltins).toEqual([]);
  });
});
