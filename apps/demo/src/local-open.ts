// Opening archives and folders from this computer: a file dropped on the page
// or picked, a folder picked with the File System Access API where the browser
// has it, else through a directory input.
import { type DirectoryHandle, fileListFolder, handleFolder } from "./folder-files.js";
import { addLocalFile, addLocalFolder } from "./local-sources.js";

type PickDirectory = () => Promise<DirectoryHandle>;

/** Call `onSource` with the source text of every archive or folder opened from this computer. */
export function listenForLocalSources(onSource: (source: string) => void, onError: (message: string) => void): void {
  const fileInput = document.querySelector<HTMLInputElement>("#file-input")!;
  const folderInput = document.querySelector<HTMLInputElement>("#folder-input")!;
  fileInput.addEventListener("change", () => {
    const file = fileInput.files?.[0];
    if (file) onSource(addLocalFile(file));
    fileInput.value = "";
  });
  folderInput.addEventListener("change", () => {
    const files = Array.from(folderInput.files ?? []);
    if (files.length > 0) onSource(addLocalFolder(fileListFolder(files)));
    folderInput.value = "";
  });
  document.querySelector("#open-file")!.addEventListener("click", () => fileInput.click());
  document.querySelector("#open-folder")!.addEventListener("click", () => {
    const pick = (window as { showDirectoryPicker?: PickDirectory }).showDirectoryPicker;
    if (!pick) {
      folderInput.click();
      return;
    }
    pick.call(window).then(
      (handle) => onSource(addLocalFolder(handleFolder(handle))),
      // Closing the picker is no error.
      (error: unknown) => {
        if (!(error instanceof DOMException && error.name === "AbortError")) onError(String(error));
      },
    );
  });
  document.addEventListener("dragover", (event) => {
    if (event.dataTransfer?.types.includes("Files")) event.preventDefault();
  });
  document.addEventListener("drop", (event) => {
    const file = event.dataTransfer?.files[0];
    if (!file) return;
    event.preventDefault();
    onSource(addLocalFile(file));
  });
}
