/**
 * Open a reference file of a store as a ReferenceStore: a kerchunk JSON file,
 * or a folder in the Parquet layout (recognised by its `.zmetadata`).
 */
import { InvalidMetadataError, NotFoundError, type Store } from "@zarrkit/registry";
import { KerchunkJsonTable } from "./kerchunk-json.js";
import { type ReferenceStoreOptions, resolveOptions } from "./options.js";
import { ParquetReferenceTable } from "./parquet-table.js";
import { readCapped } from "./read-capped.js";
import type { ReferenceTable } from "./reference.js";
import { ReferenceStore } from "./reference-store.js";

/**
 * A read-only store over the reference file `key` of `store` (kerchunk JSON,
 * version 0 or 1), or over the Parquet layout whose folder is `key`. `path`
 * roots the store inside the references ("" for their root).
 */
export async function openReferenceStore(
  store: Store,
  key: string,
  options: ReferenceStoreOptions = {},
  path = "",
): Promise<ReferenceStore> {
  const resolved = resolveOptions(options);
  const folder = `${key.replace(/\/+$/, "")}/`;
  // A Parquet layout is a folder; its name (refs.parq) says nothing certain, its .zmetadata does.
  const preferJson = /\.json$/i.test(key);
  const metadataKey = `${folder}.zmetadata`;
  const readJson = () => readCapped(store, key, resolved.maxFileBytes, "reference file");
  const readMetadata = () => readCapped(store, metadataKey, resolved.maxFileBytes, "Parquet reference metadata");
  let table: ReferenceTable | undefined;
  if (preferJson) {
    const json = await readJson();
    if (json !== undefined) table = new KerchunkJsonTable(parseJson(json, key), key, resolved.templates);
  }
  if (!table) {
    const metadata = await readMetadata();
    if (metadata !== undefined) table = await ParquetReferenceTable.open(store, metadataKey, metadata, resolved);
  }
  if (!table && !preferJson) {
    const json = await readJson();
    if (json !== undefined) table = new KerchunkJsonTable(parseJson(json, key), key, resolved.templates);
  }
  if (!table)
    throw new NotFoundError(
      `No reference file ${JSON.stringify(key)} ` +
        `(neither JSON nor a Parquet layout with ${JSON.stringify(metadataKey)})`,
      { key },
    );
  return new ReferenceStore(table, store, key, options, path);
}

function parseJson(bytes: Uint8Array, key: string): unknown {
  try {
    return JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
  } catch (error) {
    throw new InvalidMetadataError(`Reference file ${JSON.stringify(key)} is not JSON: ${(error as Error).message}`, {
      key,
      cause: error,
    });
  }
}
