// The 2D view of a volume on a canvas: plans the visible tiles (inner chunks),
// reads the missing ones with one request per shard, draws them as they
// arrive, and aborts the reads of slices no longer shown.
import { grayLut, type Lut, viridisLut } from "./colormap.js";
import { autoContrast } from "./contrast.js";
import { explainError } from "./errors.js";
import { type Coloring, planeNumbers, planeRgba } from "./render.js";
import type { Colormap } from "./url-state.js";
import { groupTiles, levelForZoom, type Rect, type Tile, tilesCovering, visibleRect, zoomAround } from "./view-plan.js";
import type { Level, Plane, Volume } from "./volume.js";

export type ViewStatus = "loading" | "ready" | "error";

export interface ViewSettings {
  axes: [number, number];
  /** Level-0 index per dimension (the displayed two are ignored). */
  at: number[];
  zoom: number;
  panRow: number;
  panCol: number;
  /** Undefined: picked from the visible data once it has arrived. */
  contrast: [number, number] | undefined;
  colormap: Colormap;
}

export interface TileRead {
  key: string;
  level: Level;
  levelIndex: number;
  /** Grid coordinates of the group (shard) in the level, all dimensions. */
  groupCoords: number[];
  /** The level index per dimension (the displayed two: the read's top-left). */
  at: number[];
  rect: Rect;
  innerChunks: number;
  decodedBytes: number;
}

export interface ViewerEvents {
  /** Settings changed by the viewer itself (pan, zoom, automatic contrast). */
  onSettings(settings: ViewSettings): void;
  onRead(read: TileRead): void;
  onError(key: string, message: string): void;
  onStatus(status: ViewStatus): void;
}

/** A layer drawn over the image, in level-0 coordinates (the annotations). */
export interface Overlay {
  /** Load what the slice needs; true when something changed to draw. */
  show(axes: readonly [number, number], at: readonly number[]): Promise<boolean>;
  paint(axes: readonly [number, number], at: readonly number[], row: number, col: number): void;
  draw(ctx: CanvasRenderingContext2D, panRow: number, panCol: number, zoom: number): void;
}

interface TileEntry {
  rect: Rect;
  plane?: Plane;
  error?: string;
  image?: HTMLCanvasElement;
  imageFor?: string;
}

const MAX_TILES = 2048;

export class Viewer {
  readonly settings: ViewSettings;
  /** Drawn over the image; with `painting`, dragging paints on it instead of panning. */
  overlay: Overlay | undefined;
  painting = false;
  private readonly tiles = new Map<string, TileEntry>();
  private pending = new Set<string>();
  private controller = new AbortController();
  private sliceKey = "";
  private frame = 0;
  private readonly luts: Record<"gray" | "viridis", Lut> = { gray: grayLut(), viridis: viridisLut() };

  constructor(
    private readonly canvas: HTMLCanvasElement,
    readonly volume: Volume,
    settings: ViewSettings,
    private readonly events: ViewerEvents,
  ) {
    this.settings = settings;
    this.listen();
    new ResizeObserver(() => this.schedule()).observe(canvas);
    this.schedule();
  }

  update(changes: Partial<ViewSettings>): void {
    Object.assign(this.settings, changes);
    this.schedule();
  }

  levelIndex(): number {
    const [, across] = this.settings.axes;
    return levelForZoom(
      this.volume.levels.map((l) => l.factors[across]!),
      this.settings.zoom,
    );
  }

  private schedule(): void {
    cancelAnimationFrame(this.frame);
    this.frame = requestAnimationFrame(() => this.refresh());
  }

  private geometry() {
    return {
      panRow: this.settings.panRow,
      panCol: this.settings.panCol,
      zoom: this.settings.zoom,
      width: this.canvas.clientWidth,
      height: this.canvas.clientHeight,
    };
  }

  /** The level, its slice indices and the visible tiles of the current view. */
  private plan() {
    const index = this.levelIndex();
    const level = this.volume.levels[index]!;
    const [down, across] = this.settings.axes;
    const at = this.settings.at.map((v, d) => Math.min(level.shape[d]! - 1, Math.floor(v / level.factors[d]!)));
    const rows = level.shape[down]!;
    const cols = level.shape[across]!;
    const factor: [number, number] = [level.factors[down]!, level.factors[across]!];
    const rect = visibleRect(this.geometry(), rows, cols, factor);
    const tiles = rect ? tilesCovering(rect, [level.chunkShape[down]!, level.chunkShape[across]!], rows, cols) : [];
    const slice = `${index}|${down},${across}|${at.map((v, d) => (d === down || d === across ? "" : v)).join(",")}`;
    return { index, level, at, tiles, factor, slice };
  }

