import { contest } from "../contest.js";
import { zarrkitCrc32c } from "../direct-codecs.js";
import type { CaseResult } from "../results.js";
import type { SuiteContext } from "../suite-context.js";

/**
 * Case 7, second half: crc32c of the whole array's bytes with zarrkit's
 * crc32c library. Timed through the codec's decode, which checksums the
 * bytes and compares with the 4 bytes after them (appended, untimed, by
 * encode): encode would also copy the whole array.
 */
export async function floorChecksum(ctx: SuiteContext, data: Uint16Array): Promise<CaseResult> {
  const codec = await zarrkitCrc32c();
  const withChecksum = await codec.encode(new Uint8Array(data.buffer, data.byteOffset, data.byteLength), {
    key: "array",
  });
  const contender = {
    name: "floor",
    async prepare() {
      return async () => codec.decode(withChecksum, { key: "array" });
    },
  };
  const spec = {
    id: "floor/crc32c",
    group: 7,
    title: `crc32c of the whole array's bytes (${data.byteLength / 2 ** 20} MiB)`,
    source: "local",
  } as const;
  return contest(spec, [contender], ctx.profile, ctx.log);
}
