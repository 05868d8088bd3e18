import { describe, expect, it } from "vitest";
import { fileListFolder } from "../src/folder-files.js";
import { LocalFolderStore } from "../src/local-folder-store.js";

/** A File as a directory input gives it: its path below the picked folder's parent in `webkitRelativePath`. */
function picked(path: string, text: string): File {
  const file = new File([text], path.split("/").at(-1)!);
  Object.defineProperty(file, "webkitRelativePath", { value: path });
  return file;
}

const folder = () =>
  fileListFolder([
    picked("data.zarr/zarr.json", '{"zarr_format":3}'),
    picked("data.zarr/a/zarr.json", "{}"),
    picked("data.zarr/a/c/0/0", "0123456789"),
    picked("data.zarr/b/c/1", "xyz"),
  ]);

describe("a picked folder as a store", () => {
  it("names the folder and reads whole values and ranges by key, relative to the folder", async () => {
    const files = folder();
    expect(files.name).toBe("data.zarr");
    const store = new LocalFolderStore(files);
    expect(new TextDecoder().decode(await store.get("zarr.json"))).toBe('{"zarr_format":3}');
    expect(new TextDecoder().decode(await store.getRange("a/c/0/0", { offset: 2, length: 3 }))).toBe("234");
    const suffix = await store.getRangeWithSize("a/c/0/0", { suffixLength: 4 });
    expect(suffix).toEqual({ value: new TextEncoder().encode("6789"), size: 10 });
    expect(await store.get("missing")).toBeUndefined();
    expect(await store.size("b/c/1")).toBe(3);
  });

  it("lists one level, and starts at a folder inside the picked one", async () => {
    const store = new LocalFolderStore(folder());
    const top = await store.listDir("");
    expect(top.keys).toEqual(["zarr.json"]);
    expect(top.prefixes.sort()).toEqual(["a/", "b/"]);
    const inner = new LocalFolderStore(folder(), "a");
    expect(new TextDecoder().decode(await inner.get("c/0/0"))).toBe("0123456789");
    const keys: string[] = [];
    for await (const key of inner.list("")) keys.push(key);
    expect(keys.sort()).toEqual(["c/0/0", "zarr.json"]);
  });

  it("refuses a range that is none, naming the key", async () => {
    const store = new LocalFolderStore(folder());
    await expect(store.getRange("a/c/0/0", { offset: -1, length: 2 })).rejects.toThrow(/a\/c\/0\/0/);
  });
});
