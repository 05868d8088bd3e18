import type { CreateArrayOptions } from "zarrkit";
import type { FormName, Profile } from "./profile.js";

export type { FormName };

/**
 * One of the ways the suite stores the same array: issue 7's three, and issue 16's sharded ones without compression or
 * with the other inner chunk edge.
 */
export interface Form {
  name: FormName;
  /** Path of the array inside the data store. */
  path: string;
  sharded: boolean;
  /** zstd 0 inside (every chunk, or every inner chunk), or no compressor. */
  compressed: boolean;
  /** Sharded with inner chunks of the profile's `otherInner` edge instead of its `inner`. */
  otherInner?: boolean;
}

export const FORMS: readonly Form[] = [
  { name: "raw", path: "raw", sharded: false, compressed: false },
  { name: "zstd", path: "zstd", sharded: false, compressed: true },
  { name: "sharded", path: "sharded", sharded: true, compressed: true },
  { name: "sharded-raw", path: "sharded-raw", sharded: true, compressed: false },
  { name: "sharded-other", path: "sharded-other", sharded: true, compressed: true, otherInner: true },
  { name: "sharded-other-raw", path: "sharded-other-raw", sharded: true, compressed: false, otherInner: true },
];

export function form(name: FormName): Form {
  return FORMS.find((f) => f.name === name)!;
}

export const BYTES_LE = { name: "bytes", configuration: { endian: "little" } };
export const ZSTD_0 = { name: "zstd", configuration: { level: 0, checksum: false } };

/** Edge of the inner chunks of a sharded form. */
export function innerEdge(form: Form, profile: Profile): number {
  return form.otherInner ? profile.otherInner : profile.inner;
}

/** How `form` stores the array, for the tables: "unsharded, zstd 0", "sharded, 64^3 inner chunks, zstd 0 inside". */
export function formTitle(form: Form, profile: Profile): string {
  const codec = form.compressed ? "zstd 0" : "uncompressed";
  return form.sharded ? `sharded, ${innerEdge(form, profile)}^3 inner chunks, ${codec} inside` : `unsharded, ${codec}`;
}

/** zarrkit's creation options for `form` at the profile's sizes. */
export function definition(form: Form, profile: Profile): CreateArrayOptions {
  const shape = [profile.size, profile.size, profile.size];
  const cube = (n: number) => [n, n, n];
  const codecs = form.compressed ? [BYTES_LE, ZSTD_0] : [BYTES_LE];
  // Index codecs: the default, bytes + crc32c, at the end of the shard.
  if (form.sharded)
    return {
      shape,
      dataType: "uint16",
      chunkShape: cube(innerEdge(form, profile)),
      shardShape: cube(profile.shard),
      codecs,
    };
  return { shape, dataType: "uint16", chunkShape: cube(profile.chunk), codecs };
}

/** Edge of the unit a form is read by: the chunk, or the inner chunk when sharded. */
export function unitEdge(form: Form, profile: Profile): number {
  return form.sharded ? innerEdge(form, profile) : profile.chunk;
}
