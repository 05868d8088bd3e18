import { constants } from "node:fs";
import { access } from "node:fs/promises";
import { dirname, join } from "node:path";
import { FileSystemStore, StoreError, ZarrkitError } from "zarrkit";
import type { ResolvedUrl } from "./url.js";

/** The system error code (EROFS, ENOSPC, ...) of an error or of any error in its `cause` chain. */
export function systemCode(error: unknown): string | undefined {
  for (let e = error, depth = 0; e instanceof Error && depth < 8; e = e.cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string" && /^E[A-Z]+$/.test(code)) return code;
  }
  return undefined;
}

const FULL: Record<string, string> = { ENOSPC: "disk full (ENOSPC)", EDQUOT: "disk quota exceeded (EDQUOT)" };
const REFUSED: Record<string, string> = {
  EROFS: "read-only filesystem (EROFS)",
  EACCES: "no permission to write (EACCES)",
  EPERM: "no permission to write (EPERM)",
};

/**
 * A failed write to a filesystem destination, reported by its real cause.
 * The store's own message names the step that failed (taking a lock, a
 * directory), which hides the cause: a full disk surfaces as "Could not lock",
 * and Node's recursive mkdir on a read-only mount reports ENOENT. So a full
 * disk is named from the error's code, and for the other codes the nearest
 * existing directory above the failing key is asked whether it can be written
 * (access(2) answers EROFS on a read-only mount). Other errors are returned as
 * they are.
 */
export async function explainWriteError(error: unknown, dst: ResolvedUrl): Promise<unknown> {
  if (!(dst.store instanceof FileSystemStore)) return error;
  const code = systemCode(error);
  if (code === undefined) return error;
  const key = error instanceof ZarrkitError ? error.key : undefined;
  const where = `${key === undefined ? "" : `${key} in `}${dst.display}`;
  const full = FULL[code];
  if (full) {
    return new StoreError(
      `${full} while writing ${where}: free some space and run the same command again (complete shards are kept)`,
      {
        ...(key !== undefined && { key }),
        cause: error,
      },
    );
  }
  const dir = await nearestDirectory(key === undefined ? dst.store.root : dirname(join(dst.store.root, key)));
  const refused = REFUSED[(await writeProbe(dir)) ?? code];
  if (!refused) return error;
  return new StoreError(`${refused}: cannot write ${where} (${dir} is not writable)`, {
    ...(key !== undefined && { key }),
    cause: error,
  });
}

/** `path` or its nearest ancestor that exists. */
async function nearestDirectory(path: string): Promise<string> {
  for (let at = path; ; at = dirname(at)) {
    try {
      await access(at, constants.F_OK);
      return at;
    } catch {
      if (dirname(at) === at) return at;
    }
  }
}

/** The code access(2) gives for writing into `dir`, or undefined when it may be written. */
async function writeProbe(dir: string): Promise<string | undefined> {
  try {
    await access(dir, constants.W_OK);
    return undefined;
  } catch (error) {
    return systemCode(error);
  }
}
