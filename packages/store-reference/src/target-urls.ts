/**
 * Where a reference's target lives: an absolute URL (`https://host/data.h5`,
 * `s3://bucket/x.nc`, `file:///data/x.h5`) or absolute path opens the store
 * of its folder; a relative URL is a key beside the reference file, in the
 * reference file's own store (so it also works inside archives and other
 * pipelines), and may not climb out of that store.
 */
import { StoreError, storeKeyProblem } from "@zarrkit/registry";

/** A target resolved: in the reference file's store, or in the store of an absolute URL's folder. */
export type TargetLocation = { kind: "beside"; key: string } | { kind: "url"; folder: string; key: string };

/** Where `url` (from the reference of `key`, at `field`) lives, relative URLs against `referenceFile`'s folder. */
export function locateTarget(
  url: string,
  referenceFile: string,
  context: { key: string; field: string },
): TargetLocation {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(url) || url.startsWith("/")) {
    const path = url.replace(/[?#].*$/, "");
    const slash = path.lastIndexOf("/");
    const key = safeDecode(path.slice(slash + 1));
    if (key === "" || key === undefined) {
      throw new StoreError(
        `The reference of ${JSON.stringify(context.key)} (${context.field}) names no file: ${JSON.stringify(url)}`,
        context,
      );
    }
    return { kind: "url", folder: url.slice(0, slash + 1) + url.slice(path.length), key };
  }
  const folder = referenceFile.includes("/") ? referenceFile.slice(0, referenceFile.lastIndexOf("/") + 1) : "";
  const segments: string[] = [];
  for (const segment of (folder + url).split("/")) {
    if (segment === "." || segment === "") continue;
    if (segment === "..") {
      if (segments.pop() === undefined) {
        throw new StoreError(
          `The reference of ${JSON.stringify(context.key)} (${context.field}) ` +
            `points outside the reference file's store: ${JSON.stringify(url)}`,
          context,
        );
      }
      continue;
    }
    segments.push(segment);
  }
  const key = segments.join("/");
  const problem = storeKeyProblem(key);
  if (problem) {
    throw new StoreError(
      `The reference of ${JSON.stringify(context.key)} (${context.field}) ` +
        `has an invalid target ${JSON.stringify(url)}: ${problem}`,
      context,
    );
  }
  return { kind: "beside", key };
}

function safeDecode(text: string): string | undefined {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}