  private refresh(): void {
    const plan = this.plan();
    if (plan.slice !== this.sliceKey) {
      // A new slice: reads for the old one are no longer wanted.
      this.controller.abort();
      this.controller = new AbortController();
      this.pending.clear();
      this.sliceKey = plan.slice;
    }
    const missing = plan.tiles.filter((t) => {
      const key = this.tileKey(plan.slice, t);
      return !this.tiles.has(key) && !this.pending.has(key);
    });
    const [down, across] = this.settings.axes;
    for (const group of groupTiles(missing, [plan.level.groupShape[down]!, plan.level.groupShape[across]!])) {
      void this.readGroup(plan, group.tiles, group.rect, this.controller.signal);
    }
    if (this.overlay)
      void this.overlay.show(this.settings.axes, this.settings.at).then((changed) => changed && this.schedule());
    this.draw(plan);
  }

  private tileKey(slice: string, tile: Tile): string {
    return `${slice}|${tile.row},${tile.col}`;
  }

  private async readGroup(
    plan: ReturnType<Viewer["plan"]>,
    tiles: Tile[],
    rect: Rect,
    signal: AbortSignal,
  ): Promise<void> {
    const { level, at, slice } = plan;
    const [down, across] = this.settings.axes;
    const keys = tiles.map((t) => this.tileKey(slice, t));
    for (const key of keys) this.pending.add(key);
    const position = at.map((v, d) => (d === down ? rect.r0 : d === across ? rect.c0 : v));
    const storeKey = level.keyAt(position);
    try {
      const plane = await level.readPlane({ axes: [down, across], at, rect, signal });
      if (signal.aborted) return;
      for (const [i, tile] of tiles.entries())
        this.store(keys[i]!, { rect: tile.rect, plane: subPlane(plane, rect, tile.rect) });
      const chunkElements = level.chunkShape.reduce((n, s) => n * s, 1);
      const bytesPerElement = (plane.values as { BYTES_PER_ELEMENT?: number }).BYTES_PER_ELEMENT ?? 8;
      this.events.onRead({
        key: storeKey,
        level,
        levelIndex: plan.index,
        groupCoords: position.map((p, d) => Math.floor(p / level.groupShape[d]!)),
        at: position,
        rect,
        innerChunks: tiles.length,
        decodedBytes: tiles.length * chunkElements * bytesPerElement,
      });
    } catch (error) {
      if (signal.aborted) return;
      const message = explainError(error, storeKey);
      for (const [i, tile] of tiles.entries()) this.store(keys[i]!, { rect: tile.rect, error: message });
      this.events.onError(storeKey, message);
    } finally {
      for (const key of keys) this.pending.delete(key);
    }
    if (slice === this.sliceKey) this.schedule();
  }

  private store(key: string, entry: TileEntry): void {
    this.tiles.delete(key);
    this.tiles.set(key, entry);
    // Least recently stored first: evict the oldest.
    while (this.tiles.size > MAX_TILES) this.tiles.delete(this.tiles.keys().next().value!);
  }

  private coloring(visible: TileEntry[], complete: boolean): Coloring | undefined {
    const { colormap } = this.settings;
    if (colormap === "labels") return { kind: "labels" };
    let contrast = this.settings.contrast;
    if (!contrast) {
      contrast = autoContrast(visible.filter((t) => t.plane).map((t) => planeNumbers(t.plane!)));
      if (!contrast) return undefined;
      if (complete) {
        // Fixed once the whole view has arrived, so panning does not flicker.
        this.settings.contrast = contrast;
        this.events.onSettings(this.settings);
      }
    }
    return { kind: "window", lo: contrast[0], hi: contrast[1], lut: this.luts[colormap] };
  }

  private draw(plan: ReturnType<Viewer["plan"]>): void {
    const dpr = window.devicePixelRatio || 1;
    const width = Math.round(this.canvas.clientWidth * dpr);
    const height = Math.round(this.canvas.clientHeight * dpr);
    if (this.canvas.width !== width) this.canvas.width = width;
    if (this.canvas.height !== height) this.canvas.height = height;
    const ctx = this.canvas.getContext("2d")!;
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, this.canvas.clientWidth, this.canvas.clientHeight);
    ctx.imageSmoothingEnabled = false;

