import type { CreateArrayOptions } from "zarrkit";
import type { FormName, Profile } from "./profile.js";

export type { FormName };

/** One of the three ways issue 7 stores the same array. */
export interface Form {
  name: FormName;
  /** Path of the array inside the data store. */
  path: string;
  title: string;
  sharded: boolean;
}

export const FORMS: readonly Form[] = [
  { name: "raw", path: "raw", title: "unsharded, uncompressed", sharded: false },
  { name: "zstd", path: "zstd", title: "unsharded, zstd 0", sharded: false },
  { name: "sharded", path: "sharded", title: "sharded, zstd 0 inside", sharded: true },
];

export function form(name: FormName): Form {
  return FORMS.find((f) => f.name === name)!;
}

export const BYTES_LE = { name: "bytes", configuration: { endian: "little" } };
export const ZSTD_0 = { name: "zstd", configuration: { level: 0, checksum: false } };

/** zarrkit's creation options for `form` at the profile's sizes. */
export function definition(form: Form, profile: Profile): CreateArrayOptions {
  const shape = [profile.size, profile.size, profile.size];
  const cube = (n: number) => [n, n, n];
  switch (form.name) {
    case "raw":
      return { shape, dataType: "uint16", chunkShape: cube(profile.chunk), codecs: [BYTES_LE] };
    case "zstd":
      return { shape, dataType: "uint16", chunkShape: cube(profile.chunk), codecs: [BYTES_LE, ZSTD_0] };
    case "sharded":
      // Index codecs: the default, bytes + crc32c, at the end of the shard.
      return { shape, dataType: "uint16", chunkShape: cube(profile.inner), shardShape: cube(profile.shard), codecs: [BYTES_LE, ZSTD_0] };
  }
}

/** Edge of the unit a form is read by: the chunk, or the inner chunk when sharded. */
export function unitEdge(form: Form, profile: Profile): number {
  return form.sharded ? profile.inner : profile.chunk;
}
