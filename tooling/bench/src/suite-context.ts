import type { Content } from "./content.js";
import type { BytesCodec } from "./direct-codecs.js";
import type { Profile } from "./profile.js";
import type { TensorstorePeer } from "./tensorstore/contenders.js";

/** What every case needs. */
export interface SuiteContext {
  profile: Profile;
  content: Content;
  /** The store holding the three forms (data/<profile>/). */
  dataRoot: string;
  /** Scratch directory for writes, emptied before each run. */
  scratchRoot: string;
  /** zarrkit's zstd libraries, for the floor's decoding. */
  zstd: BytesCodec;
  /** tensorstore's child process, or why it does not run. */
  tensorstore: TensorstorePeer;
  log(line: string): void;
}
