// Archives and folders opened from this computer, named in the page's state as
// `local:NAME` (or `local:NAME/path/inside`). The files live in this page's
// memory only: a reload forgets them, and the source then asks for them again.
import { BlobStore, type Store, ZipStore } from "zarrkit";
import type { FolderFiles } from "./folder-files.js";
import { LocalFolderStore } from "./local-folder-store.js";

export const LOCAL = "local:";

/** Opens the store of one local source at a path inside it. */
type LocalOpener = (root: string) => Promise<Store>;

const opened = new Map<string, LocalOpener>();

/**
 * Remember a dropped or picked file and return its source text. Archives are
 * read lazily: the zip directory from the file's tail, then each entry by a
 * `Blob.slice` of its bytes. Anything else is opened as an archive too, so a
 * file that is not one gets the zip reader's typed error.
 */
export function addLocalFile(file: File): string {
  opened.set(file.name, (root) => ZipStore.open(new BlobStore(file, file.name), file.name, { root }));
  return LOCAL + file.name;
}

/** Remember a picked folder and return its source text. */
export function addLocalFolder(folder: FolderFiles): string {
  opened.set(folder.name, async (root) => new LocalFolderStore(folder, root));
  return LOCAL + folder.name;
}

/** The store of a `local:` source, or undefined when this page has not (or no longer) got its file. */
export async function openLocal(source: string): Promise<Store | undefined> {
  const [name = "", ...path] = source.slice(LOCAL.length).split("/");
  const open = opened.get(name);
  return open ? open(path.join("/")) : undefined;
}

/** The name of a local source's file or folder, for messages. */
export const localName = (source: string) => source.slice(LOCAL.length).split("/")[0]!;
