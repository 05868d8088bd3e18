// Child process: the conversion floor (floorConvert), in a process of its own
// like the zarrkit convert it is measured against.
import { zarrkitCrc32c, zarrkitZstd } from "./direct-codecs.js";
import { floorConvert } from "./floor.js";
import { form } from "./forms.js";
import type { Profile } from "./profile.js";

/** What the case passes (one JSON argument). */
export interface ConvertFloorSpec {
  sourceRoot: string;
  destRoot: string;
  profile: Profile;
  level: number;
}

const spec = JSON.parse(process.argv[2]!) as ConvertFloorSpec;
const checksum = await zarrkitCrc32c();
await floorConvert(spec.sourceRoot, form("zstd"), spec.destRoot, spec.profile, {
  zstd: await zarrkitZstd(spec.level),
  checksum: { encode: (bytes) => checksum.encode(bytes, { key: "index" }) },
  fsync: true,
});
