// Saved data sets: copies of arrays in IndexedDB (@zarrkit/store-idb), listed
// with their size, opened as idb:// sources, resumed after a reload, deleted.
import { IdbStore, openArray, type ZarrArray } from "zarrkit";
import { arrayKeys, type CopyProgress, checkCopy, copyArray } from "./offline-copy.js";
import { sourceStore } from "./open-source.js";
import { formatBytes } from "./request-text.js";
import { formatUrlState } from "./url-state.js";

export const DATABASE = "zarrkit-demo";
const MANIFEST = "zarrkit-demo:saved";

export interface SavedEntry {
  id: string;
  name: string;
  /** The source the array was copied from (an http(s) folder or archive, a local one), and its path there. */
  from: string;
  path: string;
  complete: boolean;
  bytes: number;
  keysTotal: number;
}

function entries(): SavedEntry[] {
  try {
    return JSON.parse(localStorage.getItem(MANIFEST) ?? "[]") as SavedEntry[];
  } catch {
    return [];
  }
}

function saveEntry(entry: SavedEntry): void {
  const all = entries().filter((e) => e.id !== entry.id);
  localStorage.setItem(MANIFEST, JSON.stringify([...all, entry]));
}

function removeEntry(id: string): void {
  localStorage.setItem(MANIFEST, JSON.stringify(entries().filter((e) => e.id !== id)));
}

const storeOf = (entry: SavedEntry) => new IdbStore({ database: DATABASE, prefix: `saved/${entry.id}` });
export const idbSource = (entry: SavedEntry) => `idb://${DATABASE}/saved/${entry.id}`;

function progressText(p: CopyProgress): string {
  const eta = p.etaSeconds === undefined ? "" : `, about ${Math.ceil(p.etaSeconds)} s left`;
  return `${formatBytes(p.bytes)}, ${p.keysDone} of ${p.keysTotal} keys${eta}`;
}

export class OfflinePanel {
  private running: AbortController | undefined;

  constructor(
    private readonly list: HTMLElement,
    private readonly progress: HTMLProgressElement,
    private readonly status: HTMLElement,
    private readonly cancel: HTMLButtonElement,
    private readonly onError: (key: string, message: string) => void,
  ) {
    cancel.addEventListener("click", () => this.running?.abort());
    this.render();
  }

  /** Copy `array` (opened from the source `from`) into IndexedDB. */
  save(array: ZarrArray, from: string, name: string): Promise<void> {
    const keys = arrayKeys(array);
    const entry: SavedEntry = {
      id: crypto.randomUUID(),
      name,
      from,
      path: array.path,
      complete: false,
      bytes: 0,
      keysTotal: keys.length,
    };
    saveEntry(entry);
    return this.copy(entry, array, keys, new Set());
  }

  private async resume(entry: SavedEntry): Promise<void> {
    const source = await sourceStore(entry.from);
    const array = await openArray(source, entry.path);
    const present = new Set<string>();
    for await (const key of storeOf(entry).list("")) present.add(key);
    await this.copy(entry, array, arrayKeys(array), present);
  }

  private async copy(entry: SavedEntry, array: ZarrArray, keys: string[], present: Set<string>): Promise<void> {
    if (this.running) return;
    const controller = new AbortController();
    this.running = controller;
    this.cancel.hidden = false;
    this.progress.hidden = false;
    this.progress.max = keys.length;
    try {
      entry.bytes = await copyArray(array.store, array.path, keys, storeOf(entry), {
        present,
        signal: controller.signal,
        bytesBefore: entry.bytes,
        onProgress: (p) => {
          this.progress.value = p.keysDone;
          this.status.textContent = `Saving ${entry.name}: ${progressText(p)}`;
          entry.bytes = p.bytes;
          saveEntry(entry);
        },
      });
      this.status.textContent = `Checking the copy of ${entry.name}…`;
      await checkCopy(storeOf(entry));
      entry.complete = true;
      saveEntry(entry);
      this.status.textContent = `Saved ${entry.name} (${formatBytes(entry.bytes)}).`;
    } catch (error) {
      this.status.textContent = controller.signal.aborted ? `Cancelled: ${entry.name} can be resumed.` : "";
      if (!controller.signal.aborted)
        this.onError(
          `saved/${entry.id}`,
          `Saving ${entry.name} failed: ${error instanceof Error ? error.message : String(error)}`,
        );
    } finally {
      this.running = undefined;
      this.cancel.hidden = true;
      this.progress.hidden = true;
      this.render();
    }
  }

  private async remove(entry: SavedEntry): Promise<void> {
    const store = storeOf(entry);
    const keys: string[] = [];
    for await (const key of store.list("")) keys.push(key);
    for (const key of keys) await store.delete(key);
    removeEntry(entry.id);
    this.render();
  }

  render(): void {
    const all = entries();
    if (all.length === 0) {
      this.list.replaceChildren("Nothing saved yet.");
      return;
    }
    this.list.replaceChildren(
      ...all.map((entry) => {
        const item = document.createElement("li");
        if (entry.complete) {
          const link = document.createElement("a");
          link.href = formatUrlState({ source: idbSource(entry) });
          link.textContent = entry.name;
          item.append(link, ` ${formatBytes(entry.bytes)} `);
        } else {
          item.append(`${entry.name} (incomplete, ${formatBytes(entry.bytes)}) `);
          const resume = Object.assign(document.createElement("button"), { type: "button", textContent: "Resume" });
          resume.addEventListener(
            "click",
            () => void this.resume(entry).catch((e: unknown) => this.onError(entry.from, String(e))),
          );
          item.append(resume, " ");
        }
        const remove = Object.assign(document.createElement("button"), { type: "button", textContent: "Delete" });
        remove.setAttribute("aria-label", `Delete ${entry.name}`);
        remove.addEventListener("click", () => void this.remove(entry));
        item.append(remove);
        return item;
      }),
    );
  }
}