    const visible = plan.tiles.map((t) => this.tiles.get(this.tileKey(plan.slice, t)));
    const settled = visible.filter((t): t is TileEntry => t !== undefined);
    const complete = settled.length === visible.length;
    const coloring = this.coloring(settled, complete);
    const { zoom, panRow, panCol, contrast, colormap } = this.settings;
    const imageKey = `${colormap}|${contrast ?? ""}`;
    for (const tile of settled) {
      if (!tile.plane || !coloring) continue;
      if (tile.imageFor !== imageKey || !tile.image) {
        tile.image = tileImage(tile.plane, coloring, tile.image);
        tile.imageFor = coloring.kind === "window" && this.settings.contrast === undefined ? "" : imageKey;
      }
      const [fr, fc] = plan.factor;
      ctx.drawImage(
        tile.image,
        (tile.rect.c0 * fc - panCol) * zoom,
        (tile.rect.r0 * fr - panRow) * zoom,
        tile.plane.cols * fc * zoom,
        tile.plane.rows * fr * zoom,
      );
    }
    this.overlay?.draw(ctx, panRow, panCol, zoom);
    const failed = settled.some((t) => t.error);
    this.events.onStatus(!complete ? "loading" : failed ? "error" : "ready");
  }

  private listen(): void {
    let drag: { x: number; y: number; panRow: number; panCol: number } | undefined;
    const paintAt = (event: PointerEvent) => {
      const box = this.canvas.getBoundingClientRect();
      const { zoom, panRow, panCol, axes, at } = this.settings;
      this.overlay!.paint(
        axes,
        at,
        panRow + (event.clientY - box.top) / zoom,
        panCol + (event.clientX - box.left) / zoom,
      );
      this.schedule();
    };
    this.canvas.addEventListener("pointerdown", (event) => {
      drag = { x: event.clientX, y: event.clientY, panRow: this.settings.panRow, panCol: this.settings.panCol };
      this.canvas.setPointerCapture(event.pointerId);
      if (this.painting && this.overlay) paintAt(event);
    });
    this.canvas.addEventListener("pointermove", (event) => {
      if (!drag) return;
      if (this.painting && this.overlay) {
        paintAt(event);
        return;
      }
      const { zoom } = this.settings;
      this.update({
        panRow: drag.panRow - (event.clientY - drag.y) / zoom,
        panCol: drag.panCol - (event.clientX - drag.x) / zoom,
      });
    });
    const end = () => {
      if (drag && !this.painting) this.events.onSettings(this.settings);
      drag = undefined;
    };
    this.canvas.addEventListener("pointerup", end);
    this.canvas.addEventListener("pointercancel", end);
    this.canvas.addEventListener(
      "wheel",
      (event) => {
        event.preventDefault();
        const zoom = Math.min(64, Math.max(1 / 64, this.settings.zoom * Math.exp(-event.deltaY / 500)));
        const box = this.canvas.getBoundingClientRect();
        this.update({ zoom, ...zoomAround(this.geometry(), event.clientX - box.left, event.clientY - box.top, zoom) });
        this.events.onSettings(this.settings);
      },
      { passive: false },
    );
  }
}

/** The part `inner` of a plane read for `outer`. */
function subPlane(plane: Plane, outer: Rect, inner: Rect): Plane {
  const offset = (inner.r0 - outer.r0) * plane.rowStride + (inner.c0 - outer.c0) * plane.colStride;
  const rows = inner.r1 - inner.r0;
  const cols = inner.c1 - inner.c0;
  const values = plane.values as unknown as { length: number; [i: number]: number | bigint };
  // Copied out (a small strided copy) so the group's buffer can be freed tile by tile.
  const Ctor = (plane.values as unknown as { constructor: new (n: number) => typeof values }).constructor;
  const out = new Ctor(rows * cols);
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) out[r * cols + c] = values[offset + r * plane.rowStride + c * plane.colStride]!;
  }
  return { rows, cols, values: out as Plane["values"], rowStride: cols, colStride: 1 };
}

function tileImage(plane: Plane, coloring: Coloring, reuse: HTMLCanvasElement | undefined): HTMLCanvasElement {
  const canvas = reuse ?? document.createElement("canvas");
  canvas.width = plane.cols;
  canvas.height = plane.rows;
  canvas.getContext("2d")!.putImageData(new ImageData(planeRgba(plane, coloring), plane.cols, plane.rows), 0, 0);
  return canvas;
}
