// Codec configurations written by an adversary: integers past 2^53 (bigint
// after core's JSON parsing), Object.prototype's names. Typed errors only.
import { InvalidMetadataError } from "@zarrkit/registry";
import { describe, expect, test } from "vitest";
import { bloscCodecFactory } from "../src/blosc.js";
import { deltaCodecFactory } from "../src/delta.js";
import { gzipCodecFactory } from "../src/gzip.js";
import { numericType } from "../src/numeric-types.js";
import { zstdCodecFactory } from "../src/zstd.js";
import { chunkSpec, create, FIELD } from "./helpers.js";

const HUGE = 123456789012345678901234567890n;

describe("hostile codec configurations", () => {
  test("integers past 2^53 name the field instead of throwing TypeError", async () => {
    for (const [factory, key] of [
      [gzipCodecFactory, "level"],
      [zstdCodecFactory, "level"],
      [zstdCodecFactory, "checksum"],
      [bloscCodecFactory, "clevel"],
      [bloscCodecFactory, "typesize"],
      [bloscCodecFactory, "cname"],
      [deltaCodecFactory, "dtype"],
    ] as const) {
      const error = await create(factory, { [key]: HUGE }, chunkSpec([4], "int32")).catch((e: unknown) => e);
      expect(error, key).toBeInstanceOf(InvalidMetadataError);
      expect((error as InvalidMetadataError).field).toBe(`${FIELD}.configuration.${key}`);
      expect((error as Error).message).toContain(String(HUGE));
    }
  });

  test("dtype names of Object.prototype are not numeric types", async () => {
    for (const name of ["toString", "constructor", "__proto__", "valueOf"]) {
      expect(numericType(name, "f")).toBeUndefined();
      const error = await create(deltaCodecFactory, { dtype: name }, chunkSpec([4], "int32")).catch((e: unknown) => e);
      expect(error, name).toBeInstanceOf(InvalidMetadataError);
      expect((error as Error).message).toContain(`got "${name}"`);
    }
  });

  test("configuration values come from own properties only", async () => {
    // A configuration whose prototype carries a level must not be read as having one.
    const inherited = Object.create({ level: 42 }) as Record<string, unknown>;
    const gzip = await create(gzipCodecFactory, inherited);
    expect(gzip.toJSON()).toEqual({ name: "gzip", configuration: { level: 5 } });
  });
});
