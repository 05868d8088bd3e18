// Converting into a zip archive (`.zip`, or an `.ozx` single-file OME-Zarr):
// the conversion writes a staging folder beside the archive, then writeZip
// streams it into the archive atomically (temporary file, rename) and the
// folder is removed. A killed conversion leaves the staging folder, never a
// partial archive; running the same command again resumes from it.
import { existsSync } from "node:fs";
import { rm } from "node:fs/promises";
import { resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { writeZip } from "@zarrkit/store-zip/node";
import { FileSystemStore, NodeExistsError } from "zarrkit";
import { ConvertOptionError } from "./errors.js";

/** An archive destination: where it goes and the folder the conversion writes first. */
export interface ArchiveDestination {
  /** Absolute path of the archive. */
  path: string;
  /** The staging folder's URL, which the conversion writes into. */
  staging: string;
  /** Zip the staging folder into the archive (RFC-9's way; `.ozx` must hold a Zarr hierarchy), then remove it. */
  finish(): Promise<number>;
}

/** The archive a destination names (a local `.zip` or `.ozx` path or file:// URL, no pipeline), or undefined. */
export function archiveDestination(url: string, overwrite: boolean, parts: number): ArchiveDestination | undefined {
  if (url.includes("|") || !/\.(zip|ozx)$/i.test(url)) return undefined;
  if (parts > 1) {
    const why = "an archive is written by one run; convert in parts into a folder, then the folder into the archive";
    throw new ConvertOptionError("part", () => `${url}: ${why}`);
  }
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(url) && !/^file:\/\//i.test(url)) {
    const why = "archives are written to local paths only (write it here, then upload it)";
    throw new ConvertOptionError("destination", () => `${url}: ${why}`);
  }
  const path = /^file:\/\//i.test(url) ? fileURLToPath(url) : resolve(url);
  if (existsSync(path) && !overwrite) {
    throw new NodeExistsError(`destination ${url} already exists; pass --overwrite to replace it`, { key: url });
  }
  const folder = `${path}.zarrkit-partial`;
  return {
    path,
    staging: pathToFileURL(folder).href,
    async finish() {
      const ozx = path.toLowerCase().endsWith(".ozx");
      const written = await writeZip(new FileSystemStore(folder), path, { requireZarrRoot: ozx });
      await rm(folder, { recursive: true, force: true });
      return written.bytes;
    },
  };
}
