// The inspector beside the view: what the view touched (shards, inner chunks),
// the shard index of the last shard read as a grid, a live request log, totals
// and the metadata.
import { describeShard } from "@zarrkit/sharding";
import { codecWorkerStats, type StoreRequest, type ZarrArray } from "zarrkit";
import { viridisLut } from "./colormap.js";
import { cellBoundaries, codecChain } from "./grid-lines.js";
import { formatBytes, isIndexRead, rangeText } from "./request-text.js";
import type { TileRead } from "./viewer.js";

const LOG_ROWS = 200;

export interface Totals {
  requests: number;
  bytesFetched: number;
  bytesDecoded: number;
  indexReads: number;
  shardReads: number;
}

function workerText(): string {
  const stats = codecWorkerStats();
  if (stats.failure) return `none (${stats.failure})`;
  if (stats.refused) return `${stats.dispatched} of ${stats.dispatched + stats.ranHere} (${stats.refused})`;
  return `${stats.dispatched} of ${stats.dispatched + stats.ranHere}`;
}

function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Record<string, string> = {},
  text?: string,
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, value);
  if (text !== undefined) node.textContent = text;
  return node;
}

export class Inspector {
  readonly totals: Totals = { requests: 0, bytesFetched: 0, bytesDecoded: 0, indexReads: 0, shardReads: 0 };
  private readonly started = performance.now();
  private readonly totalsList = el("dl", { id: "totals" });
  private readonly touched = el("ul", { id: "touched" });
  private readonly touchedKeys = new Map<string, number>();
  private readonly indexGrid = el("canvas", { id: "shard-index", width: "160", height: "160" });
  private readonly indexCaption = el("p", { class: "caption" });
  private readonly logBody = el("tbody");
  private readonly layoutText = el("p", { class: "caption", id: "layout" });
  private readonly gridCanvas = el("canvas", { id: "chunk-grid", width: "160", height: "160" });
  private gridToken = 0;

  constructor(private readonly root: HTMLElement) {
    const log = el("table", { id: "request-log" });
    log.append(el("thead"), this.logBody);
    log.tHead!.innerHTML = "<tr><th>ms</th><th>method</th><th>key</th><th>range</th><th>bytes</th></tr>";
    root.replaceChildren(
      el("h2", {}, "Totals"),
      this.totalsList,
      el("h2", {}, "Touched by the view"),
      this.touched,
      el("h2", {}, "Shard index"),
      this.indexGrid,
      this.indexCaption,
      el("h2", {}, "Requests"),
      el("div", { class: "log" }),
      el("h2", {}, "Layout"),
      this.layoutText,
      this.gridCanvas,
      el("h2", {}, "Metadata"),
      el("pre", { id: "metadata" }),
    );
    root.querySelector(".log")!.append(log);
    this.renderTotals();
  }

  /** Start over for a newly opened volume (or group: no volume). */
  reset(metadata: unknown): void {
    Object.assign(this.totals, { requests: 0, bytesFetched: 0, bytesDecoded: 0, indexReads: 0, shardReads: 0 });
    this.touchedKeys.clear();
    this.touched.replaceChildren();
    this.logBody.replaceChildren();
    this.indexCaption.textContent = "";
    this.indexGrid.getContext("2d")?.clearRect(0, 0, this.indexGrid.width, this.indexGrid.height);
    this.root.querySelector("#metadata")!.textContent = JSON.stringify(metadata, null, 2);
    this.showLayout(undefined, [0, 1]);
    this.renderTotals();
  }

  /**
   * The codec chain, and the array's displayed extent with its grid drawn:
   * shards (or chunks) as dark lines at their real boundaries (rectilinear
   * grids too), inner chunks as light ones.
   */
  showLayout(array: ZarrArray | undefined, axes: readonly [number, number]): void {
    const ctx = this.gridCanvas.getContext("2d")!;
    ctx.clearRect(0, 0, this.gridCanvas.width, this.gridCanvas.height);
    this.gridCanvas.hidden = !array;
    if (!array) {
      this.layoutText.textContent = "";
      return;
    }
    const metadata = array.metadata as Record<string, unknown>;
    const grid = (metadata.chunk_grid as { name?: string } | undefined)?.name ?? "regular (v2)";
    this.layoutText.textContent =
      `codecs: ${codecChain(metadata)}; chunk grid: ${grid}; ` +
      (array.shardShape
        ? `shards [${array.shardShape}] of inner chunks [${array.chunkShape}]`
        : `chunks [${array.chunkShape}]`);
    const [down, across] = axes;
    const rows = array.shape[down]!;
    const cols = array.shape[across]!;
    const scale = Math.min(this.gridCanvas.width / cols, this.gridCanvas.height / rows);
    ctx.fillStyle = "#eee";
    ctx.fillRect(0, 0, cols * scale, rows * scale);
    const lines = (dim: number, step: number | undefined, color: string, horizontal: boolean) => {
      const bounds =
        step === undefined
          ? cellBoundaries(array, dim)
          : Array.from({ length: Math.ceil(array.shape[dim]! / step) + 1 }, (_, i) =>
              Math.min(i * step, array.shape[dim]!),
            );
      if (!bounds || bounds.length > 160) return;
      ctx.strokeStyle = color;
      ctx.beginPath();
      for (const b of bounds) {
        const at = Math.round(b * scale) + 0.5;
        if (horizontal) {
          ctx.moveTo(0, at);
          ctx.lineTo(cols * scale, at);
        } else {
          ctx.moveTo(at, 0);
          ctx.lineTo(at, rows * scale);
        }
      }
      ctx.stroke();
    };
    if (array.shardShape) {
      lines(down, array.chunkShape[down], "#bbb", true);
      lines(across, array.chunkShape[across], "#bbb", false);
    }
    lines(down, undefined, "#333", true);
    lines(across, undefined, "#333", false);
  }

