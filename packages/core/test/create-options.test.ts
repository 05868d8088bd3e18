import { registerCreateOption } from "@zarrkit/registry";
import { describe, expect, it } from "vitest";
import { createArray, InvalidOptionError, MemoryStore } from "../src/index.js";

/** The option an InvalidOptionError names, or the error itself when it is something else. */
async function refusal(create: Promise<unknown>): Promise<string | undefined> {
  const error = await create.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof InvalidOptionError)) throw new Error(`expected an InvalidOptionError, got ${String(error)}`);
  return error.field;
}

describe("createArray's convenience forms refuse bad options with an InvalidOptionError naming the option", () => {
  const store = new MemoryStore();
  it("v3: a missing chunkShape, a shape that is no list, an unknown option, two layout options", async () => {
    const base = { shape: [4], dataType: "uint8", chunkShape: [2] };
    expect(await refusal(createArray(store, "a", { ...base, chunkShape: undefined as unknown as number[] }))).toBe(
      "chunkShape",
    );
    expect(await refusal(createArray(store, "b", { ...base, shape: 4 as unknown as number[] }))).toBe("shape");
    expect(await refusal(createArray(store, "c", { ...base, chunkShapes: [2] } as never))).toBe("chunkShapes");
    for (const name of ["test.layoutA", "test.layoutB"]) {
      registerCreateOption(name, ({ chunkShape, codecs }) => ({
        gridShape: chunkShape as number[],
        codecs,
        consumed: [],
      }));
    }
    expect(await refusal(createArray(store, "d", { ...base, "test.layoutA": 1, "test.layoutB": 1 } as never))).toBe(
      "test.layoutB",
    );
  });

  it("v2: an unknown option, a shape or chunkShape that is no list", async () => {
    const base = { format: 2 as const, shape: [4], dataType: "uint8", chunkShape: [2] };
    expect(await refusal(createArray(store, "e", { ...base, codecs: [] } as never))).toBe("codecs");
    expect(await refusal(createArray(store, "f", { ...base, shape: "4" } as never))).toBe("shape");
    expect(await refusal(createArray(store, "g", { ...base, chunkShape: 2 } as never))).toBe("chunkShape");
  });
});
