import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as zk from "zarrkit";
import type { Content } from "./content.js";
import { definition, FORMS } from "./forms.js";
import { DATA_DIR } from "./paths.js";
import type { Profile } from "./profile.js";

/** Bump when the content or the forms change, so cached data is rewritten. */
const DATA_VERSION = 1;

/**
 * Every form of the array, written by zarrkit into data/<profile>/ and
 * kept there: the marker file records what was written, so a change of
 * sizes or content regenerates it.
 */
export async function ensureData(
  profile: Profile,
  content: Content,
  data: Uint16Array,
  log: (line: string) => void,
): Promise<string> {
  const root = join(DATA_DIR, profile.name);
  const marker = join(root, "generated.json");
  const { size, chunk, shard, inner, otherInner } = profile;
  const expected = JSON.stringify({
    version: DATA_VERSION,
    size,
    chunk,
    shard,
    inner,
    otherInner,
    forms: FORMS.map((f) => f.name),
  });
  if (existsSync(marker) && readFileSync(marker, "utf8") === expected) return root;
  rmSync(root, { recursive: true, force: true });
  const store = new zk.FileSystemStore(root);
  const shape = [profile.size, profile.size, profile.size];
  for (const form of FORMS) {
    const start = performance.now();
    const array = await zk.createArray(store, form.path, definition(form, profile));
    await array.set(null, { data, shape });
    log(`generated ${form.name} (${content.size}^3) in ${((performance.now() - start) / 1000).toFixed(1)} s`);
  }
  writeFileSync(marker, expected);
  return root;
}
