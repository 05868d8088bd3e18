import type { Contender } from "./contest.js";
import type { ReadPeer, Reader } from "./peers.js";
import type { Source } from "./sources.js";

/**
 * A peer as a contender: the array's metadata is read once, each run gets a
 * fresh array object (empty caches), and `work` is timed. `setup` runs
 * untimed on the fresh array (e.g. to warm its index cache).
 */
export function readContender(
  peer: ReadPeer,
  source: Source,
  path: string,
  work: (reader: Reader, checking: boolean, fresh: () => Promise<Reader>) => Promise<unknown>,
  setup?: (reader: Reader) => Promise<unknown>,
): Contender {
  let fresh: (() => Promise<Reader>) | undefined;
  return {
    name: peer.name,
    source,
    async prepare(checking) {
      fresh ??= await peer.prepare(source, path);
      const reader = await fresh();
      await setup?.(reader);
      const opener = fresh;
      return () => work(reader, checking, opener);
    },
  };
}
