// The files of a folder picked on this computer, by key (the path relative to
// the folder, "/"-separated): from a directory input's FileList, or from a
// File System Access directory handle (looked up path by path when read, so
// opening a folder of many chunk files walks none of them).

/** A picked folder: its name, a file by key, and its keys below a prefix. */
export interface FolderFiles {
  readonly name: string;
  file(key: string): Promise<File | undefined>;
  keys(prefix: string): AsyncIterable<string>;
}

/** The files of `<input type="file" webkitdirectory>`: each `webkitRelativePath` starts with the folder's name. */
export function fileListFolder(files: Iterable<File>): FolderFiles {
  const byKey = new Map<string, File>();
  let name = "";
  for (const file of files) {
    const [top, ...rest] = file.webkitRelativePath.split("/");
    name ||= top ?? "";
    if (rest.length > 0) byKey.set(rest.join("/"), file);
  }
  return {
    name,
    file: async (key) => byKey.get(key),
    async *keys(prefix) {
      for (const key of byKey.keys()) if (key.startsWith(prefix)) yield key;
    },
  };
}

/** The subset of FileSystemDirectoryHandle used here (its async iteration is not in every TypeScript DOM lib). */
export interface DirectoryHandle {
  readonly kind: "directory";
  readonly name: string;
  getDirectoryHandle(name: string): Promise<DirectoryHandle>;
  getFileHandle(name: string): Promise<{ getFile(): Promise<File> }>;
  entries(): AsyncIterable<[string, { kind: "file" | "directory" }]>;
}

/** A folder picked with `showDirectoryPicker()`. */
export function handleFolder(root: DirectoryHandle): FolderFiles {
  return {
    name: root.name,
    async file(key) {
      const segments = key.split("/");
      try {
        let dir = root;
        for (const segment of segments.slice(0, -1)) dir = await dir.getDirectoryHandle(segment);
        return await (await dir.getFileHandle(segments.at(-1)!)).getFile();
      } catch (error) {
        // A missing file or folder is a missing key; anything else (permission) is an error.
        const missing = ["NotFoundError", "TypeMismatchError"];
        if (error instanceof DOMException && missing.includes(error.name)) return undefined;
        throw error;
      }
    },
    async *keys(prefix) {
      async function* walk(dir: DirectoryHandle, path: string): AsyncGenerator<string> {
        for await (const [name, entry] of dir.entries()) {
          const key = path + name;
          if (entry.kind === "file") {
            if (key.startsWith(prefix)) yield key;
          } else if (prefix.startsWith(`${key}/`) || `${key}/`.startsWith(prefix)) {
            yield* walk(await dir.getDirectoryHandle(name), `${key}/`);
          }
        }
      }
      yield* walk(root, "");
    },
  };
}