  onRequest(request: StoreRequest): void {
    this.totals.requests++;
    this.totals.bytesFetched += request.bytes;
    if (isIndexRead(request)) this.totals.indexReads++;
    const row = el("tr");
    const cells = [
      String(Math.round(performance.now() - this.started)),
      request.method,
      request.key,
      rangeText(request.range),
      formatBytes(request.bytes),
    ];
    for (const text of cells) row.append(el("td", {}, text));
    this.logBody.prepend(row);
    while (this.logBody.rows.length > LOG_ROWS) this.logBody.lastElementChild!.remove();
    this.renderTotals();
  }

  onRead(read: TileRead, axes: readonly [number, number], array: ZarrArray | undefined): void {
    this.totals.bytesDecoded += read.decodedBytes;
    const sharded = read.level.groupShape.some((s, d) => s !== read.level.chunkShape[d]);
    if (sharded) this.totals.shardReads++;
    this.touchedKeys.set(read.key, (this.touchedKeys.get(read.key) ?? 0) + read.innerChunks);
    this.touched.replaceChildren(
      ...[...this.touchedKeys].map(([key, chunks]) =>
        el("li", {}, `${key}: ${chunks} ${sharded ? "inner chunk" : "chunk"}${chunks === 1 ? "" : "s"} read`),
      ),
    );
    this.renderTotals();
    if (sharded && array) void this.drawShardIndex(array, read, axes);
  }

  /** The shard's index over the displayed axes, at the view's position along the others. */
  private async drawShardIndex(array: ZarrArray, read: TileRead, axes: readonly [number, number]): Promise<void> {
    const token = ++this.gridToken;
    const description = await describeShard(array, read.groupCoords).catch(() => undefined);
    if (!description || token !== this.gridToken) return;
    const [down, across] = axes;
    const per = description.chunksPerShard;
    const chunk = array.chunkShape;
    const shard = array.shardShape!;
    // The inner chunk the view shows along each non-displayed dimension.
    const position = read.groupCoords.map((g, d) =>
      d === down || d === across ? 0 : Math.floor((read.at[d]! - g * shard[d]!) / chunk[d]!),
    );
    const ctx = this.indexGrid.getContext("2d")!;
    const rows = per[down]!;
    const cols = per[across]!;
    const cell = Math.floor(Math.min(this.indexGrid.width / cols, this.indexGrid.height / rows));
    ctx.clearRect(0, 0, this.indexGrid.width, this.indexGrid.height);
    const entries = description.chunks;
    const maxBytes = Math.max(1, ...entries.map((e) => ("nbytes" in e ? e.nbytes : 0)));
    const lut = viridisLut();
    let present = 0;
    let empty = 0;
    for (const entry of entries) {
      const onSlice = entry.coords.every((c, d) => d === down || d === across || c === position[d]);
      if (!onSlice) continue;
      const x = entry.coords[across]! * cell;
      const y = entry.coords[down]! * cell;
      if ("nbytes" in entry) {
        present++;
        const g = Math.round((255 * entry.nbytes) / maxBytes) * 4;
        ctx.fillStyle = `rgb(${lut[g]},${lut[g + 1]},${lut[g + 2]})`;
      } else {
        empty++;
        ctx.fillStyle = "#ddd";
      }
      ctx.fillRect(x + 1, y + 1, cell - 2, cell - 2);
    }
    this.indexCaption.textContent =
      `${description.key}: ${per.join("x")} inner chunks, index at the ${description.indexLocation}; ` +
      `this slice: ${present} present, ${empty} empty (colour: stored size, largest ${formatBytes(maxBytes)})`;
  }

  private renderTotals(): void {
    const { requests, bytesFetched, bytesDecoded, indexReads, shardReads } = this.totals;
    const items: [string, string][] = [
      ["Requests", String(requests)],
      ["Bytes fetched", formatBytes(bytesFetched)],
      ["Bytes decoded", formatBytes(bytesDecoded)],
      ["Shard index reads", String(indexReads)],
      ["Index cache hits", String(Math.max(0, shardReads - indexReads))],
      ["Chunks decoded on workers", workerText()],
    ];
    this.totalsList.replaceChildren(
      ...items.flatMap(([name, value]) => [el("dt", {}, name), el("dd", { "data-total": name }, value)]),
    );
  }
}
