// @zarrkit/test-utils imports node:fs, node:path and node:url at its top (for
// fixture paths, which the browser tests never use); Vite's browser stubs of
// those modules throw as soon as they are imported, so these stand in for them.
function unavailable(name: string): () => never {
  return () => {
    throw new Error(`${name} is not available in the browser`);
  };
}

export const existsSync = unavailable("fs.existsSync");
export const dirname = unavailable("path.dirname");
export const resolve = unavailable("path.resolve");
export const fileURLToPath = unavailable("url.fileURLToPath");
