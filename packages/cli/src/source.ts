import { openPrecomputedImage, type PrecomputedImage } from "@zarrkit/neuroglancer";
import {
  type DataType,
  NotFoundError,
  open,
  type ZarrArray,
  ZarrArray as ZarrArrayClass,
  type ZarrGroup,
  type ZarrNode,
} from "zarrkit";
import type { ResolvedUrl } from "./url.js";

/** What a source URL opened to. */
export type Source =
  | { kind: "array"; array: ZarrArray; url: ResolvedUrl }
  | { kind: "group"; group: ZarrGroup<ZarrNode>; url: ResolvedUrl }
  | { kind: "precomputed"; image: PrecomputedImage; url: ResolvedUrl };

/** Open the Zarr node (v3 or v2) or, for `precomputed://`, the precomputed volume a URL names. */
export async function openSource(url: ResolvedUrl): Promise<Source> {
  if (url.precomputed) {
    const image = await openPrecomputedImage(url.store, { prefix: url.path });
    return { kind: "precomputed", image, url };
  }
  let node: ZarrNode;
  try {
    node = await open(url.store, url.path);
  } catch (error) {
    // Name the URL: the store-relative path ("/") alone does not say where nothing was found.
    if (error instanceof NotFoundError)
      throw new NotFoundError(`${url.display}: ${error.message}`, { ...context(error), cause: error });
    throw error;
  }
  return node instanceof ZarrArrayClass
    ? { kind: "array", array: node, url }
    : { kind: "group", group: node as ZarrGroup<ZarrNode>, url };
}

/** The array's data type object. */
export function dataTypeOf(array: ZarrArray): DataType {
  return array.chunkSpec(array.shape.map(() => 0)).dataType as DataType;
}

/** "zarr-v3" or "zarr-v2". */
export function formatName(node: { format: 2 | 3 }): string {
  return `zarr-v${node.format}`;
}

/** Whether a v2 dtype is big endian: its prefix, or a structured dtype's fields' (which share one order). */
function bigEndianDtype(dtype: unknown): boolean {
  if (typeof dtype === "string") return dtype.startsWith(">");
  return Array.isArray(dtype) && dtype.some((field) => Array.isArray(field) && bigEndianDtype(field[1]));
}

/** The byte order the array stores its elements in: v2's dtype prefix, v3's bytes codec (nested in sharding too). */
export function storedByteOrder(array: ZarrArray): "little" | "big" {
  const metadata = array.metadata;
  if (metadata.zarr_format === 2) return bigEndianDtype(metadata.dtype) ? "big" : "little";
  const find = (codecs: unknown): "little" | "big" | undefined => {
    if (!Array.isArray(codecs)) return undefined;
    for (const codec of codecs) {
      const c = codec as { name?: string; configuration?: { endian?: string; codecs?: unknown } };
      if (c.name === "bytes") return c.configuration?.endian === "big" ? "big" : "little";
      const inner = find(c.configuration?.codecs);
      if (inner) return inner;
    }
    return undefined;
  };
  return find(metadata.codecs) ?? "little";
}

/** The codec chain as metadata: v3's `codecs`, v2's filters then compressor. */
export function codecsOf(array: ZarrArray): unknown[] {
  const metadata = array.metadata;
  if (metadata.zarr_format === 3) return metadata.codecs;
  return [...(metadata.filters ?? []), ...(metadata.compressor ? [metadata.compressor] : [])];
}

function context(error: NotFoundError): { key?: string; field?: string } {
  return {
    ...(error.key !== undefined && { key: error.key }),
    ...(error.field !== undefined && { field: error.field }),
  };
}
